package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/signkey"
	"github.com/aepgate/aepgate/internal/store"
)

// leafCommands are the commands a user runs: every runnable command of the
// tree with flags of its own ('keys' as well as 'keys generate'); groups
// that only print their help, hidden ones (the 'demo' signpost) and
// cobra's own left out.
func leafCommands() []*cobra.Command {
	var out []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, sub := range c.Commands() {
			walk(sub)
		}
		group := c.HasSubCommands() && !c.Flags().HasAvailableFlags() // 'review', 'certificate': help only
		if group || c.Hidden || !c.Runnable() || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		out = append(out, c)
	}
	walk(NewRoot("", TestApp, nil, nil, nil))
	return out
}

// grammarRun is one command's run with --format json: its arguments, the
// exit code it must end with, and whether stdout (its last line for
// action, which first writes workflow commands) must be JSON.
type grammarRun struct {
	args []string
	code int
	json bool
}

// grammarRuns gives each command a run with --format json that reaches its
// output (or, where that needs GitHub, a service or a browser, its first
// refusal).
func grammarRuns(t *testing.T) map[string]grammarRun {
	tmp := t.TempDir()
	run := "../../../examples/ledger-service"
	w := newCertWorld(t)
	db := filepath.Join(tmp, "ledger.db")
	d, err := store.Open(context.Background(), "sqlite:"+db)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	d.Close()
	review := filepath.Join(tmp, "review.md")
	writeFile(t, tmp, "review.md", "not an audit\n")
	pem, err := signkey.Generate()
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, tmp, "key.pem", string(pem))
	return map[string]grammarRun{
		"aepgate action":            {[]string{"action"}, exitUsage, true},
		"aepgate app manifest":      {[]string{"app", "manifest", "--url", "https://aepgate.example.com"}, exitOK, true},
		"aepgate app register":      {[]string{"app", "register", "--url", "http://not-https"}, exitUsage, false},
		"aepgate board":             {[]string{"board", run, "--out", filepath.Join(tmp, "b.html")}, exitOK, true},
		"aepgate certificate fetch": {append(w.args("--app-id", "777"), "--github-url", w.f.URL()), exitFindings, true},
		// A flag that reads another check: run beside its command.
		"aepgate certificate fetch --increment": {w.args("--app-id", "777", "--increment", "1"), exitFindings, true},
		"aepgate certificate scan":              {[]string{"certificate", "scan", "testdata/evidence/certificates"}, exitOK, true},
		"aepgate certificate validate":          {[]string{"certificate", "validate", "testdata/evidence/certificate-mismatch.json"}, exitFindings, true},
		"aepgate config validate":               {[]string{"config", "validate", "testdata/config/extends.yml", "--resolved", "--base", "testdata/config/org-base.yml"}, exitOK, true},
		"aepgate gate eval":                     {[]string{"gate", "eval", "testdata/evidence/gates-hold.json", "--action", "merge"}, exitRefused, true},
		"aepgate healthcheck":                   {[]string{"healthcheck", "--url", "http://127.0.0.1:1/readyz"}, exitFindings, true},
		"aepgate init":                          {[]string{"init", filepath.Join(tmp, "run")}, exitOK, true},
		"aepgate install-skill":                 {[]string{"install-skill", "--dest", filepath.Join(tmp, "skill") + "/"}, exitOK, true},
		"aepgate ledger verify":                 {[]string{"ledger", "verify", "--database", "sqlite:" + db}, exitOK, true},
		"aepgate lint":                          {[]string{"lint", run}, exitOK, true},
		"aepgate mcp":                           {[]string{"mcp", "--github-url", "not a url"}, exitUsage, false},
		"aepgate negcontrol":                    {[]string{"negcontrol", "--test-cmd", "true", "--restore-cmd", "true"}, exitFindings, true},
		"aepgate plans verify":                  {[]string{"plans", "verify", tmp}, exitUsage, false},
		"aepgate release verify":                {[]string{"release", "verify", "--repo", "octo/demo", "--tag", "v1.2.3"}, exitFindings, true},
		"aepgate review check":                  {[]string{"review", "check", review}, exitFindings, true},
		"aepgate serve":                         {[]string{"serve"}, exitUsage, false},
		"aepgate status":                        {[]string{"status", run}, exitOK, true},
		"aepgate version":                       {[]string{"version"}, exitOK, true},
		"aepgate certificate verify":            {[]string{"certificate", "verify", filepath.Join(tmp, "none.json"), "--jwks", filepath.Join(tmp, "none.jwks")}, exitUsage, false},
		"aepgate keys generate":                 {[]string{"keys", "generate", "--out", filepath.Join(tmp, "signing.pem")}, exitOK, true},
		"aepgate keys":                          {[]string{"keys", "--signing-key-file", filepath.Join(tmp, "key.pem")}, exitOK, true},
		"aepgate keys revocations":              {[]string{"keys", "revocations", "--signing-key-file", filepath.Join(tmp, "key.pem")}, exitOK, true},
		"aepgate ledger export":                 {[]string{"ledger", "export", "--database", "sqlite:" + db}, exitOK, false},
		"aepgate simulate":                      {[]string{"simulate", "--repo", "widgets", "--pr", "1"}, exitUsage, false},
		"aepgate verify":                        {[]string{"verify", run}, exitOK, true},
	}
}

// TestEveryCommandSpeaksTheSameGrammar walks the command tree: every leaf
// command has an Examples section and the exit-code table in its help,
// refuses an unknown --format with exit 2, and runs with --format json,
// printing JSON and ending with a code of the table. A command added
// without a run here fails the test.
func TestEveryCommandSpeaksTheSameGrammar(t *testing.T) {
	runs := grammarRuns(t)
	codes := make([]int, len(exitCodes))
	for i, e := range exitCodes {
		codes[i] = e.Code
	}
	for _, c := range leafCommands() {
		path := c.CommandPath()
		t.Run(path, func(t *testing.T) {
			args := strings.Fields(strings.TrimPrefix(path, "aepgate "))
			_, help, _ := runCLI(t, append(args, "--help")...)
			if !strings.Contains(help, "\nExamples:\n") || !strings.Contains(help, exitTable()) {
				t.Errorf("--help lacks an Examples section or the exit-code table:\n%s", help)
			}
			if code, _, errOut := runCLI(t, append(args, "--format", "xml")...); code != exitUsage || !strings.Contains(errOut, "--format must be") {
				t.Errorf("--format xml: exit %d, stderr %q; want 2", code, errOut)
			}
			r, ok := runs[path]
			if !ok {
				t.Fatalf("no --format json run for %s in grammarRuns", path)
			}
			code, out, errOut := runCLI(t, append(r.args, "--format", "json")...)
			if code != r.code || !slices.Contains(codes, code) {
				t.Fatalf("exit %d, want %d (a code of the table)\nstdout %s\nstderr %s", code, r.code, out, errOut)
			}
			if r.json && !isJSONOutput(path, out) {
				t.Errorf("--format json printed no JSON:\n%s", out)
			}
		})
	}
	variants := 0
	for path, r := range runs {
		if !strings.Contains(path, " --") {
			continue
		}
		variants++
		if code, out, errOut := runCLI(t, append(r.args, "--format", "json")...); code != r.code || (r.json && !isJSONOutput(path, out)) {
			t.Errorf("%s: exit %d (want %d), stdout %s, stderr %s", path, code, r.code, out, errOut)
		}
	}
	if n := len(leafCommands()); n != len(runs)-variants {
		t.Errorf("%d leaf commands, %d runs: a run names a command that is gone", n, len(runs)-variants)
	}
}

// isJSONOutput reports whether out is one JSON value (action: its last
// line is).
func isJSONOutput(path, out string) bool {
	if path == "aepgate action" {
		lines := strings.Split(strings.TrimSpace(out), "\n")
		out = lines[len(lines)-1]
	}
	return json.Valid([]byte(out)) && strings.TrimSpace(out) != ""
}

// TestREADMEHasTheExitCodeTable: the README's exit-code table is the one
// every --help prints, row for row.
func TestREADMEHasTheExitCodeTable(t *testing.T) {
	if readme := repoFile(t, "README.md"); !strings.Contains(readme, exitMarkdown()) {
		t.Errorf("README.md lacks the exit-code table:\n%s", exitMarkdown())
	}
}

// exitMarkdown renders exitCodes as the README's Markdown table.
func exitMarkdown() string {
	var b strings.Builder
	b.WriteString("| exit code | meaning |\n|---|---|\n")
	for _, e := range exitCodes {
		fmt.Fprintf(&b, "| %d | %s |\n", e.Code, e.Meaning)
	}
	return b.String()
}
