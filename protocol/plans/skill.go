package plans

import (
	"cmp"
	"slices"
)

// skillState is a state file in the Executor skill's dialect, as the skill
// writes it (spec: no version key; tasks keyed by ID; verification keyed
// by test, lint and build).
type skillState struct {
	Phase        int                  `json:"phase"`
	Status       string               `json:"status"`
	ClaimedBy    string               `json:"claimed_by"`
	Branch       string               `json:"branch"`
	Worktree     string               `json:"worktree"`
	StartedAt    string               `json:"started_at"`
	Tasks        map[string]skillTask `json:"tasks"`
	Verification skillVerifications   `json:"verification"`
	Advisor      *Advisor             `json:"advisor"`
}

type skillTask struct {
	Status        string   `json:"status"`
	Commit        string   `json:"commit"`
	CompletedAt   string   `json:"completed_at"`
	FailureReason string   `json:"failure_reason"`
	Attempts      int      `json:"attempts"`
	Blocks        []string `json:"blocks"`
}

// skillVerifications are the skill's three verification slots; lint and
// build only when the plan defines them.
type skillVerifications struct {
	Test  *skillVerification `json:"test"`
	Lint  *skillVerification `json:"lint"`
	Build *skillVerification `json:"build"`
}

type skillVerification struct {
	Command  string `json:"command"`
	ExitCode *int   `json:"exit_code"`
}

// hasVersion reports whether data's top-level object has a "version" key,
// which makes it aepgate's dialect.
func hasVersion(ix lines) bool {
	_, ok := ix["version"]
	return ok
}

// parseSkillState decodes a skill-dialect state file into a State, tasks
// in the order the file lists them.
func parseSkillState(file string, data []byte) (*State, *errs, bool) {
	var sk skillState
	e, ok := decode(file, data, &sk)
	s := &State{Dialect: DialectSkill, Phase: sk.Phase, Status: sk.Status, Executor: sk.ClaimedBy,
		Branch: sk.Branch, Worktree: sk.Worktree, StartedAt: sk.StartedAt, Advisor: sk.Advisor, lines: e.lines}
	if !ok {
		return s, e, false
	}
	for id, t := range sk.Tasks {
		s.Tasks = append(s.Tasks, TaskState{ID: id, Status: t.Status, Commit: t.Commit, CompletedAt: t.CompletedAt,
			FailureReason: t.FailureReason, Attempts: t.Attempts, Blocks: t.Blocks, field: "tasks." + id})
	}
	slices.SortFunc(s.Tasks, func(a, b TaskState) int {
		return cmp.Or(cmp.Compare(e.lines[a.field], e.lines[b.field]), cmp.Compare(a.ID, b.ID))
	})
	for _, v := range []struct {
		name string
		v    *skillVerification
	}{{"test", sk.Verification.Test}, {"lint", sk.Verification.Lint}, {"build", sk.Verification.Build}} {
		if v.v != nil {
			s.Verification = append(s.Verification, Verification{Name: v.name, Command: v.v.Command,
				ExitCode: v.v.ExitCode, field: "verification." + v.name})
		}
	}
	return s, e, true
}
