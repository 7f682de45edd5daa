package closurerules

import (
	"slices"
	"testing"
	"time"
)

// without returns DefaultRules with the named rule taken out.
func without(name string) Rules {
	r := DefaultRules()
	r.Authority = slices.DeleteFunc(r.Authority, func(a AuthorityRule) bool { return a.Name == name })
	r.Command = slices.DeleteFunc(r.Command, func(c CommandRule) bool { return c.Name == name })
	r.Evidence = slices.DeleteFunc(r.Evidence, func(e EvidenceRule) bool { return e.Name == name })
	switch name {
	case "hold-voids":
		r.HoldVoids = false
	case "completed-only":
		r.CompletedOnly = false
	case "owner-final":
		r.OwnerFinal = false
	}
	return r
}

// TestRulesRefuseAttacks runs each attack with every rule (refused: the
// unit is not done) and with the one rule that stops it removed (the
// attack then passes), so each rule is shown to matter.
func TestRulesRefuseAttacks(t *testing.T) {
	edited := closeCmd(owner)
	edited.Updated = t0.Add(time.Hour)
	asEdit := closeCmd(owner)
	asEdit.Event = "issue_comment.edited"
	anyClosed := DefaultRules()
	anyClosed.Evidence = append(anyClosed.Evidence, EvidenceRule{"closed-counts", func(Facts, Rules) string { return "closed" }})
	tests := []struct {
		name   string
		attack Facts
		rule   string
		broken *Rules // when the control injects a rule instead of removing one
	}{
		{"coordinator closes a dependency", closed(coordinator, "medium"), "listed-owner", nil},
		{"a bot bearing the owner's login closes", closed(Actor{Login: "olivia", Type: "Bot", Permission: "write"}, "medium"), "human-owner", nil},
		{"an owner without write closes", closed(Actor{Login: "olivia", Type: "User", Permission: "read"}, "medium"), "live-write", nil},
		{"the owner closes under HOLD", with(closed(owner, "medium"), func(f *Facts) { f.Hold = "legal review" }), "hold-voids", nil},
		{"the owner's cancellation releases dependents", with(closed(owner, "medium"), func(f *Facts) { f.StateReason = ReasonNotPlanned }), "completed-only", nil},
		{"a coordinator edits the owner's comment into /aep close", with(closed(coordinator, "medium"), func(f *Facts) { f.Commands = []Command{edited} }), "not-edited", nil},
		{"an edit event carries /aep close", with(closed(coordinator, "medium"), func(f *Facts) {
			c := asEdit
			c.Updated = c.Created
			f.Commands = []Command{c}
		}), "created-only", nil},
		{"any closure counts (the old rule)", closed(coordinator, "medium"), "", &anyClosed},
		{"a coordinator's closure of a certified unit under closure.final: owner", with(closed(coordinator, "high"), func(f *Facts) {
			f.Attempts, f.Final = []Attempt{certified}, FinalOwner
		}), "owner-final", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if v := Judge(tt.attack, DefaultRules()); v.Counts() {
				t.Fatalf("attack counted as done with every rule: %+v", v)
			}
			broken := without(tt.rule)
			if tt.broken != nil {
				broken = *tt.broken
			}
			if v := Judge(tt.attack, broken); !v.Counts() {
				t.Errorf("negative control: with %q removed the attack should pass, got %+v", tt.rule, v)
			}
		})
	}
}

// TestEvidenceRulesMatter shows each evidence rule is what makes its
// evidence count: removed, the same closure is without evidence.
func TestEvidenceRulesMatter(t *testing.T) {
	tests := []struct {
		rule  string
		facts Facts
	}{
		{"certificate", with(closed(coordinator, "high"), func(f *Facts) { f.Attempts = []Attempt{certified} })},
		{"low-risk-readback", with(closed(coordinator, "low"), func(f *Facts) {
			f.Attempts = []Attempt{{PR: 3, MergeSHA: "m", MergePassed: true, ReadbackPassed: true}}
		})},
		{"owner-closed", closed(owner, "high")},
		{"owner-command", with(closed(coordinator, "high"), func(f *Facts) { f.Commands = []Command{closeCmd(owner)} })},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			if !Judge(tt.facts, DefaultRules()).Counts() {
				t.Fatal("evidence did not count")
			}
			if Judge(tt.facts, without(tt.rule)).Counts() {
				t.Errorf("with %q removed the closure still counted", tt.rule)
			}
		})
	}
}
