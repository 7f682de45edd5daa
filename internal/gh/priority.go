package gh

import "context"

// Priority orders an installation's GitHub calls that wait for its budget:
// a higher priority leaves first, calls of one priority in the order they
// came.
type Priority int

// The priorities, lowest first. A call whose context carries none is
// PriorityNormal.
const (
	// PriorityBackground is work nobody waits for: sweeps, redelivery.
	PriorityBackground Priority = iota
	// PriorityFanout is re-judging many pull requests after one event (a
	// project HOLD, a config change, a milestone edit).
	PriorityFanout
	// PriorityNormal is the default.
	PriorityNormal
	// PriorityOwn is a pull request's own new head or an owner's command.
	PriorityOwn
	priorities = iota
)

// String is the priority's metric label.
func (p Priority) String() string {
	switch p {
	case PriorityBackground:
		return "background"
	case PriorityFanout:
		return "fanout"
	case PriorityOwn:
		return "own"
	default:
		return "normal"
	}
}

// Priorities lists every priority, highest first.
func Priorities() []Priority {
	return []Priority{PriorityOwn, PriorityNormal, PriorityFanout, PriorityBackground}
}

type priorityKey struct{}

// WithPriority returns ctx carrying p for the GitHub calls made with it.
func WithPriority(ctx context.Context, p Priority) context.Context {
	return context.WithValue(ctx, priorityKey{}, p)
}

// PriorityOf is the priority ctx carries, PriorityNormal when none (or an
// unknown one).
func PriorityOf(ctx context.Context) Priority {
	p, ok := ctx.Value(priorityKey{}).(Priority)
	if !ok || p < 0 || p >= priorities {
		return PriorityNormal
	}
	return p
}
