package instructor

import (
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/google/go-cmp/cmp"
)

// facts is an agent's pull request at head h2 on base b1: push 1 bob
// instructed by a comment, push 2 carol by a label; alice assigned the
// agent on the unit issue.
func facts() Facts {
	return Facts{
		Head: "h2", Base: "b1",
		Pushes: []Instructed{
			{Push: Push{Head: "h1", Agent: claude}, N: 1, Instructor: &Instruction{Channel: ChannelComment, Author: "bob", Agent: claude}},
			{Push: Push{Head: "h2", Agent: claude}, N: 2, Instructor: &Instruction{Channel: ChannelLabel, Author: "carol", Agent: claude}},
		},
		Finding: &Finding{Agents: []string{claude}, Unit: 7, Instructors: []Instructor{{Login: "alice", Agent: claude, Roles: []Role{RoleAssigner}}}},
		IsAgent: agents(claude),
	}
}

func approval(who string, kind Kind) Approval {
	return Approval{Kind: kind, Login: who, Head: "h2", Base: "b1", LiveWrite: true}
}

// attacks are one approval per rule that only that rule refuses, with
// the rule's reason.
var attacks = []struct {
	name string
	rule rule
	a    Approval
	want Fate
}{
	{"agent with admin", byAgent, approval(claude, KindReview), Fate{Outcome: NotCounted, Reason: "agent: a listed agent's approval never counts"}},
	{"bot with write", byBot, Approval{Kind: KindCommand, Login: "review-bot[bot]", Head: "h2", Base: "b1", LiveWrite: true, Bot: true}, Fate{Outcome: NotCounted, Reason: "bot: a bot's or an unknown account's approval never counts"}},
	{"instructor of the head", byInstructor, approval("carol", KindAudit), Fate{Outcome: NotCounted, Reason: "instructor of push 2 (added its trigger label)"}},
	{"instructor of an earlier push", byInstructor, approval("bob", KindGate), Fate{Outcome: NotCounted, Reason: "instructor of push 1 (commanded it in a comment)"}},
	{"assigner on the unit issue", byAssigner, approval("alice", KindReview), Fate{Outcome: NotCounted, Reason: "instructor: assigned it on the unit issue"}},
	{"no live write", withoutWrite, Approval{Kind: KindReview, Login: "olivia", Head: "h2", Base: "b1"}, Fate{Outcome: NotCounted, Reason: "no live write: the account has no write permission now"}},
	{"edited command", edited, Approval{Kind: KindCommand, Login: "olivia", Head: "h2", Base: "b1", LiveWrite: true, Edited: true}, Fate{Outcome: NotCounted, Reason: "edited after it was given"}},
	{"pushed after", stale, Approval{Kind: KindReview, Login: "olivia", Head: "h1", Base: "b1", LiveWrite: true}, Fate{Outcome: Stale, Reason: reasonPushedAfter}},
	{"base moved", stale, Approval{Kind: KindReview, Login: "olivia", Head: "h2", Base: "b0", LiveWrite: true}, Fate{Outcome: Stale, Reason: reasonBaseMoved}},
}

// TestDecideRules: each rule refuses its attack; with that rule removed
// (the negative control) the same approval counts.
func TestDecideRules(t *testing.T) {
	for _, tt := range attacks {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			want.Approval = tt.a
			got := Decide(facts(), []Approval{tt.a})
			if diff := cmp.Diff([]Fate{want}, got.Fates); diff != "" {
				t.Errorf("Decide (-want +got):\n%s", diff)
			}
			if got.Enough() {
				t.Errorf("Decide counted %v", got.Counted)
			}
			without := independence
			without.rules = slices.DeleteFunc(slices.Clone(independence.rules), func(r rule) bool { return sameRule(r, tt.rule) })
			if len(without.rules) != len(independence.rules)-1 {
				t.Fatalf("rule not found in independence")
			}
			removed := decide(without, facts(), []Approval{tt.a})
			if !removed.Enough() || removed.Fates[0].Outcome != Counted {
				t.Errorf("negative control: without the rule, %+v should count", removed.Fates)
			}
		})
	}
}

func TestDecideCounts(t *testing.T) {
	independent := approval("olivia", KindAudit)
	tests := []struct {
		name      string
		approvals int
		given     []Approval
		agentPR   bool
		want      []string
		enough    bool
	}{
		{"one independent", 1, []Approval{independent}, true, []string{"olivia"}, true},
		{"agents.approvals 2, one person twice", 2, []Approval{independent, approval("Olivia", KindReview)}, true, []string{"olivia"}, false},
		{"agents.approvals 2, two people", 2, []Approval{independent, approval("pat", KindReview)}, true, []string{"olivia", "pat"}, true},
		{"agents.approvals 2, an agent as the second", 2, []Approval{independent, approval(claude, KindReview)}, true, []string{"olivia"}, false},
		{"agents.approvals on a person's pull request", 2, []Approval{independent}, false, []string{"olivia"}, true},
		{"nobody", 1, nil, true, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := facts()
			f.Approvals = tt.approvals
			if !tt.agentPR {
				f.Pushes, f.Finding = nil, nil
			}
			got := Decide(f, tt.given)
			if diff := cmp.Diff(tt.want, got.Counted); diff != "" {
				t.Errorf("Counted (-want +got):\n%s", diff)
			}
			if got.Enough() != tt.enough {
				t.Errorf("Enough = %v, want %v", got.Enough(), tt.enough)
			}
		})
	}
}

// TestApprovalsNegativeControl: without agents.approvals (every pull
// request needs one), an agent's pull request with one independent
// approval of the two configured is let through.
func TestApprovalsNegativeControl(t *testing.T) {
	f := facts()
	f.Approvals = 2
	given := []Approval{approval("olivia", KindAudit)}
	if Decide(f, given).Enough() {
		t.Fatal("one approval of two counted as enough")
	}
	one := policy{rules: independence.rules, needed: func(*Facts) int { return 1 }}
	if !decide(one, f, given).Enough() {
		t.Error("negative control: without agents.approvals one approval should be enough")
	}
}

func TestDeniedPaths(t *testing.T) {
	patterns := []string{".github/workflows/**", "**/AGENTS.md", "/CODEOWNERS"}
	changed := []string{"main.go", ".github/workflows/ci.yml", "svc/AGENTS.md", "docs/CODEOWNERS"}
	want := []string{".github/workflows/ci.yml", "svc/AGENTS.md"}
	if diff := cmp.Diff(want, DeniedPaths(patterns, changed)); diff != "" {
		t.Errorf("DeniedPaths (-want +got):\n%s", diff)
	}
	if got := deniedPaths(func(string, string) bool { return false }, patterns, changed); len(got) != 0 {
		t.Errorf("negative control: without matching, %v", got)
	}
}

// TestFateRowsGolden renders one approval of each fate.
func TestFateRowsGolden(t *testing.T) {
	given := []Approval{approval("olivia", KindAudit)}
	for _, a := range attacks {
		given = append(given, a.a)
	}
	given = append(given, Approval{Kind: KindReview, Login: "x|y`<b>\nz", Head: "h2", Base: "b1", LiveWrite: true})
	f := facts()
	f.Approvals = 2
	d := Decide(f, given)
	golden.CheckString(t, filepath.Join("testdata", "fates.golden"), FateHeader+FateRows(d)+"\n"+FateSummary(d)+"\n")
}

func sameRule(a, b rule) bool { return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() }

// TestDecideWithout: each rule name leaves out exactly its rules, and an
// unknown name leaves out nothing.
func TestDecideWithout(t *testing.T) {
	f := Facts{Head: "h", Base: "b", IsAgent: func(l string) bool { return l == "bot-agent" },
		Pushes: []Instructed{{Push: Push{Head: "h", Agent: "bot-agent"}, N: 1, Instructor: &Instruction{Author: "dave", Channel: ChannelComment}}}}
	approvals := []Approval{
		{Kind: KindAudit, Login: "dave", Head: "h", Base: "b", LiveWrite: true},
		{Kind: KindReview, Login: "bot-agent", Head: "h", Base: "b", LiveWrite: true},
		{Kind: KindReview, Login: "carol", Head: "old", Base: "b", LiveWrite: true},
	}
	tests := []struct {
		without []string
		want    []string
	}{
		{nil, nil},
		{[]string{"unknown"}, nil},
		{[]string{"not-instructor"}, []string{"dave"}},
		{[]string{"not-agent"}, []string{"bot-agent"}},
		{[]string{"approval-at-head"}, []string{"carol"}},
	}
	for _, tt := range tests {
		if got := DecideWithout(f, approvals, tt.without...).Counted; !slices.Equal(got, tt.want) {
			t.Errorf("DecideWithout(%v).Counted = %v, want %v", tt.without, got, tt.want)
		}
	}
}

// TestDecideUnsure: whoever may have instructed a push pushed at no known
// time (Unsure) does not count, named as such; another writer does.
// Negative control: without not-instructor, both count.
func TestDecideUnsure(t *testing.T) {
	dave := Instruction{Author: "dave", Agent: "bot-agent", Channel: ChannelComment}
	f := Facts{Head: "h", Base: "b", IsAgent: func(l string) bool { return l == "bot-agent" },
		Pushes: []Instructed{{Push: Push{Head: "h", Agent: "bot-agent"}, N: 1, Unsure: []Instruction{dave}}}}
	approvals := []Approval{
		{Kind: KindAudit, Login: "dave", Head: "h", Base: "b", LiveWrite: true},
		{Kind: KindAudit, Login: "carol", Head: "h", Base: "b", LiveWrite: true},
	}
	d := Decide(f, approvals)
	if want := []string{"carol"}; !slices.Equal(d.Counted, want) {
		t.Errorf("Counted = %v, want %v", d.Counted, want)
	}
	if got, want := d.Fates[0].Reason, "may have instructed push 1, pushed at no known time (commanded it in a comment)"; got != want {
		t.Errorf("dave's fate: %q, want %q", got, want)
	}
	if got := DecideWithout(f, approvals, "not-instructor").Counted; !slices.Equal(got, []string{"carol", "dave"}) && !slices.Equal(got, []string{"dave", "carol"}) {
		t.Errorf("negative control: without not-instructor Counted = %v, want dave and carol", got)
	}
}

// TestFateSummary: the counted people and the need, whichever is larger,
// in words that hold for each (never "2 of 1 … counted").
func TestFateSummary(t *testing.T) {
	tests := []struct {
		counted []string
		needed  int
		want    string
	}{
		{[]string{"ann", "bob"}, 1, "2 independent approvals counted; 1 needed."},
		{[]string{"ann"}, 1, "1 independent approval counted; 1 needed."},
		{[]string{"ann", "bob"}, 2, "2 independent approvals counted; 2 needed."},
		{nil, 1, "0 of 1 independent approval needed counted: 1 more from people with write permission who neither are agents nor instructed one."},
		{[]string{"ann"}, 3, "1 of 3 independent approvals needed counted: 2 more from people with write permission who neither are agents nor instructed one."},
	}
	for _, tt := range tests {
		if got := FateSummary(Decision{Counted: tt.counted, Needed: tt.needed}); got != tt.want {
			t.Errorf("FateSummary(%d counted, %d needed) = %q, want %q", len(tt.counted), tt.needed, got, tt.want)
		}
	}
}
