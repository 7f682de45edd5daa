package instructed

import (
	"context"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/instructor"
)

// Timelines reads an issue's assignment events and a pull request's
// instructions of every channel (gh.Installation).
type Timelines interface {
	// Assignments are the assigned and unassigned events of issue number's
	// timeline, oldest first, bounded (instructor.MaxEvents).
	Assignments(ctx context.Context, owner, repo string, number int) (instructor.Timeline, error)
	Channels
}

var _ Timelines = (*gh.Installation)(nil)
