package readback

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// sweep reads back the recent merges into the default branch whose
// readback is not final: merged within readback.timeout and two sweeps,
// so a wait that ran out is failed, and a merge whose events were lost is
// found. Merges whose readback is final cost nothing beyond the listing.
func (j *Judge) sweep(ctx context.Context, in Input) error {
	now := j.Now()
	timeout := config.DefaultReadbackTimeout
	recent, err := j.GitHub.Find.RecentMerges(ctx, in.Owner, in.Repo, func(f snapshot.ConfigFile) time.Time {
		if cfg, _ := j.Rules.Config(f); cfg != nil {
			timeout = cfg.Readback.Timeout
		}
		return now.Add(-timeout - j.Horizon)
	})
	if err != nil {
		return err
	}
	for _, m := range recent.Merges {
		if m.BaseRef != recent.DefaultBranch || final(m.Runs, m.MergedAt.Add(timeout), now) {
			continue
		}
		if err := j.judge(ctx, in, m.Number, m.MergeSHA); err != nil {
			return err
		}
	}
	return nil
}
