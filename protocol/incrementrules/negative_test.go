package incrementrules

import (
	"slices"
	"testing"

	"github.com/aepgate/aepgate/protocol/closurerules"
)

// without returns DefaultRules with the named rule taken out.
func without(name string) Rules {
	r := DefaultRules()
	r.Checks = slices.DeleteFunc(r.Checks, func(c Rule) bool { return c.Name == name })
	r.Owner = slices.DeleteFunc(r.Owner, func(a closurerules.AuthorityRule) bool { return a.Name == name })
	r.Comment = slices.DeleteFunc(r.Comment, func(c CommentRule) bool { return c.Name == name })
	r.Accept = slices.DeleteFunc(r.Accept, func(a AcceptRule) bool { return a.Name == name })
	r.Demo = slices.DeleteFunc(r.Demo, func(d DemoRule) bool { return d.Name == name })
	r.Withdraw = slices.DeleteFunc(r.Withdraw, func(w WithdrawRule) bool { return w.Name == name })
	return r
}

// TestRulesRefuseAttacks runs each attack with every rule (the increment
// is not complete) and with the one rule that stops it removed (the attack
// then completes it), so each rule is shown to matter.
func TestRulesRefuseAttacks(t *testing.T) {
	bot := closurerules.Actor{Login: "olivia", Type: "Bot", Permission: "write"}
	demoted := closurerules.Actor{Login: "olivia", Type: "User", Permission: "read"}
	edited := accept(5, owner, "4", sha("3"))
	edited.Updated = t0.Add(1)
	held := accept(5, owner, "4", sha("3"))
	held.Hold = "wait for legal"
	onHigh := func(c ...Comment) func(*Facts) { return func(f *Facts) { high(f); f.Comments = c } }
	onDemo := func(c ...Comment) func(*Facts) { return func(f *Facts) { demonstrating(f); f.Comments = c } }
	tests := []struct {
		name   string
		attack Facts
		rule   string
	}{
		{"an increment with a story still open", with(complete(), func(f *Facts) { f.Stories[2].Closure.State = closurerules.Open }), "every-story-done"},
		{"a story a coordinator closed without evidence", with(complete(), func(f *Facts) { f.Stories[1].Closure.State = closurerules.WithoutEvidence }), "every-story-done"},
		{"an increment without stories", with(complete(), func(f *Facts) { f.Stories = nil }), "stories-listed"},
		{"a candidate that misses a story's merge", with(complete(), func(f *Facts) { f.Candidate.Contains[sha("2")] = false }), "candidate-contains-every-merge"},
		{"a candidate off the default branch", with(complete(), func(f *Facts) { f.Candidate.OnDefault = false }), "candidate-contains-every-merge"},
		{"readback only at an older commit", with(complete(), func(f *Facts) { f.Runs[0].HeadSHA = sha("2") }), "readback-at-candidate"},
		{"readback still running", with(complete(), func(f *Facts) { f.Runs[0].Status = "queued" }), "readback-at-candidate"},
		{"a medium story never certified", with(complete(), func(f *Facts) { f.Stories[2].Attempts[0].CertificateSHA256 = "" }), "stories-certified"},
		{"high risk without the owner's acceptance", with(complete(), high), "owner-acceptance"},
		{"a coordinator accepts", with(complete(), onHigh(accept(5, coordinator, "4", sha("3")))), "listed-owner"},
		{"a bot bearing the owner's login accepts", with(complete(), onHigh(accept(5, bot, "4", sha("3")))), "human-owner"},
		{"an owner without write accepts", with(complete(), onHigh(accept(5, demoted, "4", sha("3")))), "live-write"},
		{"an acceptance edited into the comment", with(complete(), onHigh(edited)), "not-edited"},
		{"an acceptance posted under a HOLD", with(complete(), onHigh(held)), "not-under-hold"},
		{"a demonstration posted under a HOLD", with(complete(), onDemo(func() Comment { c := demo(6, owner, criterion); c.Hold = "wait"; return c }())), "not-under-hold"},
		{"an acceptance of an earlier candidate", with(complete(), onHigh(accept(5, owner, "4", sha("2")))), "bound-to-candidate"},
		{"an acceptance of another milestone", with(complete(), onHigh(accept(5, owner, "9", sha("3")))), "accept-same-milestone"},
		{"a demonstration with one character changed", with(complete(), onDemo(demo(6, owner, criterion[:len(criterion)-1]+"T"))), "exact-criterion"},
		{"a demonstration by a stranger", with(complete(), onDemo(demo(6, stranger, criterion))), "listed-owner"},
		{"a demonstration naming evidence that is not there", with(complete(), func(f *Facts) {
			demonstrating(f)
			f.Evidence = map[string]string{"run 77": "GitHub has no workflow run 77"}
			f.Comments = []Comment{demo(6, owner, criterion)}
		}), "evidence-read-back"},
		{"a demonstration of another milestone", with(complete(), onDemo(comment(6, owner, "```aep-demo\nmilestone: 9\ncriterion: "+criterion+"\nevidence: run 77\n```"))), "demo-same-milestone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if v := Decide(tt.attack); v.Complete() {
				t.Fatalf("attack completed the increment with every rule: %+v", v)
			}
			if v := DecideWith(tt.attack, without(tt.rule)); !v.Complete() {
				t.Errorf("negative control: with %q removed the attack should complete the increment, missing %+v", tt.rule, v.Missing)
			}
		})
	}
}
