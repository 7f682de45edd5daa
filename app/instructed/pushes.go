package instructed

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/instructor"
)

// Channels reads the instructions of every channel of a pull request and
// its unit issue in one query (gh.Installation).
type Channels interface {
	Instructions(ctx context.Context, owner, repo string, number, unit int) (*gh.Instructions, error)
}

var _ Channels = (*gh.Installation)(nil)

// Recorded reads the App's records of who pushed which commit, and when
// the delivery says it was pushed (store.DB).
type Recorded interface {
	Pushers(ctx context.Context, repo string, shas []string) ([]store.Pusher, error)
}

var _ Recorded = (*store.DB)(nil)

// Times is a head's time, and whether it is one the pusher does not
// write (instructor.Push.Known), given the App's records of its pushes.
type Times func(h gh.Head, recorded []store.Pusher) (time.Time, bool)

// PushTimes is the time of a head from a source its pusher does not
// control: a force push's own time on GitHub (that push's, where a record
// by SHA may be of an earlier push of the same commit); else the earliest
// time the App recorded for a delivery that moved a branch to it
// (store.RecordPusher: GitHub's time in the delivery); else none is known
// and the commit's committed date, which whoever pushed it wrote, is not
// taken (instructor.PerPush then names everyone who may have instructed
// it).
func PushTimes(h gh.Head, recorded []store.Pusher) (time.Time, bool) {
	if h.Server {
		return h.At, true
	}
	var at time.Time
	for _, p := range recorded {
		if !p.At.IsZero() && (at.IsZero() || p.At.Before(at)) {
			at = p.At
		}
	}
	return at, !at.IsZero()
}

// Reader reads who instructed each head of a pull request: the timelines
// through Channels, the App's records of pushes through Recorded, each
// head's time chosen by Times (nil: PushTimes).
type Reader struct {
	Channels Channels
	Recorded Recorded
	Times    Times
}

// Pull names the pull request PerPush reads: its repository, number, unit
// issue (0: none) and current head SHA.
type Pull struct {
	Owner, Repo  string
	Number, Unit int
	Head         string
}

// PerPush reads pull request p's and its unit's timelines and the App's
// records of pushes, and returns who instructed each of the pull
// request's heads (instructor.PerPush) by triggers. A head is an agent's
// when a listed agent (isAgent) pushed it (GitHub's force push, the App's
// record) or is its author, committer or a co-author (Co-authored-by),
// or is one of known's logins for its commit (the snapshot's, by SHA). A
// timeline holding more than is read, or a failed read, fails: who
// instructed an agent is never guessed.
func (r Reader) PerPush(ctx context.Context, p Pull, triggers []instructor.Trigger, isAgent func(string) bool, known map[string][]string) ([]instructor.Instructed, error) {
	ins, err := r.Channels.Instructions(ctx, p.Owner, p.Repo, p.Number, p.Unit)
	if err != nil {
		return nil, fmt.Errorf("instructors of #%d: %w", p.Number, err)
	}
	if ins.Truncated {
		return nil, fmt.Errorf("instructors of #%d: its timeline or #%d's holds more items than aepgate reads, so who instructed the agent cannot be known", p.Number, p.Unit)
	}
	shas := make([]string, 0, len(ins.Heads))
	for _, h := range ins.Heads {
		shas = append(shas, h.SHA)
	}
	recorded, err := r.Recorded.Pushers(ctx, p.Owner+"/"+p.Repo, shas)
	if err != nil {
		return nil, fmt.Errorf("instructors of #%d: %w", p.Number, err)
	}
	bySHA := map[string][]store.Pusher{}
	for _, rp := range recorded {
		bySHA[strings.ToLower(rp.SHA)] = append(bySHA[strings.ToLower(rp.SHA)], rp)
	}
	times := r.Times
	if times == nil {
		times = PushTimes
	}
	pushes := make([]instructor.Push, 0, len(ins.Heads))
	for _, h := range ins.Heads {
		h.Logins = append(slices.Clone(h.Logins), known[h.SHA]...)
		rec := bySHA[strings.ToLower(h.SHA)]
		for _, rp := range rec {
			h.Logins = append(h.Logins, rp.Login)
		}
		push := Heads([]gh.Head{h}, isAgent)[0]
		push.At, push.Known = times(h, rec)
		push.Current = strings.EqualFold(h.SHA, p.Head)
		pushes = append(pushes, push)
	}
	return instructor.PerPush(pushes, instructor.Instructions(ins.Items, triggers), isAgent), nil
}

// Heads are heads as instructor pushes, each with its pusher and the first
// listed agent among its pusher and its commit's logins ("" for a
// person's), at the head's own time, not Known (Reader.PerPush chooses the
// time).
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
