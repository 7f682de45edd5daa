package board

import (
	"context"
	"encoding/json"

	"github.com/aepgate/aepgate/protocol/closurerules"
)

// readBack is the pull requests of repo whose readback the App recorded
// verified (the units' kept evidence), read only when a readback can be
// owed (merge authority granted to coordinators). An unreadable row counts
// as not observed.
func (b *Boards) readBack(ctx context.Context, repo string, coordinators []string) (map[int]bool, error) {
	if len(coordinators) == 0 {
		return nil, nil
	}
	evidence, err := b.DB.UnitEvidence(ctx, repo)
	if err != nil {
		return nil, err
	}
	out := map[int]bool{}
	for _, rows := range evidence {
		for _, raw := range rows {
			var a closurerules.Attempt
			if json.Unmarshal(raw, &a) == nil && a.ReadbackPassed {
				out[a.PR] = true
			}
		}
	}
	return out, nil
}
