package pull

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/app/rundocs"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// readDecisions reads what the gate log is derived from besides the
// snapshot: the App's login, the kept decisions, the changed execution
// guides at base and head (app/rundocs), and the live role of every listed
// owner, coordinator and auditor who wrote in the conversation.
func (j *Judge) readDecisions(ctx context.Context, in Input, ev *verdict.Evaluation) error {
	login, err := j.Reads.AppLogin(ctx)
	if err != nil {
		return err
	}
	ev.AppLogin = login
	if err := errors.Join(j.loadKept(ctx, in, ev), rundocs.Read(ctx, j.Reads.Files, in.Owner, in.Repo, ev)); err != nil {
		return err
	}
	for _, o := range verdict.OwnerAuthors(ev.Snap, slices.Concat(ev.Cfg.AllOwners(), ev.Cfg.Coordinators, ev.Cfg.Auditors), ev.Unit, ev.Kept) {
		if _, err := j.roleOf(ctx, in, ev, o); err != nil {
			return err
		}
	}
	return nil
}

// marks says how far the App read each long thread of in's repository
// before, so a snapshot reads only what came after (gh.ThreadMarker;
// app/gates raises the marks once the decisions are kept).
func (j *Judge) marks(in Input) gh.ThreadMarker {
	repo := in.FullName()
	return func(ctx context.Context, number int) (int64, error) {
		return j.Reads.Kept.ThreadMark(ctx, repo, number)
	}
}

// loadKept reads the repository's kept decisions that bear on this
// evaluation: the control issue's, the unit's, and this pull request's.
func (j *Judge) loadKept(ctx context.Context, in Input, ev *verdict.Evaluation) error {
	rows, err := j.Reads.Kept.KeptDecisions(ctx, in.FullName())
	if err != nil {
		return err
	}
	ev.Kept = nil
	for _, r := range rows {
		var it gatelog.Item
		if err := json.Unmarshal(r.Item, &it); err != nil {
			return fmt.Errorf("kept decision %d of %s/%s: %w", r.ItemID, in.Owner, in.Repo, err)
		}
		ours := it.Source.Kind == gatelog.ControlIssue || (ev.Unit > 0 && r.Unit == ev.Unit) ||
			(it.Source.Kind == gatelog.PullRequest && in.PR > 0 && it.Source.Number == in.PR)
		if !ours {
			continue
		}
		ev.Kept = append(ev.Kept, gatelog.Kept{Item: it, BodySHA256: r.BodySHA256, Change: r.Tamper, TamperedBy: r.TamperedBy})
	}
	return nil
}
