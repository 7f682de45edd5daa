package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

// render is what a golden file holds: the decoded config as JSON, or the
// error list, one per line.
func render(t *testing.T, c *Config, err error) string {
	t.Helper()
	if err != nil {
		var es Errors
		if !errors.As(err, &es) {
			t.Fatalf("Parse returned %T, want config.Errors", err)
		}
		return "ERRORS\n" + es.Error() + "\n"
	}
	b, jerr := json.MarshalIndent(c, "", "  ")
	if jerr != nil {
		t.Fatal(jerr)
	}
	return "OK\n" + string(b) + "\n"
}

func TestParseGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/*.yml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".yml")
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c, perr := Parse(".github/aepgate.yml", data)
			got := render(t, c, perr)
			golden.CheckString(t, strings.TrimSuffix(file, ".yml")+".golden", got)
		})
	}
}

func TestParseFull(t *testing.T) {
	data, err := os.ReadFile("testdata/full.yml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse("full.yml", data)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{
		Version:      1,
		Owners:       []string{"alice"},
		Coordinators: []string{"bob", "ci-bot[bot]"},
		Auditors:     []string{"carol"},
		AuditTriage:  true,
		RunDocuments: []string{"docs/run-1", "docs/runs/*"},
		NegativeControls: []NegativeControl{
			{Name: "auth-guard", File: "internal/auth/guard.go",
				Break: "sed -i 's/return false/return true/' internal/auth/guard.go",
				Test:  "go test ./internal/auth/", Expect: "TestGuard", Timeout: 2 * time.Minute, Line: 7},
			{Name: "manual.break_1", Restore: "git checkout -- internal/auth", Test: "go test ./...",
				Timeout: 90 * time.Second, Line: 13},
		},
		RequiredWorkflows:    RequiredWorkflows{PullRequest: []string{"ci"}, Readback: []string{"ci", "release checks"}},
		ContractPaths:        []string{"docs/contract/**"},
		Risk:                 Risk{Default: RiskHigh},
		DefaultContractPaths: DefaultContractPaths(),
		Limits:               Limits{Corrections: 0, Exchanges: 5, AttemptsPerUnit: 1, LanesPerIncrement: 2},
		Stall:                Stall{SuspectAfter: DefaultSuspectAfter, StalledAfter: DefaultStalledAfter},
		CommandPrefix:        "/gate",
		Release:              Release{Manifest: "dist/manifest.sha256", Assets: []string{"dist/manifest.sha256", "install.sh"}},
		Readback:             Readback{Timeout: 2 * time.Hour, Coverage: CoverageReplay},
		Mode:                 ModeEnforce,
		Closure:              Closure{Reopen: true, Final: FinalCertified},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Parse mismatch (-want +got):\n%s", diff)
	}
}

func TestDefaults(t *testing.T) {
	got, err := Parse("x.yml", []byte("version: 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(Default(), got); diff != "" {
		t.Errorf("minimal file differs from Default (-want +got):\n%s", diff)
	}
	d := Default()
	if d.Risk.Default != RiskMedium || d.Limits.Corrections != 1 || d.Limits.Exchanges != 3 || d.CommandPrefix != "/aep" ||
		d.Limits.AttemptsPerUnit != 1 || d.Limits.LanesPerIncrement != 2 || d.Stall.SuspectAfter != 15*time.Minute || d.Stall.StalledAfter != 30*time.Minute {
		t.Errorf("Default() = %+v", d)
	}
}

func TestErrorFields(t *testing.T) {
	src := "version: 1\nnegative_controls:\n  - name: a\n    break: x\n    restore: y\n    test: z\n  - name: b\n    break: x\n    restore: y\n    test: z\n    timeout: forever\n"
	_, err := Parse("f.yml", []byte(src))
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("err = %v, want Errors", err)
	}
	want := Errors{{File: "f.yml", Line: 11, Column: 14, Field: "negative_controls[1].timeout",
		Message: `must be a Go duration like "90s" or "2m", or a number of seconds, not "forever"`}}
	if diff := cmp.Diff(want, es); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	if got, want := es[0].Error(), `f.yml:11:14: negative_controls[1].timeout: must be a Go duration like "90s" or "2m", or a number of seconds, not "forever"`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestErrorsSortedByLine(t *testing.T) {
	_, err := Parse("f.yml", []byte("risk:\n  default: x\nversion: 3\nowners: 5\n"))
	var es Errors
	if !errors.As(err, &es) {
		t.Fatalf("err = %v", err)
	}
	for i := 1; i < len(es); i++ {
		if es[i-1].Line > es[i].Line {
			t.Errorf("errors not sorted: %v", es)
		}
	}
	if len(es) != 3 {
		t.Errorf("got %d errors, want 3: %v", len(es), es)
	}
}

// TestStrictnessCanFail is the negative control of strict decoding: with
// the unknown-key check removed, a misspelt key would pass silently.
func TestStrictnessCanFail(t *testing.T) {
	src := []byte("version: 1\nowner: [alice]\n")
	if _, err := Parse("f.yml", src); err == nil {
		t.Fatal("a misspelt key was accepted")
	}
	d := &decoder{file: "f.yml", pathRule: checkPath}
	root, _ := d.document(src)
	c := Default()
	// Decode with every key known: the misspelling is now invisible.
	d.fields(root, "", fieldSetters{"version": func(*yamlNode, string) {}, "owner": func(*yamlNode, string) {}})
	if len(d.errs) != 0 || len(c.Owners) != 0 {
		t.Fatalf("control did not reproduce the silent pass: %v", d.errs)
	}
}

// TestPathCheckCanFail is the negative control of the path check: without
// it, a declared control could back up and overwrite a file outside the
// repository (and outside its isolated copy).
func TestPathCheckCanFail(t *testing.T) {
	src := []byte("version: 1\nrun_documents: [../other]\nnegative_controls:\n  - {name: x, file: ../../etc/hosts, break: b, test: t}\n")
	if _, err := Parse("f.yml", src); err == nil || strings.Count(err.Error(), "must not contain '..'") != 2 {
		t.Fatalf("escaping paths not both rejected: %v", err)
	}
	c, err := parse("f.yml", src, func(string, bool) string { return "" })
	if err != nil || c.NegativeControls[0].File != "../../etc/hosts" {
		t.Fatalf("control did not reproduce the escape: %v", err)
	}
}

// TestExampleConfig keeps the documented example valid.
func TestExampleConfig(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "aepgate.yml"))
	if err != nil {
		t.Fatalf("the shipped example is missing: %v", err)
	}
	c, err := Parse("examples/aepgate.yml", data)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.NegativeControls) != 2 || c.NegativeControls[1].Timeout != 90*time.Second {
		t.Errorf("example decoded to %+v", c.NegativeControls)
	}
}
