package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/creds"
)

// TestCommandsSeeNoCredentials plants the credentials and the job's files
// and runs every CLI path that starts a repository's commands — negcontrol,
// negcontrol --all, plans verify --rerun, verify --rerun — with commands
// that append their environment to a file. The negative control (the same commands with the process's whole
// environment) is in protocol/negcontrol and internal/isolate, which these
// paths call: TestRunScrubsCredentials, TestStartedCommandsSeeNoCredentials.
func TestCommandsSeeNoCredentials(t *testing.T) {
	creds.Plant(t)
	out := filepath.Join(t.TempDir(), "env.txt")
	dump := "env >> " + out
	ncDir := ncRepo(t, "version: 1\nnegative_controls:\n  - name: env\n    break: '"+dump+"'\n    restore: 'true'\n    test: '"+dump+"; false'\n")
	r := newPlansRepo(t)
	c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
	c2 := r.commit("api", map[string]string{"src/api.go": "package src\n"})
	r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansState(c1, c2, dump, "0")})
	v := &plansRepo{t: t, dir: t.TempDir()}
	v.git("init", "-q", "-b", "main")
	v.commit("run", verifyRun([]string{dump}, []string{""}))
	for _, args := range [][]string{
		{"negcontrol", "--break-cmd", dump, "--restore-cmd", "true", "--test-cmd", dump + "; false"},
		{"negcontrol", "--all", "--root", ncDir},
		{"plans", "verify", filepath.Join(r.dir, "plans/billing"), "--rerun"},
		{"verify", filepath.Join(v.dir, "docs/run"), "--rerun"},
	} {
		before := envDumps(t, out)
		runCLI(t, args...)
		if envDumps(t, out) == before {
			t.Fatalf("%v started no command that wrote its environment", args)
		}
	}
	b, _ := os.ReadFile(out)
	if seen := creds.Seen(string(b)); len(seen) > 0 {
		t.Errorf("a started command saw %v", seen)
	}
}

// envDumps counts the environments written to path.
func envDumps(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Count("\n"+string(b), "\nPWD=")
}

// TestPlansRerunOnlyContractCommands: the base contract lists
// verify_commands, and the state file records another command (one that
// would leak). It is not run and is reported. The negative control is the
// same pull request against a contract without the list: the command then
// runs, with a warning that the executor chose it.
func TestPlansRerunOnlyContractCommands(t *testing.T) {
	listed := strings.Replace(plansProgress, `"owner": "olivia",`, `"owner": "olivia", "verify_commands": ["sh src/ok.sh"],`, 1)
	tests := []struct {
		name        string
		contract    string
		wantCode    int
		wantRan     bool
		wantStdout  string
		wantWarning bool
	}{
		{"listed", listed, 1, false, `rerun: not re-run: "touch `, false},
		{"negative control: no list", plansProgress, 0, true, "OK: every rule holds", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			leak := filepath.Join(t.TempDir(), "leak")
			r := &plansRepo{t: t, dir: t.TempDir()}
			r.git("init", "-q", "-b", "main")
			r.commit("contract", map[string]string{"plans/billing/progress.json": tt.contract, "src/ok.sh": "exit 0\n", "plans/billing/HANDOFF.md": plansHandoff})
			r.git("checkout", "-q", "-b", "plan/billing/phase-1")
			c1 := r.commit("model", map[string]string{"src/model.go": "package src\n"})
			c2 := r.commit("api", map[string]string{"src/api.go": "package src\n"})
			r.commit("state", map[string]string{"plans/billing/state/phase-1.json": plansState(c1, c2, "touch "+leak, "0")})
			code, stdout, stderr := runCLI(t, "plans", "verify", filepath.Join(r.dir, "plans/billing"), "--rerun")
			if code != tt.wantCode || !strings.Contains(stdout, tt.wantStdout) {
				t.Errorf("exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, tt.wantStdout, stdout, stderr)
			}
			if _, err := os.Stat(leak); (err == nil) != tt.wantRan {
				t.Errorf("the recorded command ran: %v, want %v", err == nil, tt.wantRan)
			}
			if got := strings.Contains(stderr, "executor's own choice"); got != tt.wantWarning {
				t.Errorf("warning shown: %v, want %v\n%s", got, tt.wantWarning, stderr)
			}
		})
	}
}
