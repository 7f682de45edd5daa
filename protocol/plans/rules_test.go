package plans

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// lies are lying variants of the honest fixture, each caught by one rule.
var lies = []struct {
	name string
	rule string
	lie  func(*testing.T, *Input)
}{
	{"empty commit", "task-commits", func(t *testing.T, in *Input) { in.PR.Commits[1].Files = nil }},
	{"previous head recorded again", "task-commits", func(t *testing.T, in *Input) { setTask(t, in, "2.2", sha1) }},
	{"previous head of the push", "task-commits", func(t *testing.T, in *Input) {
		in.PR.PrevHead = sha2
		in.PR.Commits[1].SHA = sha2
	}},
	{"base commit", "task-commits", func(t *testing.T, in *Input) { setTask(t, in, "2.1", shaBase) }},
	{"commit from elsewhere", "task-commits", func(t *testing.T, in *Input) {
		setTask(t, in, "2.1", "d000000000000000000000000000000000000000")
	}},
	{"executor sets phase done", "phase-done", func(t *testing.T, in *Input) {
		s := *in.Head.States[2]
		s.Status = StatusDone
		in.Head.States[2] = stateFixture(t, s)
	}},
	{"touches another phase's state", "state-scope", func(t *testing.T, in *Input) {
		in.PR.Changed = append(in.PR.Changed, "plans/billing/state/phase-1.json")
	}},
	{"writes its own review", "state-scope", func(t *testing.T, in *Input) {
		in.PR.Changed = append(in.PR.Changed, "plans/billing/state/phase-2.review.json")
	}},
	{"no phase named", "state-scope", func(t *testing.T, in *Input) {
		in.PR.Phase = 0
		in.PR.Changed = []string{"plans/billing/state/phase-2.json"}
	}},
	{"contract changed without approval", "contract", func(t *testing.T, in *Input) {
		in.PR.Changed = append(in.PR.Changed, "plans/billing/progress.json")
	}},
	{"task deleted", "task-ids", func(t *testing.T, in *Input) {
		in.Head.Progress = progressFixture(t, func(p *Progress) { p.Phases[0].Tasks = p.Phases[0].Tasks[:1] })
	}},
	{"task renumbered", "task-ids", func(t *testing.T, in *Input) {
		in.Head.Progress = progressFixture(t, func(p *Progress) { p.Phases[2].Tasks[0].ID = "3.10" })
	}},
	{"state reports a task the contract lacks", "task-ids", func(t *testing.T, in *Input) {
		s := *in.Head.States[2]
		s.Tasks = append(append([]TaskState(nil), s.Tasks...), TaskState{ID: "9.9", Status: TaskTodo})
		in.Head.States[2] = stateFixture(t, s)
	}},
	{"dependency not approved", "dependencies", func(t *testing.T, in *Input) { in.Base.Reviews = nil }},
	{"dependency approved in someone else's name", "dependencies", func(t *testing.T, in *Input) {
		r := *in.Base.Reviews[1]
		r.Reviewer = "exec-bot"
		in.Base.Reviews = map[int]*Review{1: &r}
	}},
	{"runs beside a phase that is not parallel_safe", "parallel", func(t *testing.T, in *Input) {
		in.Head.Progress = progressFixture(t, func(p *Progress) { p.Phases[2].ParallelSafe = false })
		in.Head.States[3] = stateFixture(t, State{Version: 1, Phase: 3, Executor: "exec-3", Status: StatusClaimed})
	}},
	{"a third attempt", "attempts", func(t *testing.T, in *Input) {
		editState(t, in, func(s *State) { s.Tasks[1].Attempts = 3 })
	}},
	{"done on top of a blocking failure", "blocks", func(t *testing.T, in *Input) {
		editState(t, in, func(s *State) {
			s.Status = StatusBlocked
			s.Tasks[0] = TaskState{ID: "2.1", Status: TaskFailed, FailureReason: "flaky", Attempts: 2, Blocks: []string{"2.2"}}
		})
	}},
	{"blocking failure handed to review", "blocks", func(t *testing.T, in *Input) {
		editState(t, in, func(s *State) {
			s.Tasks[1] = TaskState{ID: "2.2", Status: TaskFailed, FailureReason: "flaky", Blocks: []string{"2.3"}}
		})
	}},
	{"worktree outside the repository", "worktree", func(t *testing.T, in *Input) {
		editState(t, in, func(s *State) { s.Worktree = "../billing-phase-2" })
	}},
	{"ambiguous abbreviated commit", "task-commits", func(t *testing.T, in *Input) {
		setTask(t, in, "2.1", "c1000000")
		in.PR.Commits = append(in.PR.Commits, Commit{"c100000099999999999999999999999999999999", []string{"z.go"}})
	}},
	{"executor reviews its own phase", "self-review", func(t *testing.T, in *Input) {
		in.PR.Author = "rita"
		editState(t, in, func(s *State) { s.Executor = "rita" })
		in.Head.Reviews = map[int]*Review{1: in.Head.Reviews[1], 2: reparse(t, &Review{Version: 1, Phase: 2, Reviewer: "rita", Verdict: VerdictApproved, Commit: sha3}, ParseReview)}
		in.PR.Changed = append(in.PR.Changed, "plans/billing/state/phase-2.review.json")
	}},
	{"no handoff", "handoff", func(t *testing.T, in *Input) { in.Head.Handoff = nil }},
	{"handoff without Ruled out", "handoff", func(t *testing.T, in *Input) {
		in.Head.Handoff = []byte(strings.Replace(string(handoff(2)), "### Ruled out", "### Ruled", 1))
	}},
	{"handoff of another phase", "handoff", func(t *testing.T, in *Input) { in.Head.Handoff = handoff(1) }},
	{"touches another phase's conflict zone", "conflict-zones", func(t *testing.T, in *Input) {
		in.PR.Changed = append(in.PR.Changed, "web/index.html")
		in.PR.Commits[2].Files = append(in.PR.Commits[2].Files, "web/index.html")
	}},
}

// editState rewrites head's phase-2 state file.
func editState(t *testing.T, in *Input, edit func(*State)) {
	s := *in.Head.States[2]
	s.Tasks = append([]TaskState(nil), s.Tasks...)
	edit(&s)
	in.Head.States = map[int]*State{1: in.Head.States[1], 2: stateFixture(t, s)}
}

func TestCheckHonest(t *testing.T) {
	if got := Check(honest(t), Rules()); len(got) != 0 {
		t.Errorf("Check(honest) = %+v, want no finding", got)
	}
}

func TestCheckLies(t *testing.T) {
	for _, tc := range lies {
		t.Run(tc.name, func(t *testing.T) {
			in := honest(t)
			tc.lie(t, &in)
			if got := rules(Check(in, Rules())); got != tc.rule {
				t.Errorf("rules found = %q, want %q (%+v)", got, tc.rule, Check(in, Rules()))
			}
		})
	}
}

// TestCheckNegativeControls shows each lie passing once its rule is left
// out: the rule, not something else, is what catches it.
func TestCheckNegativeControls(t *testing.T) {
	for _, tc := range lies {
		t.Run(tc.name, func(t *testing.T) {
			in := honest(t)
			tc.lie(t, &in)
			if got := Check(in, Without(Rules(), tc.rule)); len(got) != 0 {
				t.Errorf("without %s: %+v, want the lie to pass", tc.rule, got)
			}
		})
	}
}

func TestCheckContractApproved(t *testing.T) {
	in := honest(t)
	in.PR.Changed = append(in.PR.Changed, "plans/billing/progress.json")
	in.PR.ContractApproved = true
	if got := Check(in, Rules()); len(got) != 0 {
		t.Errorf("approved contract change: %+v, want none", got)
	}
}

func TestCheckReviewerMayWriteReview(t *testing.T) {
	in := honest(t)
	in.PR.Author = "rita"
	in.PR.Changed = []string{"plans/billing/state/phase-2.review.json"}
	if got := Check(in, Rules()); len(got) != 0 {
		t.Errorf("reviewer's review: %+v, want none", got)
	}
}

func TestCheckPositions(t *testing.T) {
	in := honest(t)
	s := *in.Head.States[2]
	s.Status = StatusDone
	in.Head.States[2] = stateFixture(t, s)
	setTask(t, &in, "2.2", sha1)
	got := Check(in, Rules())
	want := []Finding{
		{Rule: "phase-done", File: "plans/billing/state/phase-2.json", Line: 6,
			Message: "an executor ends its phase at needs_review; done is derived from an approving review file"},
		{Rule: "task-commits", File: "plans/billing/state/phase-2.json", Line: 16,
			Message: `task "2.2": commit ` + sha1 + ` is also task "2.1"'s commit (nothing new was committed for this task)`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestDerived(t *testing.T) {
	in := honest(t)
	s := *in.Head.States[2]
	s.Status = StatusDone
	in.Head.States[2] = &s
	got := []string{in.Head.Derived(1), in.Head.Derived(2), in.Head.Derived(3)}
	want := []string{StatusDone, StatusNeedsReview, "not_started"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Derived (-want +got):\n%s", diff)
	}
}

func TestCompareRuns(t *testing.T) {
	st := &State{Verification: []Verification{{Command: "go test", ExitCode: ptr(0)}, {Command: "lint", ExitCode: ptr(2)}}}
	tests := []struct {
		name string
		runs []Run
		want string
	}{
		{"honest", []Run{{0, ""}, {2, ""}}, ""},
		{"hard-coded zero", []Run{{1, "FAIL"}, {2, ""}}, "rerun"},
		{"other mismatch", []Run{{0, ""}, {0, ""}}, "rerun"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := rules(CompareRuns("f.json", st, tc.runs)); got != tc.want {
				t.Errorf("CompareRuns = %q, want %q", got, tc.want)
			}
		})
	}
}

// CompareRuns compares (for the tests; the Action re-runs a selection:
// rerun_select.go) each recorded verification of s (at file) with its
// re-run, runs[i] for s.Verification[i]. A recorded 0 that is really
// non-zero is a "false green"; any other difference is a mismatch.
func CompareRuns(file string, s *State, runs []Run) []Finding {
	var out []Finding
	for i := range s.Verification {
		if i >= len(runs) {
			break
		}
		out = append(out, compareRun(file, s, i, runs[i])...)
	}
	return out
}
