package gh

import (
	"context"

	"github.com/aepgate/aepgate/protocol/snapshot"
)

// SnapshotWindowLanes is Snapshot as it was before completeLanes: each
// story's lanes are the newest lanesPage mentions, trusted as all of them
// (the negative control of the WIP limits' completeness).
func (in *Installation) SnapshotWindowLanes(ctx context.Context, req SnapshotRequest) (*snapshot.PR, error) {
	return in.snapshot(ctx, req, func(_ context.Context, _, _, _ string, s *snapshot.PR, _ AttemptIndex) error {
		s.LanesUnread = nil
		return nil
	})
}
