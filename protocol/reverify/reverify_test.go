package reverify

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

const guide = `# Execution guide

# Phase 0 — Base

### P0-T1 — Add the store

**Goal:** a store.

**Verify:**
` + "```bash\n./check.sh store\n```" + `

**Report:** ` + "`P0-T1`" + `

### P0-T2 — Add the cache

**Verify:**
` + "```bash\n```" + `

**Report:** ` + "`P0-T2`" + `

### P0-T3 — Add the index

**Verify:**
` + "````sh\nprintf 'a\\n```\\n'\n````" + `

**Report:** ` + "`P0-T3`" + `
`

const log = `# Compliance log

### P0-T1 — DONE

**Verify output:**
` + "```\n$ ./check.sh store\nchecking store\nok  store 0.2s\n\n```" + `

### P0-T2 — DONE

### P0-T3 — DONE

### P0-T3 — REJECTED

### P0-T3 — BLOCKED
`

func run(t *testing.T) *rundoc.Run {
	t.Helper()
	return &rundoc.Run{Guide: rundoc.ParseGuide(rundoc.GuideFile, guide), Log: rundoc.ParseLog(rundoc.LogFile, log)}
}

func TestTasks(t *testing.T) {
	tasks, skipped := Tasks(run(t))
	want := []Task{{ID: "P0-T1", Command: "./check.sh store", GuideLine: 5, LogLine: 3, Pasted: "ok  store 0.2s"}}
	if diff := cmp.Diff(want, tasks); diff != "" {
		t.Errorf("Tasks (-want +got):\n%s", diff)
	}
	wantSkipped := []Skipped{{ID: "P0-T2", LogLine: 13, Reason: "its **Verify:** block in the guide is empty or missing, so there is nothing to re-run"}}
	if diff := cmp.Diff(wantSkipped, skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
}

func TestVerifyCommand(t *testing.T) {
	tests := []struct{ name, body, want string }{
		{"bash fence", "**Verify:**\n```bash\ngo test ./...\n```\n", "go test ./..."},
		{"longer fence holds a short one", "**Verify:**\n````sh\necho '```'\n````\n", "echo '```'"},
		{"tilde fence", "**Verify:**\n~~~\nmake\n~~~\n", "make"},
		{"next field first", "**Verify:**\n**Report:** `P0-T1`\n```\nnot this\n```\n", ""},
		{"none", "**Goal:** x\n```\nnot this\n```\n", ""},
		{"unclosed", "**Verify:**\n```\nmake\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := VerifyCommand(tt.body); got != tt.want {
				t.Errorf("VerifyCommand = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	task := Task{ID: "P0-T1", LogLine: 3, Pasted: "ok  store 0.2s"}
	tests := []struct {
		name string
		task Task
		o    Outcome
		want []Finding
	}{
		{"reproduced", task, Outcome{0, "checking store\nok  store 0.2s\n", 0}, nil},
		{"non-zero exit", task, Outcome{1, "FAIL store\n", 0}, []Finding{{ID: "P0-T1", LogLine: 3,
			Message: "false green: P0-T1 is DONE, but its Verify command exited 1 on re-run.\npasted (last line): ok  store 0.2s\nre-run (last line): FAIL store"}}},
		{"output changed", task, Outcome{0, "ok  store 9.9s\n", 0}, []Finding{{ID: "P0-T1", LogLine: 3,
			Message: "false green: P0-T1 is DONE, but the re-run's output no longer contains the pasted output's last line.\npasted (last line): ok  store 0.2s\nre-run (last line): ok  store 9.9s"}}},
		{"nothing pasted, exit judged", Task{ID: "P0-T1", LogLine: 3}, Outcome{0, "", 0}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Compare([]Task{tt.task}, []Outcome{tt.o})); diff != "" {
				t.Errorf("Compare (-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzVerifyCommand(f *testing.F) {
	f.Add("**Verify:**\n```bash\ngo test ./...\n```\n")
	f.Add("**Verify:**\n````\n```\n````")
	f.Fuzz(func(t *testing.T, body string) {
		if got := VerifyCommand(body); len(got) > len(body) {
			t.Fatalf("command %q longer than the body", got)
		}
	})
}
