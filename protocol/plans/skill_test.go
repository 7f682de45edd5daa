package plans

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// skillExample is the Executor skill's own state file, exactly as the
// spec shows it.
const skillExample = `{
  "phase": 2,
  "status": "in_progress",
  "claimed_by": "executor-a",
  "branch": "plan/add-rate-limiting/phase-2",
  "worktree": ".worktrees/phase-2",
  "started_at": "2026-07-25T09:12:00Z",
  "tasks": {
    "2.1": { "status": "done", "commit": "a1b2c3d", "completed_at": "2026-07-25T09:40:00Z" },
    "2.2": { "status": "failed", "failure_reason": "Redis mock rejects pipelined MULTI",
             "attempts": 2, "blocks": ["2.3"] }
  },
  "verification": {
    "test":  { "command": "npm test",      "exit_code": 0 },
    "lint":  { "command": "npm run lint",  "exit_code": 0 },
    "build": { "command": "npm run build", "exit_code": 0 }
  },
  "advisor": { "early": "2026-07-25T09:15:00Z", "late": null }
}`

const (
	shaA1 = "a1b2c3d400000000000000000000000000000000"
	shaA2 = "a1b2c3d500000000000000000000000000000000"
)

func TestParseSkillState(t *testing.T) {
	got, err := ParseState("s.json", []byte(skillExample))
	if err != nil {
		t.Fatal(err)
	}
	early := "2026-07-25T09:15:00Z"
	want := &State{Dialect: DialectSkill, Phase: 2, Status: StatusInProgress, Executor: "executor-a",
		Branch: "plan/add-rate-limiting/phase-2", Worktree: ".worktrees/phase-2", StartedAt: "2026-07-25T09:12:00Z",
		Tasks: []TaskState{
			{ID: "2.1", Status: TaskDone, Commit: "a1b2c3d", CompletedAt: "2026-07-25T09:40:00Z"},
			{ID: "2.2", Status: TaskFailed, FailureReason: "Redis mock rejects pipelined MULTI", Attempts: 2, Blocks: []string{"2.3"}},
		},
		Verification: []Verification{
			{Name: "test", Command: "npm test", ExitCode: ptr(0)},
			{Name: "lint", Command: "npm run lint", ExitCode: ptr(0)},
			{Name: "build", Command: "npm run build", ExitCode: ptr(0)},
		},
		Advisor: &Advisor{Early: &early},
	}
	if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(State{}, TaskState{}, Verification{})); diff != "" {
		t.Errorf("ParseState (-want +got):\n%s", diff)
	}
	lines := []int{got.TaskLine(0, "commit"), got.TaskLine(1, "attempts"), got.VerificationLine(2, "exit_code")}
	if diff := cmp.Diff([]int{9, 11, 16}, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestParseSkillStateErrors(t *testing.T) {
	tests := []struct {
		name, from, to string
		want           string
	}{
		{"aepgate's key in the skill's file", `"claimed_by"`, `"executor"`,
			"s.json:4: executor: unknown key (see https://github.com/aepgate/aepgate/blob/main/docs/plans.md for the keys of this file)"},
		{"aepgate's task word", `"status": "failed"`, `"status": "todo"`,
			`s.json:10: tasks.2.2.status: want not_started, in_progress, done or failed, got "todo"`},
		{"unknown verification", `"lint":`, `"unit":`,
			"s.json:15: unit: unknown key (see https://github.com/aepgate/aepgate/blob/main/docs/plans.md for the keys of this file)"},
		{"failed without a reason", `"failure_reason": "Redis mock rejects pipelined MULTI",`, ``,
			"s.json:10: tasks.2.2.failure_reason: required: a failed task says why it failed"},
		{"missing exit code", `"command": "npm test",      "exit_code": 0`, `"command": "npm test"`,
			"s.json:14: verification.test.exit_code: required: the command's exit code as observed"},
		{"no claim", `"claimed_by": "executor-a",`, ``,
			"s.json:1: claimed_by: required: who executes this phase"},
		{"short sha too short", `"a1b2c3d"`, `"a1b2c"`,
			`s.json:9: tasks.2.1.commit: a done task names its commit as a lowercase SHA (7 to 64 hex digits), got "a1b2c"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := strings.Replace(skillExample, tc.from, tc.to, 1)
			_, err := ParseState("s.json", []byte(in))
			if err == nil || err.Error() != tc.want {
				t.Errorf("ParseState error =\n%v\nwant\n%s", err, tc.want)
			}
		})
	}
}

// skillHonest is an honest pull request of phase 2 whose state file is the
// skill's own example: task 2.1 done at commit a1b2c3d…, 2.2 failed after
// two attempts, blocking 2.3, which is not begun.
func skillHonest(t *testing.T, edit func(string) string) Input {
	t.Helper()
	in := honest(t)
	in.Head.Progress = progressFixture(t, func(p *Progress) {
		p.Phases[1].Tasks = []Task{{ID: "2.1", Title: "limiter"}, {ID: "2.2", Title: "redis"}, {ID: "2.3", Title: "headers"}}
	})
	in.Base.Progress = in.Head.Progress
	text := skillExample
	if edit != nil {
		text = edit(text)
	}
	st, err := ParseState(in.Head.StatePath(2), []byte(text))
	if err != nil {
		t.Fatalf("skill fixture does not parse: %v", err)
	}
	in.Head.States = map[int]*State{1: in.Head.States[1], 2: st}
	in.PR.Author = "executor-a"
	in.PR.Commits = []Commit{{shaA1, []string{"internal/billing/limit.go"}}, {sha3, []string{"plans/billing/state/phase-2.json"}}}
	return in
}

// skillLies are the lies the skill names, told in its own dialect.
var skillLies = []struct {
	name, rule string
	edit       func(string) string
	pr         func(*Input)
}{
	{"previous HEAD as a task's commit", "task-commits", nil, func(in *Input) { in.PR.Base = shaA1 }},
	{"the base abbreviated", "task-commits", func(s string) string { return strings.Replace(s, "a1b2c3d", "b000000", 1) }, nil},
	{"ambiguous short sha", "task-commits", nil, func(in *Input) {
		in.PR.Commits = append(in.PR.Commits, Commit{shaA2, []string{"x.go"}})
	}},
	{"unknown short sha", "task-commits", func(s string) string { return strings.Replace(s, "a1b2c3d", "dddddd1", 1) }, nil},
	{"phase set done", "phase-done", func(s string) string {
		s = strings.Replace(s, `"blocks": ["2.3"]`, `"blocks": []`, 1)
		return strings.Replace(s, `"status": "in_progress"`, `"status": "done"`, 1)
	}, nil},
	{"work done on top of a blocking failure", "blocks", func(s string) string {
		return strings.Replace(s, `"blocks": ["2.3"] }`, `"blocks": ["2.3"] },
    "2.3": { "status": "done", "commit": "c100000" }`, 1)
	}, func(in *Input) { in.PR.Commits = append(in.PR.Commits, Commit{sha1, []string{"y.go"}}) }},
	{"blocking failure handed to review", "blocks", func(s string) string {
		return strings.Replace(s, `"status": "in_progress"`, `"status": "needs_review"`, 1)
	}, nil},
	{"a third attempt", "attempts", func(s string) string { return strings.Replace(s, `"attempts": 2`, `"attempts": 3`, 1) }, nil},
	{"worktree outside the repository", "worktree", func(s string) string {
		return strings.Replace(s, `".worktrees/phase-2"`, `"../repo-phase-2"`, 1)
	}, nil},
}

func TestSkillExampleHonest(t *testing.T) {
	if got := Check(skillHonest(t, nil), Rules()); len(got) != 0 {
		t.Errorf("Check(skill example) = %+v, want no finding", got)
	}
}

// TestSkillLies shows each lie caught by its rule, and passing once that
// rule is left out (its negative control).
func TestSkillLies(t *testing.T) {
	for _, tc := range skillLies {
		t.Run(tc.name, func(t *testing.T) {
			in := skillHonest(t, tc.edit)
			if tc.pr != nil {
				tc.pr(&in)
			}
			if got := rules(Check(in, Rules())); got != tc.rule {
				t.Errorf("rules found = %q, want %q (%+v)", got, tc.rule, Check(in, Rules()))
			}
			if got := Check(in, Without(Rules(), tc.rule)); len(got) != 0 {
				t.Errorf("without %s: %+v, want the lie to pass", tc.rule, got)
			}
		})
	}
}

func TestSkillFalseGreen(t *testing.T) {
	st, err := ParseState("s.json", []byte(skillExample))
	if err != nil {
		t.Fatal(err)
	}
	got := CompareRuns("s.json", st, []Run{{0, ""}, {1, "lint: 3 problems"}, {0, ""}})
	want := []Finding{{Rule: "rerun", File: "s.json", Line: 15,
		Message: "false green: \"npm run lint\" recorded exit code 0, re-run exited 1; output tail:\nlint: 3 problems"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CompareRuns (-want +got):\n%s", diff)
	}
}
