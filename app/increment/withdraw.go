package increment

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// certifiedSubject names the ledger row saying the App certified
// milestone's increment at sha; withdrawnSubject the row saying it
// withdrew that certificate.
func certifiedSubject(in Input, milestone int, sha string) string {
	return fmt.Sprintf("%s certified at %s", subject(in, milestone), sha)
}

func withdrawnSubject(in Input, milestone int, sha string) string {
	return fmt.Sprintf("%s withdrawn at %s", subject(in, milestone), sha)
}

// remember records, once, that v certified its candidate, so that a later
// judgement knows where an earlier certificate of the milestone stands.
func (j *Judge) remember(ctx context.Context, in Input, v incrementrules.Verdict) error {
	key := certifiedSubject(in, v.Milestone, v.Candidate)
	done, err := j.W.Has(ctx, key)
	if err != nil || done {
		return err
	}
	return j.W.Record(ctx, store.Entry{Kind: "increment_certified", DeliveryID: in.Delivery, Subject: key,
		Body: map[string]any{"milestone": v.Milestone, "candidate": v.Candidate, "sha256": v.SHA256}})
}

// withdraw updates each certificate the milestone was given at an earlier
// candidate that no longer holds (rules.Withdrawn) to neutral, naming the
// new candidate: the ledger says where the App certified and what it
// withdrew already, so nothing is read from GitHub unless a certificate is
// to be withdrawn (then its runs there: one read, the update: one read and
// one write).
func (j *Judge) withdraw(ctx context.Context, in Input, f incrementrules.Facts, v incrementrules.Verdict) error {
	for _, sha := range incrementrules.Previous(f, j.rules()) {
		why := incrementrules.Withdrawn(f, v, j.rules(), sha)
		if why == "" {
			continue
		}
		due, err := j.dueWithdrawal(ctx, in, v.Milestone, sha)
		if err != nil {
			return err
		}
		if due {
			if err := j.withdrawAt(ctx, in, v, sha, why); err != nil {
				return err
			}
		}
	}
	return nil
}

// dueWithdrawal: the App certified the milestone at sha and has not
// withdrawn that certificate yet.
func (j *Judge) dueWithdrawal(ctx context.Context, in Input, milestone int, sha string) (bool, error) {
	certified, err := j.W.Has(ctx, certifiedSubject(in, milestone, sha))
	if err != nil || !certified {
		return false, err
	}
	withdrawn, err := j.W.Has(ctx, withdrawnSubject(in, milestone, sha))
	return !withdrawn, err
}

// withdrawAt withdraws the milestone's certificates GitHub shows at sha,
// then records the ledger row saying so: a withdrawal that failed half way
// is done again (the update is idempotent), one done is never repeated.
func (j *Judge) withdrawAt(ctx context.Context, in Input, v incrementrules.Verdict, sha, why string) error {
	runs, err := j.Src.AppCheckRuns(ctx, in.Owner, in.Repo, sha, nameIncrement)
	if err != nil {
		return err
	}
	var ids []int64
	for _, r := range runs {
		cert, rs := checks.VerifyIncrementRun(runOf(r, sha))
		if len(rs) > 0 || cert.Milestone != v.Milestone {
			continue
		}
		run := checks.IncrementWithdrawn(sha, r.ExternalID, v.Milestone, v.Candidate, why)
		if _, err := j.W.Publish(ctx, in.Owner, in.Repo, run, true, false); err != nil {
			return err
		}
		ids = append(ids, r.ID)
		j.Log.Info("increment certificate withdrawn", "milestone", v.Milestone, "at", sha, "candidate", v.Candidate)
	}
	return j.W.Record(ctx, store.Entry{Kind: "increment_withdrawn", DeliveryID: in.Delivery, Subject: withdrawnSubject(in, v.Milestone, sha),
		Body: map[string]any{"milestone": v.Milestone, "withdrawn": sha, "runs": ids, "candidate": v.Candidate, "stage": v.Stage, "why": why}})
}
