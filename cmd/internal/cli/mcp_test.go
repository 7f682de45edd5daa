package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/aepgate/aepgate/cmd/internal/mcpserve"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// mcpRun is the run folder the lint and status tools read.
const mcpRun = "../../../examples/ledger-service"

// mcpSession connects the SDK's own client to the server over an
// in-memory transport; the server's log goes to logs.
func mcpSession(t *testing.T, fl mcpFlags, logs *bytes.Buffer) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	if logs != nil {
		log = slog.New(slog.NewTextHandler(logs, nil))
	}
	srv := mcpserve.New("test", mcpCLI{version: "test", flags: fl, side: TestApp}, log)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs
}

// mcpCall calls tool with args; a protocol error fails the test (a tool
// error is a result).
func mcpCall(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// mcpTexts are the text contents of res.
func mcpTexts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

// asJSON decodes b, or re-encodes v and decodes it, into plain JSON values
// for comparison.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, ok := v.([]byte)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return out
}

// TestMCPListsTools: the server offers its six tools, each read-only with
// an input and an output schema.
func TestMCPListsTools(t *testing.T) {
	cs := mcpSession(t, mcpFlags{}, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tool := range res.Tools {
		got = append(got, tool.Name)
		if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Annotations == nil || !tool.Annotations.ReadOnlyHint || tool.Description == "" {
			t.Errorf("%s: input schema %v, output schema %v, annotations %+v: want both schemas, read-only, a description", tool.Name, tool.InputSchema != nil, tool.OutputSchema != nil, tool.Annotations)
		}
	}
	slices.Sort(got)
	want := []string{"lint", "plans_verify", "report_check", "review_check", "status", "what_blocks"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

// TestMCPToolsAreTheCLI: each command-backed tool's first text is exactly
// what the command prints, and its structured output is exactly the
// command's --format json (a field the tool's type would drop shows here).
func TestMCPToolsAreTheCLI(t *testing.T) {
	repo := reviewRepo(t)
	review := filepath.Join(t.TempDir(), "review.md")
	if err := os.WriteFile(review, []byte(auditReview("PASS", "", quoteAbsent)), 0o600); err != nil {
		t.Fatal(err)
	}
	pr := newPlansRepo(t)
	c1 := pr.commit("model", map[string]string{"src/model.go": "package src\n"})
	c2 := pr.commit("api", map[string]string{"src/api.go": "package src\n"})
	pr.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansState(c1, c2, "sh src/ok.sh", "0")})
	plansDir := filepath.Join(pr.dir, "plans", "billing")
	tests := []struct {
		name  string
		tool  string
		args  map[string]any
		stdin string
		cli   []string
		code  int
	}{
		{"lint", "lint", map[string]any{"dir": mcpRun}, "", []string{"lint", mcpRun}, 0},
		{"lint with a threshold", "lint", map[string]any{"dir": mcpRun, "annex_threshold": 0}, "", []string{"lint", mcpRun, "--annex-threshold", "0"}, 1},
		{"status", "status", map[string]any{"dir": mcpRun}, "", []string{"status", mcpRun}, 0},
		{"review check of text", "review_check", map[string]any{"review": auditReview("PASS", "", quoteV2), "repo_dir": repo},
			auditReview("PASS", "", quoteV2), []string{"review", "check", "-", "--repo-dir", repo}, 0},
		{"review check of a file with problems", "review_check", map[string]any{"file": review, "repo_dir": repo, "sha": "HEAD"},
			"", []string{"review", "check", review, "--repo-dir", repo, "--sha", "HEAD"}, 1},
		{"plans verify", "plans_verify", map[string]any{"dir": plansDir}, "", []string{"plans", "verify", plansDir}, 0},
		{"plans verify as another phase", "plans_verify", map[string]any{"dir": plansDir, "phase": 2, "base": "main", "author": "exec-bot"},
			"", []string{"plans", "verify", plansDir, "--phase", "2", "--base", "main", "--author", "exec-bot"}, 1},
	}
	cs := mcpSession(t, mcpFlags{}, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mcpCall(t, cs, tt.tool, tt.args)
			if res.IsError {
				t.Fatalf("tool error: %q", mcpTexts(res))
			}
			var out, errb bytes.Buffer
			code := Run(context.Background(), tt.cli, strings.NewReader(tt.stdin), &out, &errb)
			if code != tt.code {
				t.Fatalf("the command exits %d, want %d: %s", code, tt.code, errb.String())
			}
			if got := mcpTexts(res); len(got) == 0 || got[0] != out.String() {
				t.Errorf("text differs from the command's:\n got %q\nwant %q", got, out.String())
			}
			out.Reset()
			Run(context.Background(), append(tt.cli, "--format", "json"), strings.NewReader(tt.stdin), &out, &errb)
			if diff := cmp.Diff(asJSON(t, out.Bytes()), asJSON(t, res.StructuredContent)); diff != "" {
				t.Errorf("structured output differs from --format json (-cli +tool):\n%s", diff)
			}
		})
	}
}

// mcpReport is a worker report for the head sha on branch feat of
// acme/widgets#7 and work unit #1.
func mcpReport(sha string) string {
	return "Work-unit: #1\n\nSTATUS: done\nWORK-UNIT: #1\nATTEMPT: 1\nBRANCH: feat\nPR: #7\nDONE: the export\nNOT DONE / OPEN: none\n" +
		"FILES: export.go\nVERIFY:\n- go test ./... → ok\nPRESERVATION: clean + pushed at " + sha + "\n"
}

// TestMCPReportCheck: the worker report of a draft description is judged
// as the Action's aep/report judges it: a stale PRESERVATION and a FILES
// line leaving a changed file out are caught.
func TestMCPReportCheck(t *testing.T) {
	head := strings.Repeat("a", 40)
	stale := strings.Repeat("b", 40)
	tests := []struct {
		name           string
		body           string
		files          []string
		wantConclusion string
		wantProblems   []string
		wantWarnings   int
	}{
		{"a good report", mcpReport(head), []string{"export.go"}, "success", []string{}, 0},
		{"pushed since", mcpReport(stale), []string{"export.go"}, "failure", []string{"stale-preservation"}, 0},
		{"a changed file left out", mcpReport(head), []string{"export.go", "main.go"}, "success", []string{}, 1},
		{"no report", "Just a description.", nil, "failure", []string{"no-report"}, 0},
	}
	cs := mcpSession(t, mcpFlags{}, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := map[string]any{"body": tt.body, "head_sha": head, "number": 7, "head_branch": "feat", "repo": "acme/widgets"}
			if tt.files != nil {
				args["files"] = tt.files
			}
			res := mcpCall(t, cs, "report_check", args)
			if res.IsError {
				t.Fatalf("tool error: %q", mcpTexts(res))
			}
			var got mcpserve.ReportCheck
			if err := json.Unmarshal(mustJSON(t, res.StructuredContent), &got); err != nil {
				t.Fatal(err)
			}
			codes := []string{}
			for _, p := range got.Problems {
				codes = append(codes, p.Code)
			}
			if got.Conclusion != tt.wantConclusion || !slices.Equal(codes, tt.wantProblems) || len(got.Warnings) != tt.wantWarnings {
				t.Errorf("got %s, problems %q, %d warnings; want %s, %q, %d", got.Conclusion, codes, len(got.Warnings), tt.wantConclusion, tt.wantProblems, tt.wantWarnings)
			}
			if text := mcpTexts(res); len(text) == 0 || !strings.HasPrefix(text[0], "aep/report: "+tt.wantConclusion+" — "+got.Title+"\n") {
				t.Errorf("text %q does not start with the run's line", text)
			}
		})
	}
}

// TestMCPToolErrors: a tool that cannot do its work answers with a tool
// error naming what was wrong, and the server goes on serving.
func TestMCPToolErrors(t *testing.T) {
	f, _ := simulateRepo(t)
	t.Setenv("GH_TOKEN", "")
	t.Setenv("GITHUB_TOKEN", "")
	missing := filepath.Join(t.TempDir(), "missing")
	tests := []struct {
		name string
		tool string
		args map[string]any
		want string
	}{
		{"lint without a folder", "lint", map[string]any{}, `missing properties: ["dir"]`},
		{"lint of an empty folder name", "lint", map[string]any{"dir": ""}, "dir is required"},
		{"lint of a missing folder", "lint", map[string]any{"dir": missing}, "missing"},
		{"a folder named like a flag is a folder", "lint", map[string]any{"dir": "--help"}, "--help"},
		{"a wrong type", "lint", map[string]any{"dir": 3}, "dir"},
		{"status of a missing folder", "status", map[string]any{"dir": missing}, "not found"},
		{"review check of nothing", "review_check", map[string]any{}, "give the draft review"},
		{"review check of both", "review_check", map[string]any{"review": "x", "file": missing}, "not both"},
		{"review check of a missing file", "review_check", map[string]any{"file": missing}, "missing"},
		{"review check outside a checkout", "review_check", map[string]any{"review": "x", "repo_dir": t.TempDir()}, "--repo-dir"},
		{"plans verify outside a checkout", "plans_verify", map[string]any{"dir": t.TempDir()}, "git"},
		{"report check of a short sha", "report_check", map[string]any{"body": "STATUS: done", "head_sha": "abc"}, "not a full 40-hex"},
		{"report check of nothing", "report_check", map[string]any{"body": " ", "head_sha": strings.Repeat("a", 40)}, "body is required"},
		{"what blocks without a token", "what_blocks", map[string]any{"repo": "acme/widgets", "pr": 2}, "no token"},
		{"what blocks of a bad repository", "what_blocks", map[string]any{"repo": "widgets", "pr": 2}, "is not owner/name"},
	}
	cs := mcpSession(t, mcpFlags{githubURL: f.URL(), appSlug: "aepgate"}, nil)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mcpCall(t, cs, tt.tool, tt.args)
			if text := strings.Join(mcpTexts(res), "\n"); !res.IsError || !strings.Contains(text, tt.want) {
				t.Errorf("error %v, text %q; want a tool error saying %q", res.IsError, text, tt.want)
			}
		})
	}
	mcpNoWrites(t, f)
}

// TestMCPArgumentsAreNeverFlags: the tools pass a folder after "--", so
// a folder named like a flag is read as a folder. The negative control
// runs the same command line without the "--": the flag is obeyed.
func TestMCPArgumentsAreNeverFlags(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
	}{
		{"with the separator (as the tools run it)", []string{"lint", "--format", "text", "--", "--help"}, 2},
		{"without it (negative control)", []string{"lint", "--format", "text", "--help"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if code, _, _ := runCLI(t, tt.args...); code != tt.wantCode {
				t.Errorf("exit %d, want %d", code, tt.wantCode)
			}
		})
	}
}

// mcpUnauditedRepo is a repository on the fake with a high-risk unit and
// bob's pull request naming it, not yet audited.
func mcpUnauditedRepo(t *testing.T) *ghfake.Fake {
	t.Helper()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [olivia]\nauditors: [carol]\n"})
	repo.Grant("olivia", "admin")
	repo.Grant("rita", "read")
	ms := repo.CreateMilestone("M", "")
	repo.OpenIssue("alice", "Export", "Story.\n\n```yaml\ngoal: ship it\nacceptance: [it works]\nnon_goals: [the rest]\nrisk: high\nclass: product\n```\n", ghfake.InMilestone(ms))
	repo.Branch("export", "main")
	repo.Commit("export", "export", map[string]string{"export.go": "package export\n"})
	repo.OpenPR("bob", "export", "main", "Export", "Work-unit: #1")
	return f
}

// TestMCPWhatBlocks: a pull request on the fake GitHub is judged as
// simulate judges it, each blocking check with the next step it names
// (the HOLD with who opened it and who may answer; the missing report;
// the missing independent audit), and nothing is written to GitHub.
func TestMCPWhatBlocks(t *testing.T) {
	held, _ := simulateRepo(t)
	tests := []struct {
		name string
		f    *ghfake.Fake
		want []mcpserve.NextStep
	}{
		{"held", held, []mcpserve.NextStep{
			{Check: "aepgate/gates", Step: "HOLD on work unit #1: waiting for legal; choices: `RESUME`; who may answer: @olivia; reply: `/aep resume` on work unit #1's issue or one of its pull requests; opened: by @olivia"},
			{Check: "aepgate/merge", Step: "worker report: " + mcpNoReport},
			{Check: "aepgate/merge", Step: "owner gates and HOLD: gate unit-hold-1 is open: the owner answers one of RESUME (gate unit-hold-1)"},
		}},
		{"not audited", mcpUnauditedRepo(t), []mcpserve.NextStep{
			{Check: "aepgate/audit", Step: "No independent audit of " + "%s yet: one of the auditors (carol) who did not write this change submits a review with an aep-audit block at this head."},
			{Check: "aepgate/merge", Step: "worker report: " + mcpNoReport},
			{Check: "aepgate/merge", Step: "audit: No independent audit of %s yet: one of the auditors (carol) who did not write this change submits a review with an aep-audit block at this head."},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GH_TOKEN", "")
			t.Setenv("GITHUB_TOKEN", tt.f.UserToken("rita"))
			cs := mcpSession(t, mcpFlags{githubURL: tt.f.URL(), appSlug: "aepgate"}, nil)
			tt.f.ResetLog()
			res := mcpCall(t, cs, "what_blocks", map[string]any{"repo": "acme/widgets", "pr": 2})
			if res.IsError {
				t.Fatalf("tool error: %q", mcpTexts(res))
			}
			mcpNoWrites(t, tt.f)
			var got mcpserve.WhatBlocks
			if err := json.Unmarshal(mustJSON(t, res.StructuredContent), &got); err != nil {
				t.Fatal(err)
			}
			head := ""
			for _, c := range got.Checks {
				if _, rest, ok := strings.Cut(c.Title, "No independent audit of "); ok {
					head, _, _ = strings.Cut(rest, " ")
				}
			}
			for i := range tt.want {
				if strings.Contains(tt.want[i].Step, "%s") {
					tt.want[i].Step = fmt.Sprintf(tt.want[i].Step, head)
				}
			}
			if diff := cmp.Diff(tt.want, got.NextSteps); diff != "" || !got.Blocked {
				t.Errorf("blocked %v, next steps (-want +got):\n%s", got.Blocked, diff)
			}
			_, cliText, _ := runCLI(t, "simulate", "--github-url", tt.f.URL(), "--repo", "acme/widgets", "--pr", "2")
			if text := mcpTexts(res); len(text) != 2 || text[0] != cliText || !strings.Contains(text[1], got.NextSteps[0].Step) {
				t.Errorf("text: %q\nwant simulate's text first:\n%s", text, cliText)
			}
		})
	}
}

// mcpNoReport is what aepgate/merge says of a body without a report.
const mcpNoReport = "the pull request body has no worker report: add one starting with a line 'STATUS: done | needs-rework | blocked' followed by WORK-UNIT, ATTEMPT, BRANCH, PR, DONE, NOT DONE / OPEN, FILES, VERIFY and PRESERVATION"

// mcpNoWrites fails t when anything but a GraphQL query reached the fake
// (it logs every POST /graphql as a write; the read client refuses
// mutations before they are sent, as simulate's test relies on).
func mcpNoWrites(t *testing.T, f *ghfake.Fake) {
	t.Helper()
	for _, r := range f.Writes() {
		if r.Pattern != "POST /graphql" {
			t.Errorf("a tool wrote to GitHub: %s", r)
		}
	}
}

// TestMCPNeverShowsTheToken: with the token planted in the environment,
// no tool's output (text, structured output or error) and no log line
// holds it, whether the call succeeds or fails.
func TestMCPNeverShowsTheToken(t *testing.T) {
	f, _ := simulateRepo(t)
	token := f.UserToken("rita")
	t.Setenv("GH_TOKEN", token)
	t.Setenv("GITHUB_TOKEN", token)
	var logs bytes.Buffer
	calls := []struct {
		fl   mcpFlags
		tool string
		args map[string]any
	}{
		{mcpFlags{githubURL: f.URL()}, "what_blocks", map[string]any{"repo": "acme/widgets", "pr": 2}},
		{mcpFlags{githubURL: f.URL()}, "what_blocks", map[string]any{"repo": "acme/widgets", "pr": 99}},
		{mcpFlags{githubURL: f.URL()}, "what_blocks", map[string]any{"repo": "acme/other", "pr": 1}},
		{mcpFlags{githubURL: closedURL}, "what_blocks", map[string]any{"repo": "acme/widgets", "pr": 2}},
		{mcpFlags{}, "lint", map[string]any{"dir": mcpRun}},
		{mcpFlags{}, "lint", map[string]any{"dir": "missing"}},
		{mcpFlags{}, "status", map[string]any{"dir": mcpRun}},
		{mcpFlags{}, "review_check", map[string]any{"review": "not an audit", "repo_dir": "."}},
		{mcpFlags{}, "plans_verify", map[string]any{"dir": t.TempDir()}},
		{mcpFlags{}, "report_check", map[string]any{"body": mcpReport(strings.Repeat("a", 40)), "head_sha": strings.Repeat("a", 40)}},
	}
	var outputs []string
	for _, c := range calls {
		cs := mcpSession(t, c.fl, &logs)
		res := mcpCall(t, cs, c.tool, c.args)
		outputs = append(append(outputs, mcpTexts(res)...), string(mustJSON(t, res.StructuredContent)))
	}
	outputs = append(outputs, logs.String())
	if leaks := tokenLeaks(token, outputs); len(leaks) > 0 {
		t.Errorf("the token appears in %d outputs: %q", len(leaks), leaks)
	}
	mcpNoWrites(t, f)
}

// tokenLeaks are the outputs holding token.
func tokenLeaks(token string, outputs []string) []string {
	var out []string
	for _, o := range outputs {
		if strings.Contains(o, token) {
			out = append(out, o)
		}
	}
	return out
}

// TestTokenLeaksCanFail is the search's negative control: a planted
// token is found, in text as in JSON.
func TestTokenLeaksCanFail(t *testing.T) {
	token := "ghs_planted0123456789"
	got := tokenLeaks(token, []string{"clean", "error: " + token, `{"t":"` + token + `"}`})
	if len(got) != 2 {
		t.Errorf("found %d leaks, want 2", len(got))
	}
}

// TestMCPOverStdio: the built binaries serve the SDK's client over
// aepgate's standard streams (aepgate runs aepgate-app mcp beside it), and
// exit 0 when the client closes them.
func TestMCPOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binaries")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "aepgate")
	for name, pkg := range map[string]string{bin: "../../aepgate", filepath.Join(dir, AppBinary): "../../aepgate-app"} {
		build := exec.Command("go", "build", "-o", name, pkg)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	cmd := exec.Command(bin, "mcp")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "1"}, nil)
	ctx := context.Background()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 6 {
		t.Fatalf("list: %v, %d tools", err, len(tools.Tools))
	}
	res := mcpCall(t, cs, "lint", map[string]any{"dir": mcpRun})
	_, want, _ := runCLI(t, "lint", mcpRun)
	if text := mcpTexts(res); res.IsError || len(text) == 0 || text[0] != want {
		t.Errorf("lint over stdio: error %v, text %q, want %q", res.IsError, text, want)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 {
		t.Errorf("the server did not exit 0: %v\n%s", cmd.ProcessState, stderr.String())
	}
	if !strings.Contains(stderr.String(), "tool=lint") {
		t.Errorf("stderr lacks the tool call's log line:\n%s", stderr.String())
	}
}
