package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// verifyRun writes a run folder under docs/run of r whose tasks are
// P0-T<i> with commands[i], each reported DONE with pasted[i] as its Verify
// output.
func verifyRun(commands, pasted []string) map[string]string {
	var g, l strings.Builder
	g.WriteString("# Execution guide\n\n# Phase 0 — Work\n\n")
	l.WriteString("# Compliance log\n\n")
	for i, c := range commands {
		id := fmt.Sprintf("P0-T%d", i+1)
		fmt.Fprintf(&g, "### %s — Task %d\n\n**Goal:** g.\n\n**Verify:**\n```bash\n%s\n```\n\n**Report:** `%s`\n\n", id, i+1, c, id)
		fmt.Fprintf(&l, "### %s — DONE\n\n**Verify output:**\n```\n$ %s\n%s\n```\n\n", id, c, pasted[i])
	}
	return map[string]string{
		"docs/run/plan-of-record.md":  "# Plan of record\n",
		"docs/run/execution-guide.md": g.String(),
		"docs/run/compliance-log.md":  l.String(),
		"src/ok.sh":                   "echo 'ok  src 0.1s'\n",
	}
}

// TestVerifyRerun re-runs DONE tasks' Verify commands in a scratch
// repository: honest tasks pass; a pasted PASS whose command really fails
// and a pasted line the command no longer prints are false greens; the tree
// stays byte-identical. The negative control is the same folder without
// --rerun: nothing runs and the lie passes.
func TestVerifyRerun(t *testing.T) {
	tests := []struct {
		name     string
		commands []string
		pasted   []string
		args     []string
		wantCode int
		want     []string
	}{
		{"honest", []string{"sh src/ok.sh", "true"}, []string{"ok  src 0.1s", ""}, []string{"--rerun"}, 0,
			[]string{"P0-T1      ok", "P0-T2      ok", "2 task(s) re-run in", "0 false green(s)"}},
		{"hard-coded pass", []string{"echo 'FAIL src'; exit 1"}, []string{"ok  src 0.1s"}, []string{"--rerun"}, 1,
			[]string{"P0-T1      FALSE GREEN", "compliance-log.md:3: false green: P0-T1 is DONE, but its Verify command exited 1 on re-run.\npasted (last line): ok  src 0.1s\nre-run (last line): FAIL src"}},
		{"output no longer printed", []string{"sh src/ok.sh"}, []string{"ok  src 9.9s"}, []string{"--rerun"}, 1,
			[]string{"no longer contains the pasted output's last line.\npasted (last line): ok  src 9.9s\nre-run (last line): ok  src 0.1s"}},
		{"negative control: hard-coded pass without --rerun", []string{"echo 'FAIL src'; exit 1"}, []string{"ok  src 0.1s"}, nil, 0,
			[]string{"P0-T1  echo 'FAIL src'; exit 1", "run with --rerun"}},
		{"killed at the timeout", []string{"sleep 30"}, []string{""}, []string{"--rerun", "--timeout", "300ms"}, 1,
			[]string{"exit 124", "its Verify command exited 124"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &plansRepo{t: t, dir: t.TempDir()}
			r.git("init", "-q", "-b", "main")
			r.commit("run", verifyRun(tc.commands, tc.pasted))
			before := plansTreeHash(t, r.dir)
			code, out, errOut := runCLI(t, append([]string{"verify", filepath.Join(r.dir, "docs/run")}, tc.args...)...)
			if code != tc.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.wantCode, out, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if after := plansTreeHash(t, r.dir); after != before {
				t.Errorf("verify changed the tree")
			}
		})
	}
}

// BenchmarkVerifyRerun: 20 DONE tasks whose Verify command takes 1 s,
// re-run isolated with the default jobs (the number of CPUs).
func BenchmarkVerifyRerun(b *testing.B) {
	cmds, pasted := make([]string, 20), make([]string, 20)
	for i := range cmds {
		cmds[i], pasted[i] = "sleep 1; echo done", "done"
	}
	dir := b.TempDir()
	for p, body := range verifyRun(cmds, pasted) {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "run"}} {
		if out, err := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com", "-C", dir}, args...)...).CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	for b.Loop() {
		var out, errb bytes.Buffer
		if code := runFull(context.Background(), []string{"verify", filepath.Join(dir, "docs/run"), "--rerun"}, strings.NewReader(""), &out, &errb); code != 0 {
			b.Fatalf("exit %d\n%s%s", code, out.String(), errb.String())
		}
	}
}
