package plans

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

const (
	shaBase = "b000000000000000000000000000000000000000"
	sha1    = "c100000000000000000000000000000000000000"
	sha2    = "c200000000000000000000000000000000000000"
	sha3    = "c300000000000000000000000000000000000000"
)

func ptr(n int) *int { return &n }

// reparse marshals v as indented JSON and parses it back, so that the
// value carries line positions as a file on disk would.
func reparse[T any](t *testing.T, v *T, parse func(string, []byte) (*T, error)) *T {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := parse("x.json", b)
	if err != nil {
		t.Fatalf("fixture does not parse: %v\n%s", err, b)
	}
	return got
}

func progressFixture(t *testing.T, edit func(*Progress)) *Progress {
	p := &Progress{Version: 1, Slug: "billing", Owner: "olivia", Phases: []Phase{
		{ID: 1, Title: "ledger", ConflictZones: []string{"internal/ledger/**"},
			Tasks: []Task{{ID: "1.1", Title: "schema"}, {ID: "1.2", Title: "writer"}}},
		{ID: 2, Title: "invoices", DependsOn: []int{1}, ParallelSafe: true, Reviewer: "rita",
			ConflictZones: []string{"internal/billing/**"}, Tasks: []Task{{ID: "2.1", Title: "model"}, {ID: "2.2", Title: "api"}}},
		{ID: 3, Title: "web", ParallelSafe: true, ConflictZones: []string{"web/**"}, Tasks: []Task{{ID: "3.1", Title: "page"}}},
	}}
	if edit != nil {
		edit(p)
	}
	return reparse(t, p, ParseProgress)
}

func stateFixture(t *testing.T, s State) *State {
	return reparse(t, &s, ParseState)
}

// honest returns a truthful phase-2 pull request: phase 1 approved at base,
// two tasks done, each at its own commit that changes a file.
func honest(t *testing.T) Input {
	dir := "plans/billing"
	review := reparse(t, &Review{Version: 1, Phase: 1, Reviewer: "olivia", Verdict: VerdictApproved, Commit: shaBase}, ParseReview)
	st1 := stateFixture(t, State{Version: 1, Phase: 1, Executor: "exec-1", Branch: "plan/billing/phase-1", Status: StatusNeedsReview})
	base := Plan{Dir: dir, Progress: progressFixture(t, nil), States: map[int]*State{1: st1}, Reviews: map[int]*Review{1: review}}
	head := base
	head.Progress = progressFixture(t, nil)
	head.States = map[int]*State{1: st1, 2: stateFixture(t, State{Version: 1, Phase: 2, Executor: "exec-bot",
		Branch: "plan/billing/phase-2", Status: StatusNeedsReview,
		Tasks:        []TaskState{{ID: "2.1", Status: TaskDone, Commit: sha1}, {ID: "2.2", Status: TaskDone, Commit: sha2}},
		Verification: []Verification{{Command: "go test ./internal/billing/...", ExitCode: ptr(0)}}})}
	head.Handoff = handoff(2)
	return Input{Base: base, Head: head, PR: PR{
		Author: "exec-bot", Phase: 2, Base: shaBase,
		Commits: []Commit{
			{sha1, []string{"internal/billing/model.go"}},
			{sha2, []string{"internal/billing/api.go"}},
			{sha3, []string{"plans/billing/state/phase-2.json"}},
		},
		Changed: []string{"internal/billing/api.go", "internal/billing/model.go", "plans/billing/state/phase-2.json"},
	}}
}

// handoff is a HANDOFF.md with phase n's handoff and every section.
func handoff(n int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Handoffs\n\n## Handoff — phase %d — 2026-07-25\n\n", n)
	for _, s := range HandoffSections {
		fmt.Fprintf(&b, "### %s\n\nText.\n\n", s)
	}
	return []byte(b.String())
}

// setTask rewrites head's phase-2 task id to commit sha.
func setTask(t *testing.T, in *Input, id, sha string) {
	s := *in.Head.States[2]
	s.Tasks = append([]TaskState(nil), s.Tasks...)
	for i := range s.Tasks {
		if s.Tasks[i].ID == id {
			s.Tasks[i].Commit = sha
		}
	}
	in.Head.States = map[int]*State{1: in.Head.States[1], 2: stateFixture(t, s)}
}

func rules(fs []Finding) string {
	var names []string
	for _, f := range fs {
		names = append(names, f.Rule)
	}
	return strings.Join(names, ",")
}
