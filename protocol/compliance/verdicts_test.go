package compliance

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

const logText = `# Compliance log

| ID | Verdict | Executor |
| --- | --- | --- |
| P0-T1 | APPROVED | exec |

### P0-T1 — DONE

### P0-T1 — APPROVED
`

// honest is the log with the report by exec and both verdicts by ann, an
// auditor.
func honest() Input {
	return Input{File: "docs/run/compliance-log.md", Log: rundoc.ParseLog(rundoc.LogFile, logText),
		Blame: map[int]Author{
			5: {Login: "ann", Commit: "a000000000000000000000000000000000000001"},
			7: {Login: "exec", Commit: "e000000000000000000000000000000000000001"},
			9: {Login: "ann", Commit: "a000000000000000000000000000000000000001"},
		},
		Auditors: []string{"ann", "bob"}}
}

func TestVerdictLines(t *testing.T) {
	got := Lines(honest())
	want := []Verdict{
		{ID: "P0-T1", Word: "APPROVED", Line: 9, By: Author{Login: "ann", Commit: "a000000000000000000000000000000000000001"}, Executors: []string{"exec"}},
		{ID: "P0-T1", Word: "APPROVED", Line: 5, By: Author{Login: "ann", Commit: "a000000000000000000000000000000000000001"}, Executors: []string{"exec"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lines (-want +got):\n%s", diff)
	}
}

// TestVerdictRules: each attack is refused by its rule, on the verdict's
// line, and passes once that rule is left out (its negative control).
func TestVerdictRules(t *testing.T) {
	by := func(line int, login string) func(*Input) {
		return func(in *Input) {
			in.Blame[line] = Author{Login: login, Commit: "c000000000000000000000000000000000000009"}
		}
	}
	tests := []struct {
		name, rule string
		attack     func(*Input)
		want       []Finding
	}{
		{"the executor approves its own task", "not-executor", func(in *Input) {
			in.Auditors = append(in.Auditors, "exec")
			by(9, "exec")(in)
		}, []Finding{{"not-executor", 9, "P0-T1 APPROVED was introduced by exec (commit c00000000000), who also reported P0-T1: an executor cannot give its own task a verdict"}}},
		{"someone unlisted approves on the board", "listed-auditor", by(5, "mallory"),
			[]Finding{{"listed-auditor", 5, "P0-T1 APPROVED was introduced by mallory (commit c00000000000), who is not listed in auditors (ann, bob); verdicts belong to the auditor alone"}}},
		{"an author linked to no account", "known-author", by(9, ""),
			[]Finding{{"known-author", 9, "P0-T1 APPROVED introduced by commit c00000000000, which is linked to no GitHub account, so it cannot be shown to be an auditor's"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := honest()
			tt.attack(&in)
			_, got, _ := Check(in, DefaultRules())
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			rules := Without(DefaultRules(), tt.rule)
			if tt.rule == "known-author" {
				rules = Without(Without(rules, "listed-auditor"), "not-executor")
			}
			if _, got, _ := Check(in, rules); len(got) != 0 {
				t.Errorf("without %s: %+v, want the attack to pass", tt.rule, got)
			}
		})
	}
}

func TestVerdictsHonestAndNeutral(t *testing.T) {
	if _, got, neutral := Check(honest(), DefaultRules()); len(got) != 0 || neutral != "" {
		t.Errorf("honest: %+v %q, want nothing", got, neutral)
	}
	in := honest()
	in.Auditors = nil
	in.Blame[9] = Author{Login: "exec", Commit: "e000000000000000000000000000000000000001"}
	vs, got, neutral := Check(in, DefaultRules())
	if len(got) != 0 || !strings.Contains(neutral, "lists no auditors") || len(vs) != 2 {
		t.Errorf("no auditors: %+v %q, want neutral saying so", got, neutral)
	}
}
