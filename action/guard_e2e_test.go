package action

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/internal/testkit/creds"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/negcontrol"
)

// controlConfig declares one control whose break runs cmd.
func controlConfig(cmd string) string {
	return "version: 1\nrun_documents: [docs/run]\nnegative_controls:\n" +
		"  - name: probe\n    break: '" + cmd + "'\n    restore: 'true'\n    test: 'test -e restored || { touch restored; false; }'\n"
}

// TestActionPullRequestTargetRunsNoPRCommands: under pull_request_target the
// step runs neither the negative controls nor the plans re-run, fails
// those checks saying why, and still lints. The negative control is the
// same step on pull_request, where both run.
func TestActionPullRequestTargetRunsNoPRCommands(t *testing.T) {
	tests := []struct {
		event   string
		wantRan bool
	}{
		{EventPullRequestTarget, false},
		{"pull_request", true}, // negative control
	}
	for _, tt := range tests {
		t.Run(tt.event, func(t *testing.T) {
			marker := filepath.Join(t.TempDir(), "ran")
			e := newStepEnv(t, writable, "", goodBody)
			e.controls = nil
			e.vars["GITHUB_EVENT_PATH"] = writeEvent(t, e, e.repo.Commit("main", "control", map[string]string{".github/aepgate.yml": controlConfig("touch " + marker)}))
			e.vars["GITHUB_EVENT_NAME"] = tt.event
			e.run()
			if _, err := os.Stat(marker); (err == nil) != tt.wantRan {
				t.Errorf("the control's break ran: %v, want %v", err == nil, tt.wantRan)
			}
			runs := e.runs()
			nc := runs["aep/negative-controls"]
			if refused := nc.Conclusion == "failure" && nc.Title == "not run under pull_request_target"; refused == tt.wantRan {
				t.Errorf("aep/negative-controls = %s %q", nc.Conclusion, nc.Title)
			}
			if lint := runs["aep/lint"]; lint.Conclusion != "success" {
				t.Errorf("aep/lint = %s %q, want success: non-executing checks still run", lint.Conclusion, lint.Title)
			}
			if noted := strings.Contains(e.file("GITHUB_STEP_SUMMARY"), "This is a `pull_request_target` run"); noted == tt.wantRan {
				t.Errorf("job summary notes pull_request_target: %v", noted)
			}

			p := newPlansEnv(t, false)
			p.vars["GITHUB_EVENT_NAME"] = tt.event
			calls := 0
			p.commands = func(ctx context.Context, root string, cmds []string) ([]isolate.Outcome, error) {
				calls++
				return defaultRunCommands(ctx, root, cmds)
			}
			p.run()
			plansRun := p.runs()[checks.NamePlans]
			if (calls > 0) != tt.wantRan {
				t.Errorf("recorded commands re-run %d times, want ran=%v", calls, tt.wantRan)
			}
			if refused := strings.Contains(plansRun.Summary, "not re-run: this is a pull_request_target run"); refused == tt.wantRan || (plansRun.Conclusion == "failure") == tt.wantRan {
				t.Errorf("aep/plans = %s:\n%s", plansRun.Conclusion, plansRun.Summary)
			}
		})
	}
}

// TestActionCommandsSeeNoCredentials plants the credentials in the step's
// environment and has a negative control and a re-run command write theirs
// to a file: neither sees any. The negative control starts the same
// commands with the whole process environment (isolate's Env option,
// injected through RunControls and RunCommands) and sees every one.
func TestActionCommandsSeeNoCredentials(t *testing.T) {
	creds.Plant(t)
	unscrubbed := isolate.Options{Env: os.Environ()}
	tests := []struct {
		name     string
		controls func(ctx context.Context, root string, cs []config.NegativeControl) ([]negcontrol.Result, error)
		commands func(ctx context.Context, root string, cmds []string) ([]isolate.Outcome, error)
		wantSeen bool
	}{
		{"default starters", nil, nil, false},
		{"negative control: unscrubbed", func(ctx context.Context, root string, cs []config.NegativeControl) ([]negcontrol.Result, error) {
			return isolate.RunAll(ctx, root, cs, unscrubbed)
		}, func(ctx context.Context, root string, cmds []string) ([]isolate.Outcome, error) {
			return isolate.Commands(ctx, root, cmds, unscrubbed)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "env.txt")
			e := newStepEnv(t, writable, "", goodBody)
			e.controls = tt.controls
			e.vars["GITHUB_EVENT_PATH"] = writeEvent(t, e, e.repo.Commit("main", "control", map[string]string{".github/aepgate.yml": controlConfig("env >> " + out)}))
			e.run()
			p := newPlansEnvWith(t, plansSetup{progress: plansProgress, verification: `[{"command": "env >> ` + out + `", "exit_code": 0}]`})
			p.commands = tt.commands
			p.run()
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(regexp.MustCompile(`(?m)^PWD=`).FindAll(b, -1)); n != 2 {
				t.Fatalf("%d environments written, want 2 (the control's break, the re-run)", n)
			}
			want := []string(nil)
			if tt.wantSeen {
				want = creds.Names
			}
			if got := creds.Seen(string(b)); !slices.Equal(got, want) {
				t.Errorf("credentials seen by the started commands: %v, want %v", got, want)
			}
		})
	}
}

// TestActionRerunOnlyContractCommands: the state file records, beside the
// contract's command, one of its own (`touch leak`, standing in for
// `env > leak`). With verify_commands in the base's progress.json it is
// not run and aep/plans fails on its line. The negative control drops the
// list from the base contract: the command then runs, aep/plans passes and
// the summary warns that the executor chose the commands.
func TestActionRerunOnlyContractCommands(t *testing.T) {
	listed := strings.Replace(plansProgress, `"owner": "olivia",`, `"owner": "olivia", "verify_commands": ["sh src/check.sh"],`, 1)
	tests := []struct {
		name, progress string
		wantRan        bool
	}{
		{"listed", listed, false},
		{"negative control: no list", plansProgress, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leak := filepath.Join(t.TempDir(), "leak")
			e := newPlansEnvWith(t, plansSetup{progress: tt.progress, verification: `[
    {"command": "sh src/check.sh", "exit_code": 0},
    {"command": "touch ` + leak + `; true", "exit_code": 0}
  ]`})
			e.run()
			if _, err := os.Stat(leak); (err == nil) != tt.wantRan {
				t.Errorf("the executor's own command ran: %v, want %v", err == nil, tt.wantRan)
			}
			r := e.runs()[checks.NamePlans]
			warned := strings.Contains(r.Summary, "executor's own choice") && strings.Contains(e.file("GITHUB_STEP_SUMMARY"), "executor's own choice")
			if tt.wantRan {
				if r.Conclusion != "success" || !warned {
					t.Errorf("aep/plans = %s, warned %v:\n%s", r.Conclusion, warned, r.Summary)
				}
				return
			}
			if r.Conclusion != "failure" || len(r.Annotations) != 1 || r.Annotations[0].StartLine != 13 || !strings.Contains(r.Annotations[0].Message, "not re-run") || warned {
				t.Errorf("aep/plans = %s, annotations %+v, warned %v", r.Conclusion, r.Annotations, warned)
			}
		})
	}
}
