package increment

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// act records the decision and shows it: a certificate the milestone was
// given at an earlier candidate is withdrawn first; once every story is
// done, aepgate/increment on the candidate (unless GitHub shows it
// already), the milestone's earlier run there marked superseded first; the
// stage kept for the owner's board (keepBoard); a milestone closed before
// it is complete is flagged once per closure (when flag is set: by its
// milestone.closed delivery or the sweep that found the closure missed).
func (j *Judge) act(ctx context.Context, in Input, g *gathered, v incrementrules.Verdict, flag bool) error {
	show := v.Stage != incrementrules.Building && v.Candidate != ""
	run := checks.Increment(v)
	existing := latest(g.candidate, run.ExternalID)
	run, bundle, err := j.signed(in, v, run, existing)
	if err != nil {
		return err
	}
	write := show && (existing == nil || !checks.Unchanged(*existing, run))
	body := map[string]any{"stage": v.Stage, "tier": v.Tier, "candidate": v.Candidate, "missing": v.Missing, "sha256": v.SHA256,
		"acceptance": v.Acceptance, "demonstrated": v.Demonstrated, "open": g.facts.Open, "write": write, "event": in.Event}
	j.signedBy(body, v)
	e := store.Entry{Kind: "increment", DeliveryID: in.Delivery, Subject: subject(in, v.Milestone), Body: body}
	if err := j.W.Record(ctx, e); err != nil {
		return err
	}
	j.Log.Info("increment judged", "milestone", v.Milestone, "stage", v.Stage, "tier", v.Tier, "candidate", v.Candidate, "write", write)
	if err := j.withdraw(ctx, in, g.facts, v); err != nil {
		return err
	}
	if v.Complete() {
		if err := j.remember(ctx, in, v); err != nil {
			return err
		}
	}
	var id int64
	if show {
		if id, err = j.show(ctx, in, g, v, run, existing, write); err != nil {
			return err
		}
		if write {
			j.upload(ctx, in, v, bundle)
		}
	}
	j.keepBoard(ctx, in, v, id)
	return j.closed(ctx, in, g, v, flag)
}

// show puts run (the verdict's aepgate/increment) on the candidate and
// returns its check run ID. The run GitHub shows is the newest of the
// name, and only it can be found again: an earlier run is marked
// superseded before the new one is created.
func (j *Judge) show(ctx context.Context, in Input, g *gathered, v incrementrules.Verdict, run checks.Run, existing *snapshot.ExistingRun, write bool) (int64, error) {
	if err := j.supersede(ctx, in, g, v, run.ExternalID); err != nil {
		return 0, err
	}
	id, err := j.W.Publish(ctx, in.Owner, in.Repo, run, write, existing == nil)
	if err != nil {
		return 0, err
	}
	if id == 0 && existing != nil {
		id = existing.ID
	}
	return id, nil
}

// closed answers a closed milestone: flagged when it closed early (and
// flag is set), recorded once when it closed complete.
func (j *Judge) closed(ctx context.Context, in Input, g *gathered, v incrementrules.Verdict, flag bool) error {
	if v.ClosedEarly && flag {
		return j.flag(ctx, in, g, v)
	}
	if !g.facts.Open && v.Complete() {
		return j.closedComplete(ctx, in, g, v)
	}
	return nil
}

// closedKey names the ledger row saying how the App answered the closure
// of milestone closed at closedAt: flagged, or found complete.
func closedKey(in Input, milestone int, closedAt string) string {
	return fmt.Sprintf("%s closed at %s", subject(in, milestone), closedAt)
}

// closedComplete records, once per closure, that the milestone was
// complete when closed: the sweep then leaves the closure alone.
func (j *Judge) closedComplete(ctx context.Context, in Input, g *gathered, v incrementrules.Verdict) error {
	key := closedKey(in, v.Milestone, g.closedAt)
	done, err := j.W.Has(ctx, key)
	if err != nil || done {
		return err
	}
	return j.W.Record(ctx, store.Entry{Kind: "increment_closed_complete", DeliveryID: in.Delivery, Subject: key,
		Body: map[string]any{"closed_by": g.facts.ClosedBy.Login, "candidate": v.Candidate, "sha256": v.SHA256}})
}

// supersede marks the milestone's run GitHub shows on the candidate
// (AppCheckRuns lists the newest of the name) neutral when another is to
// replace it: its progress run when the certificate comes, or a
// certificate that no longer holds.
func (j *Judge) supersede(ctx context.Context, in Input, g *gathered, v incrementrules.Verdict, current string) error {
	for _, old := range g.candidate {
		if old.ExternalID == current || old.Conclusion == string(checks.ConclusionNeutral) || !ofMilestone(old, v.Candidate, v.Milestone) {
			continue
		}
		run := checks.IncrementSuperseded(v.Candidate, old.ExternalID, v)
		if _, err := j.W.Publish(ctx, in.Owner, in.Repo, run, true, false); err != nil {
			return err
		}
	}
	return nil
}

// ofMilestone: old is milestone n's progress run, or a certificate of n.
func ofMilestone(old snapshot.ExistingRun, head string, n int) bool {
	if old.ExternalID == checks.IncrementProgressID(n) {
		return true
	}
	cert, _ := checks.VerifyIncrementRun(runOf(old, head))
	return strings.HasPrefix(old.ExternalID, checks.CertificateExternalIDPrefix) && cert.Milestone == n
}

// flag answers a milestone closed before it is complete, once per
// closure: with closure.reopen the milestone is reopened first; then one
// comment on the control issue says what is missing.
func (j *Judge) flag(ctx context.Context, in Input, g *gathered, v incrementrules.Verdict) error {
	key := closedKey(in, v.Milestone, g.closedAt)
	done, err := j.W.Has(ctx, key)
	if err != nil || done {
		return err
	}
	e := store.Entry{Kind: "increment_closed_early", DeliveryID: in.Delivery, Subject: key,
		Body: map[string]any{"closed_by": v.ClosedBy, "stage": v.Stage, "missing": v.Missing, "reopen": g.cfg.Closure.Reopen}}
	if err := j.W.Record(ctx, e); err != nil {
		return err
	}
	if g.cfg.Closure.Reopen {
		if err := j.Src.ReopenMilestone(ctx, in.Owner, in.Repo, v.Milestone); err != nil {
			return err
		}
	}
	number := 0
	if g.control != nil {
		number = g.control.Number
	} else if number, _, err = j.Src.CreateControlIssue(ctx, in.Owner, in.Repo, verdict.ControlIssueTitle, verdict.ControlIssueBody); err != nil {
		return fmt.Errorf("open the control issue for milestone %d: %w", v.Milestone, err)
	}
	_, err = j.Src.Comment(ctx, in.Owner, in.Repo, number, closedComment(v, g.cfg.Closure.Reopen))
	return err
}

func subject(in Input, milestone int) string {
	return fmt.Sprintf("%s/%s milestone %d", in.Owner, in.Repo, milestone)
}

// latest is the newest run with externalID.
func latest(runs []snapshot.ExistingRun, externalID string) *snapshot.ExistingRun {
	var out *snapshot.ExistingRun
	for i := range runs {
		if runs[i].ExternalID == externalID && (out == nil || runs[i].ID > out.ID) {
			out = &runs[i]
		}
	}
	return out
}

// runOf is r, a run on head, as checks reads it.
func runOf(r snapshot.ExistingRun, head string) checks.Run {
	return checks.Run{Name: r.Name, HeadSHA: head, ExternalID: r.ExternalID, Status: checks.Status(r.Status),
		Conclusion: checks.Conclusion(r.Conclusion), Title: r.Title, Summary: r.Summary}
}
