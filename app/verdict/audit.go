package verdict

import (
	"fmt"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/merge"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/review"
)

// AuditNeeds: the audit reads the reviews (and dispose comments) and the
// commits, whose authors and committers may not audit.
var AuditNeeds = snapshot.Needs{Conversation: true, Commits: true}

// evalAudit judges whether the audit the unit's risk tier needs holds at
// the head (docs/audit.md), from the reviews and their evidence bundles.
func evalAudit(ev *Evaluation) Outcome {
	p := ev.Snap.Pull
	if !ev.ConfigValid() {
		return Outcome{Run: checks.Run{Name: checks.NameAudit, HeadSHA: p.HeadSHA, Conclusion: checks.ConclusionFailure,
			Title: "The audit cannot be judged", Summary: ev.unusableConfig("the auditors cannot be known") + "\n"}}
	}
	if p.IsTruncated("reviews") || p.IsTruncated("commits") {
		return Outcome{Run: checks.Run{Name: checks.NameAudit, HeadSHA: p.HeadSHA, Conclusion: checks.ConclusionFailure,
			Title: "The audit cannot be judged", Summary: "GitHub holds more reviews or commits on this pull request than aepgate reads in one evaluation (2,000 reviews or 100 commits), so independence cannot be shown; audits are never judged on part of them.\n"}}
	}
	d := ev.AuditDecision()
	run := checks.Audit(p.HeadSHA, checks.AuditContext{Unit: ev.Unit, PR: p.Number, Risk: ev.Risk(), PRURL: p.URL, Instructed: ev.Instructed, ContractTamper: ev.ContractTamper(), Fates: ev.Fates()}, *d)
	if why := ev.approvalsShort(d); why != "" {
		run.Conclusion, run.Title, run.Summary = checks.ConclusionFailure, "Waiting for independent approvals", why+"\n\n"+run.Summary
	}
	return Outcome{Run: run, Facts: map[string]any{"unit": ev.Unit, "outcome": d.Outcome, "audited_sha": d.AuditedSHA, "bundle": d.BundleID, "reason": d.Reason}}
}

// Risk is the unit's risk tier from the contract that counts (the kept
// one, workunit.Issue.Effective); "" when unknown (the audit rules then
// demand the most).
func (ev *Evaluation) Risk() string {
	u := ev.Snap.Units[ev.Unit]
	if ev.Unit == 0 || u == nil {
		return ""
	}
	c, _ := u.Effective()
	return string(c.Risk)
}

// ContractTamper says what of the unit issue's contract did not count and
// who changed it (workunit.Kept.Tamper); "" when nothing.
func (ev *Evaluation) ContractTamper() string {
	if u := ev.Snap.Units[ev.Unit]; ev.Unit != 0 && u != nil {
		return u.Kept.Tamper()
	}
	return ""
}

// AuditDecision is the audit's final decision: the reviews judged with the
// owner's answers to the audit's own gates, as the gates replay accepted
// them. Derived once per evaluation.
func (ev *Evaluation) AuditDecision() *review.Decision {
	if ev.audit != nil {
		return ev.audit
	}
	if pre := ev.PreAudit(); pre != nil && pre.OwnerGate == nil {
		ev.audit = pre // no owner gate: the owner's answers change nothing
		return ev.audit
	}
	in := ev.auditInput()
	if g := ev.GateLog(); g != nil {
		in.Answers = answers(g.State)
	}
	d := review.EvaluateWith(in, ev.Rules)
	ev.audit = &d
	return ev.audit
}

// PreAudit is the audit's decision before the owner's answers are known:
// the owner gate it asks for is what the gates replay opens. nil when the
// snapshot lacks what the audit reads.
func (ev *Evaluation) PreAudit() *review.Decision {
	if ev.pre != nil || ev.Snap.Pull == nil || !ev.Snap.Has.Commits || ev.Cfg == nil {
		return ev.pre
	}
	d := review.EvaluateWith(ev.auditInput(), ev.Rules)
	ev.pre = &d
	return ev.pre
}

// answers are the owners' direct choices on resolved gates, by gate ID.
func answers(st gate.State) map[string]string {
	out := map[string]string{}
	for _, g := range st.Gates {
		if g.State != gate.StateResolved || g.Choice == nil || g.Authority == nil || *g.Authority != gate.AuthorityDirectOwner {
			continue
		}
		out[g.GateID] = *g.Choice
	}
	return out
}

// autoGate turns the audit's owner gate into the pull request's own gate
// for the replay, opened when the review the decision rests on was
// submitted.
func (ev *Evaluation) autoGate(d *review.Decision) gate.Event {
	og := d.OwnerGate
	wu := fmt.Sprint(ev.Unit)
	ev0 := gate.Event{Type: gate.EventCreate, Actor: "aepgate", GateID: og.ID, WorkUnit: &wu,
		Question: og.Question, Choices: gate.Choices(og.Choices), ExternalEffect: og.Effect, OwnerOnlyCategory: og.Category,
		BlockingScope: og.Scope, SafeDefault: og.SafeDefault}
	if r := d.Review; r != nil {
		ev0.Time, ev0.Evidence = r.Submitted, r.URL
	}
	return ev0
}

// auditInput gathers the audit's facts from the snapshot.
func (ev *Evaluation) auditInput() review.Input {
	p := ev.Snap.Pull
	in := review.Input{Risk: ev.Risk(), Head: p.HeadSHA, Unit: ev.Unit, PR: p.Number, PRAuthor: review.Actor(p.Author),
		Auditors: ev.Cfg.Auditors, Exchanges: ev.Cfg.Limits.Exchanges, Corrections: ev.Cfg.Limits.Corrections,
		Permissions: ev.Roles, AuditTriage: ev.Cfg.AuditTriage, Pushers: ev.Pushers, Instructed: ev.Instructed, IsAgent: ev.Cfg.IsAgent}
	for _, c := range p.Commits {
		in.Commits = append(in.Commits, review.Commit{SHA: c.SHA, AuthorLogin: c.AuthorLogin, AuthorEmail: c.AuthorEmail, AuthorName: c.AuthorName,
			CommitterLogin: c.CommitterLogin, CommitterEmail: c.CommitterEmail, CommitterName: c.CommitterName})
	}
	for _, r := range p.Reviews {
		rv := review.Review{ID: r.ID, URL: r.URL, Author: review.Actor(r.Author), CommitSHA: r.CommitSHA, State: r.State, Body: r.Body,
			Submitted: r.Submitted, Edited: r.Edited}
		if b, ok := ev.Bundles[r.ID]; ok {
			rv.Bundle, rv.BundleErr = b.Files, b.Err
		}
		in.Reviews = append(in.Reviews, rv)
	}
	for _, c := range p.Conversation.Comments {
		ds, errs := review.Dispositions(c.Body, ev.Cfg.CommandPrefix)
		if len(errs) > 0 {
			continue // answered as refused; counts for nothing
		}
		for _, d := range ds {
			d.CommentID, d.URL, d.Author, d.Created, d.Edited = c.ID, c.URL, review.Actor(c.Author), c.Created, c.Edited
			in.Dispositions = append(in.Dispositions, d)
		}
	}
	return in
}

// auditVerdict is what the audit says for the merge check: it holds when
// passed, or when no audit is needed.
func (ev *Evaluation) auditVerdict() merge.Verdict {
	if ev.Snap.Pull == nil || ev.Cfg == nil {
		return merge.Verdict{Reasons: []string{"the audit could not be judged; see " + checks.NameAudit}}
	}
	d := ev.AuditDecision()
	if why := ev.approvalsShort(d); why != "" {
		return merge.Verdict{Reasons: []string{why}}
	}
	switch d.Outcome {
	case review.OutcomePassed:
		return merge.Verdict{OK: true, Evidence: fmt.Sprintf("independent PASS at %s (bundle %s)", gitsha.Short(d.AuditedSHA), gitsha.Short(d.BundleID))}
	case review.OutcomeNotRequired:
		return merge.Verdict{OK: true, Evidence: "no audit is needed at risk low"}
	}
	return merge.Verdict{Reasons: []string{d.Reason}}
}

// BundleWant is one review's evidence to read.
type BundleWant struct {
	ID    int64
	SHA   string
	Paths []string
}

// BundleWants lists what to read for each review that may count.
func (ev *Evaluation) BundleWants() []BundleWant {
	ain := ev.auditInput()
	var wants []BundleWant
	for _, r := range ain.Reviews {
		if !counts(ev.Rules, r, &ain) {
			continue
		}
		a, _ := review.Parse(r.Body)
		if a == nil {
			continue // an unreadable block needs no evidence to be refused
		}
		paths := a.EvidencePaths()
		if len(paths) > review.MaxBundleFiles {
			// Nothing is read; the bundle rules refuse the review in their
			// own words (the same as aepgate review check).
			ev.Bundles[r.ID] = Bundle{Files: review.Bundle{}}
			continue
		}
		w := BundleWant{ID: r.ID, SHA: r.CommitSHA}
		for _, p := range paths {
			if review.CheckPath(p) == nil {
				w.Paths = append(w.Paths, p)
			}
		}
		wants = append(wants, w)
	}
	return wants
}

// counts reports whether every review rule lets r through.
func counts(rules []review.Rule, r review.Review, in *review.Input) bool {
	for _, rule := range rules {
		if rule.Check(r, in) != "" {
			return false
		}
	}
	return true
}
