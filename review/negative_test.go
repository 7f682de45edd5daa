package review

import (
	"slices"
	"strings"
	"testing"
)

// withoutRule returns DefaultOptions without the named who-counts rule.
func withoutRule(name string) Options {
	o := DefaultOptions()
	i := slices.IndexFunc(o.Rules, func(r Rule) bool { return r.Name == name })
	if i < 0 {
		panic("no rule " + name)
	}
	o.Rules = slices.Delete(o.Rules, i, i+1)
	return o
}

// TestNegativeControls shows each independence, binding and evidence rule
// is what stops its attack: the attack does not pass with every rule, and
// passes with that one rule removed.
func TestNegativeControls(t *testing.T) {
	med := fixture(RiskMedium)
	p := pass()
	by := func(a Actor) Review { r := rev(9, a.Login, head, p, 1); r.Author = a; return r }
	tweak := func(f func(*Review)) Review { r := rev(9, "ann", head, p, 1); f(&r); return r }
	listed := med
	listed.Auditors = []string{"bob"}
	env := pass()
	env.Verification[0].Evidence = []Evidence{{".env", "TOKEN=abc"}}
	quote := pass()
	quote.Verification[0].Evidence = []Evidence{{"src/auth.go", "func Check(token string) bool { return true }"}}
	many := pass()
	many.Verification[0].Evidence = nil
	var manyFiles Bundle
	for i := range 65 {
		path := "gen/f" + itoa(int64(i)) + ".go"
		many.Verification[0].Evidence = append(many.Verification[0].Evidence, Evidence{path, "x"})
		manyFiles = append(manyFiles, File{Path: path, Content: []byte("x")})
	}
	f1 := finding("F1", "tokens are checked")
	selfClose := []Review{rev(1, "ann", shaA, failing(f1), 1), rev(2, "carl", head, pass(judge("F1@r1", Agree)), 10)}
	dropRules := func(names ...string) Options {
		o := DefaultOptions()
		o.BundleRules = slices.DeleteFunc(o.BundleRules, func(r BundleRule) bool { return slices.Contains(names, r.Name) })
		return o
	}
	kate := med
	kate.Auditors = []string{"kate"}
	// The lookalike is a writer too (the attacker's own account), so only
	// the listed-auditor rule stands between it and the audit.
	kate.Permissions = writers("ann", "kate", "\u212Aate")
	// foldedAuditors is the listed-auditor rule comparing logins with
	// strings.EqualFold, the Unicode folding login.Equal replaced.
	foldedAuditors := DefaultOptions()
	for i, r := range foldedAuditors.Rules {
		if r.Name == "listed-auditor" {
			foldedAuditors.Rules[i].Check = func(r Review, in *Input) string {
				if slices.ContainsFunc(in.Auditors, func(a string) bool { return strings.EqualFold(a, r.Author.Login) }) {
					return ""
				}
				return "not listed"
			}
		}
	}
	noBinding := DefaultOptions()
	noBinding.Binding = func(Review, *Input) string { return "" }
	tests := []struct {
		name    string
		in      Input
		without Options
	}{
		{"the PR author audits", with(func() Input { in := med; in.PRAuthor = Actor{"pat", "User"}; return in }(), []Review{by(Actor{"pat", "User"})}), withoutRule("not-pr-author")},
		{"a committer audits", with(med, []Review{by(Actor{"carl", "User"})}), withoutRule("not-commit-author")},
		{"a commit author without a linked login audits", with(med, []Review{by(Actor{"dana", "User"})}), withoutRule("not-commit-author")},
		{"a bot audits", with(med, []Review{by(Actor{"helper[bot]", "Bot"})}), withoutRule("not-bot")},
		{"a listed agent with admin audits", with(func() Input {
			in := med
			in.IsAgent = func(l string) bool { return l == "ann" }
			in.Permissions = map[string]string{"ann": "admin"}
			return in
		}(), []Review{by(Actor{"ann", "User"})}), withoutRule("not-agent")},
		{"an unlisted auditor audits", with(listed, []Review{by(Actor{"ann", "User"})}), withoutRule("listed-auditor")},
		{"a Kelvin-sign lookalike of a listed auditor audits", with(kate, []Review{by(Actor{"\u212Aate", "User"})}), foldedAuditors},
		{"an edited review counts", with(med, []Review{tweak(func(r *Review) { r.Edited = true })}), withoutRule("not-edited")},
		{"a dismissed review counts", with(med, []Review{tweak(func(r *Review) { r.State = StateDismissed })}), withoutRule("submitted")},
		{"a deleted account audits", with(func() Input { in := med; in.Permissions = writers(""); return in }(), []Review{by(Actor{"", "User"})}), withoutRule("known-author")},
		{"the executor closes its own finding", with(med, selfClose, dispose(100, "exec", "F1@r1", "fixed", 5)), withoutRule("not-commit-author")},
		{"a PASS for an older head counts", with(med, []Review{rev(9, "ann", shaB, p, 1)}), noBinding},
		{"a quote that does not occur", with(med, []Review{rev(9, "ann", head, quote, 1)}), dropRules("verbatim")},
		{"a quote from .env", with(med, []Review{func() Review {
			r := rev(9, "ann", head, env, 1)
			r.Bundle = Bundle{{Path: ".env", Content: []byte("TOKEN=abc\n")}}
			return r
		}()}), dropRules("path")},
		{"a 65-file bundle", with(med, []Review{func() Review { r := rev(9, "ann", head, many, 1); r.Bundle = manyFiles; return r }()}), dropRules("file-limit")},
		{"a symlink", with(med, []Review{func() Review {
			r := rev(9, "ann", head, p, 1)
			r.Bundle[0].Symlink = true
			return r
		}()}), dropRules("no-symlink")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := Evaluate(tt.in); d.Outcome == OutcomePassed {
				t.Fatalf("with every rule the attack passes: %s", d.Reason)
			}
			if d := EvaluateOptions(tt.in, tt.without); d.Outcome != OutcomePassed {
				t.Errorf("with the rule removed: %s (%s); want passed", d.Outcome, d.Reason)
			}
		})
	}
}

// TestEvaluateWith shows EvaluateWith takes the who-counts rules.
func TestEvaluateWith(t *testing.T) {
	in := with(fixture(RiskMedium), []Review{rev(9, "exec", head, pass(), 1)})
	if d := EvaluateWith(in, DefaultRules()); d.Outcome != OutcomeMissing {
		t.Errorf("default rules: %s", d.Outcome)
	}
	if d := EvaluateWith(in, nil); d.Outcome != OutcomePassed {
		t.Errorf("no rules: %s", d.Outcome)
	}
}
