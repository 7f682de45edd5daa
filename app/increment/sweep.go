package increment

import "context"

// MaxMissedClosures bounds the closed milestones one sweep judges for a
// closure the App missed; the next sweep takes the rest.
const MaxMissedClosures = 5

// missed are the closed milestones whose closure the App never answered
// although it judged them before (a lost milestone.closed delivery): the
// ledger holds a judgement of the milestone and no row for this closure
// (flagged, or found complete). One GitHub read (the closed milestones,
// up to 100), two ledger look-ups per closed milestone; the App's ledger
// decides, so milestones closed before the App judged them are left alone.
func (j *Judge) missed(ctx context.Context, in Input) ([]int, error) {
	closed, err := j.Src.ClosedMilestones(ctx, in.Owner, in.Repo)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, m := range closed {
		if len(out) == MaxMissedClosures {
			break
		}
		answered, err := j.W.Has(ctx, closedKey(in, m.Number, m.ClosedAt))
		if err != nil {
			return nil, err
		}
		if answered || m.ClosedAt == "" {
			continue
		}
		judged, err := j.W.Has(ctx, subject(in, m.Number))
		if err != nil {
			return nil, err
		}
		if judged {
			out = append(out, m.Number)
		}
	}
	return out, nil
}
