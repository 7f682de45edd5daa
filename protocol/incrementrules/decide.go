package incrementrules

import (
	"slices"

	"github.com/aepgate/aepgate/protocol/closurerules"
)

// tiers orders the risk tiers.
var tiers = []string{"low", "medium", "high"}

// Decide applies DefaultRules to f.
func Decide(f Facts) Verdict { return DecideWith(f, DefaultRules()) }

// DecideWith applies rules: every check runs, the increment stays at the
// earliest stage with something missing (Missing lists that stage's
// items), and is complete (with its certificate) when nothing is. A milestone closed by anyone before it is
// complete is flagged ClosedEarly, as a unit closed without evidence is.
func DecideWith(f Facts, rules Rules) Verdict {
	v := Verdict{Milestone: f.Milestone, Tier: Tier(f), Candidate: f.Candidate.SHA, Tampering: f.Tampering}
	v.Stage, v.Missing = earliestStage(f, rules, v.Tier)
	v.owned(f, rules)
	if v.Stage == Complete {
		v.Certificate, v.SHA256 = draw(f, v)
	}
	if v.Stage == Complete && v.Certificate == nil {
		v.Stage, v.Missing = Integrating, []Missing{{Rule: "certificate", What: "the increment certificate could not be encoded", Action: true}}
	}
	if !f.Open && v.Stage != Complete {
		v.ClosedEarly, v.ClosedBy = true, f.ClosedBy.Login
	}
	return v
}

// earliestStage runs every rule and returns the earliest stage with
// something missing (Complete: none) and what that stage lacks: the later
// stages wait on it.
func earliestStage(f Facts, rules Rules, tier string) (Stage, []Missing) {
	stage := Complete
	var all []Missing
	stageOf := map[string]Stage{}
	for _, r := range rules.Checks {
		ms := r.Check(f, rules, tier)
		for i := range ms {
			ms[i].Rule = r.Name
		}
		if len(ms) > 0 && slices.Index(stages, r.Stage) < slices.Index(stages, stage) {
			stage = r.Stage
		}
		stageOf[r.Name] = r.Stage
		all = append(all, ms...)
	}
	var missing []Missing
	for _, m := range all {
		if stageOf[m.Rule] == stage {
			missing = append(missing, m)
		}
	}
	return stage, missing
}

// owned fills in what the owner gave or is to give: the acceptance (high
// tier only) and the command to give it, and the demonstration or its
// template when the milestone declares a criterion.
func (v *Verdict) owned(f Facts, rules Rules) {
	if v.Tier == "high" {
		v.Acceptance = acceptance(f, rules)
		if f.Candidate.SHA != "" {
			v.AcceptCommand = acceptCommand(f)
		}
	}
	if f.Criterion == "" {
		return
	}
	if v.Demonstrated = demonstrated(f, rules); v.Demonstrated == nil {
		v.DemoTemplate = DemoTemplate(f)
	}
}

var stages = []Stage{Building, Integrating, Accepting, Complete}

// Tier is the increment's risk tier: the highest of its stories' and the
// description's (craft §5.5); a story whose risk is unreadable counts as
// high.
func Tier(f Facts) string {
	t := 0
	if i := slices.Index(tiers, f.Declared); i > t {
		t = i
	}
	for _, s := range f.Stories {
		if i := slices.Index(tiers, storyRisk(s)); i > t {
			t = i
		}
	}
	return tiers[t]
}

func storyRisk(s Story) string {
	if slices.Contains(tiers, s.Risk) {
		return s.Risk
	}
	return "high"
}

// certified is the story's newest merged attempt with a certificate.
func certified(s Story) *closurerules.Attempt {
	var out *closurerules.Attempt
	for i, a := range s.Attempts {
		if a.MergeSHA != "" && a.CertificateSHA256 != "" && (out == nil || a.PR > out.PR) {
			out = &s.Attempts[i]
		}
	}
	return out
}

// merged is the attempt a story is integrated by: its certified one, else
// its newest merged one (nil: none, e.g. an owner closed it by word).
func merged(s Story) *closurerules.Attempt {
	if c := certified(s); c != nil {
		return c
	}
	var out *closurerules.Attempt
	for i, a := range s.Attempts {
		if a.MergeSHA != "" && (out == nil || a.PR > out.PR) {
			out = &s.Attempts[i]
		}
	}
	return out
}

// Merges are the merge commits of the stories' merged attempts, in story
// and pull-request order, each once.
func Merges(stories []Story) []string {
	var out []string
	for _, s := range stories {
		for _, a := range s.Attempts {
			if a.MergeSHA != "" && !slices.Contains(out, a.MergeSHA) {
				out = append(out, a.MergeSHA)
			}
		}
	}
	return out
}

// Choose picks the integrated candidate: of merges, the newest by order
// (the default branch's commits, newest first); a commit an owner named
// (Named) replaces it when order shows it newer still. A merge commit not
// in order is never chosen over one that is; with none in order the first
// merge is tried (the containment check then decides). "" when merges is
// empty.
func Choose(merges, order, named []string) string {
	if len(merges) == 0 {
		return ""
	}
	pos := func(sha string) int {
		if i := slices.Index(order, sha); i >= 0 {
			return i
		}
		return len(order)
	}
	best := merges[0]
	for _, m := range merges[1:] {
		if pos(m) < pos(best) {
			best = m
		}
	}
	for _, n := range named {
		if pos(n) < pos(best) {
			best = n
		}
	}
	return best
}
