package verdict

import (
	"maps"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/merge"
)

// Overrides are the owners' overrides in force on the pull request's head,
// by the check they name (gatelog.Result.InForce): none when the gates
// cannot be replayed or a HOLD is in force.
func (ev *Evaluation) Overrides() map[string]gatelog.Override {
	g, p := ev.GateLog(), ev.Snap.Pull
	if g == nil || p == nil {
		return nil
	}
	return g.InForce(p.Number, p.HeadSHA)
}

// overridden is out with the owner's override of its check applied, when
// one is in force at the head: the run succeeds, titled with the owner and
// the reason (checks.Overridden), and its ledger facts keep who overrode it,
// why, and what it would have concluded.
func (ev *Evaluation) overridden(out Outcome) Outcome {
	o, ok := ev.Overrides()[out.Run.Name]
	if out.Skip || !ok || out.Run.Conclusion == checks.ConclusionSuccess {
		return out
	}
	facts := maps.Clone(out.Facts)
	if facts == nil {
		facts = map[string]any{}
	}
	facts["overridden_by"], facts["override_reason"], facts["override_comment"] = o.Owner, o.Reason, o.URL
	facts["would_conclude"] = out.Run.Conclusion
	run := checks.Overridden(out.Run, checks.Override{Owner: o.Owner, Reason: o.Reason, URL: o.URL, PR: o.PR})
	return Outcome{Run: run, Facts: facts}
}

// overriddenInput is v as the merge check sums it up when the owner
// overrode the check that shows it (name): satisfied, the override as its
// evidence.
func (ev *Evaluation) overriddenInput(name string, v merge.Verdict) merge.Verdict {
	if o, ok := ev.Overrides()[name]; ok && !v.OK {
		return merge.Verdict{OK: true, Evidence: checks.OverriddenTitle(checks.Override{Owner: o.Owner, Reason: o.Reason})}
	}
	return v
}
