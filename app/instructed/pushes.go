package instructed

import (
	"context"
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/instructor"
)

// Channels reads the instructions of every channel of a pull request and
// its unit issue in one query (gh.Installation).
type Channels interface {
	Instructions(ctx context.Context, owner, repo string, number, unit int) (*gh.Instructions, error)
}

var _ Channels = (*gh.Installation)(nil)

// PerPush reads pull request number's and unit's timelines through c and
// returns who instructed each of the pull request's heads
// (instructor.PerPush) by triggers. A head is an agent's when a listed
// agent (isAgent) pushed it or is its author, committer or a co-author
// (Co-authored-by), or is one of known's logins for its commit (the
// snapshot's, by SHA). A timeline holding more than is read fails: who
// instructed an agent is never guessed.
func PerPush(ctx context.Context, c Channels, owner, repo string, number, unit int, triggers []instructor.Trigger, isAgent func(string) bool, known map[string][]string) ([]instructor.Instructed, error) {
	ins, err := c.Instructions(ctx, owner, repo, number, unit)
	if err != nil {
		return nil, fmt.Errorf("instructors of #%d: %w", number, err)
	}
	if ins.Truncated {
		return nil, fmt.Errorf("instructors of #%d: its timeline or #%d's holds more items than aepgate reads, so who instructed the agent cannot be known", number, unit)
	}
	heads := make([]gh.Head, 0, len(ins.Heads))
	for _, h := range ins.Heads {
		h.Logins = append(slices.Clone(h.Logins), known[h.SHA]...)
		heads = append(heads, h)
	}
	return instructor.PerPush(Heads(heads, isAgent), instructor.Instructions(ins.Items, triggers), isAgent), nil
}

// Heads are heads as instructor pushes, each with its pusher and the first
// listed agent among its pusher and its commit's logins ("" for a
// person's).
func Heads(heads []gh.Head, isAgent func(string) bool) []instructor.Push {
	out := make([]instructor.Push, 0, len(heads))
	for _, h := range heads {
		p := instructor.Push{Head: h.SHA, At: h.At, Pusher: h.Pusher}
		for _, l := range append([]string{h.Pusher}, h.Logins...) {
			if isAgent(l) {
				p.Agent = l
				break
			}
		}
		out = append(out, p)
	}
	return out
}
