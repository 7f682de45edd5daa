package instructed

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/google/go-cmp/cmp"
)

type channels struct {
	ins *gh.Instructions
	err error
}

func (c channels) Instructions(context.Context, string, string, int, int) (*gh.Instructions, error) {
	return c.ins, c.err
}

// recorded is a hand-written Recorded: its pushes (of any SHA asked for),
// or its error.
type recorded struct {
	pushers []store.Pusher
	err     error
}

func (r recorded) Pushers(_ context.Context, _ string, shas []string) ([]store.Pusher, error) {
	var out []store.Pusher
	for _, p := range r.pushers {
		if slices.Contains(shas, p.SHA) {
			out = append(out, p)
		}
	}
	return out, r.err
}

// TestPerPush: each head at its time from a source the pusher does not
// write: c1 and c2 as the App recorded their pushes, c3 at GitHub's time
// of its force push. c2's committed date (10:01) would put it before
// carol's command; its recorded push (10:07) is after it.
func TestPerPush(t *testing.T) {
	const claude = "claude[bot]"
	at := func(m int) time.Time { return time.Date(2026, 12, 1, 10, m, 0, 0, time.UTC) }
	isAgent := func(s string) bool { return login.Equal(s, claude) }
	ins := &gh.Instructions{
		Items: []instructor.Item{
			{Channel: instructor.ChannelIssueAssignment, Author: "alice", At: at(0), Assignee: claude},
			{Channel: instructor.ChannelReviewComment, Author: "carol", At: at(6), Body: "@claude fix this"},
		},
		Heads: []gh.Head{
			{SHA: "c1", At: at(5), Logins: []string{"bob", claude}}, // a co-author
			{SHA: "c2", At: at(1), Logins: []string{"bob"}},         // pushed by the agent (recorded)
			{SHA: "c3", At: at(8), Server: true, Pusher: claude},
		},
	}
	rec := recorded{pushers: []store.Pusher{{SHA: "c1", Login: "bob", At: at(5)}, {SHA: "c2", Login: claude, At: at(7)}, {SHA: "c2", Login: "bob", At: at(9)}}}
	r := Reader{Channels: channels{ins: ins}, Recorded: rec}
	got, err := r.PerPush(context.Background(), Pull{Owner: "acme", Repo: "widgets", Number: 8, Unit: 7, Head: "c3"}, instructor.TriggersFor([]string{claude}, nil), isAgent, nil)
	if err != nil {
		t.Fatal(err)
	}
	var who []string
	for _, p := range got {
		w := p.Head + ":" + p.Agent + ":"
		if p.Instructor != nil {
			w += p.Instructor.Author
		}
		who = append(who, w)
	}
	want := []string{"c1:claude[bot]:alice", "c2:claude[bot]:carol", "c3:claude[bot]:carol"}
	if diff := cmp.Diff(want, who); diff != "" {
		t.Errorf("PerPush (-want +got):\n%s", diff)
	}
}

// TestPerPushFailsClosed: a failed read, a truncated timeline or an
// unreadable record of pushes is an error, never "nobody instructed it".
func TestPerPushFailsClosed(t *testing.T) {
	for name, r := range map[string]Reader{
		"error":     {Channels: channels{err: errors.New("502")}, Recorded: recorded{}},
		"truncated": {Channels: channels{ins: &gh.Instructions{Truncated: true}}, Recorded: recorded{}},
		"records":   {Channels: channels{ins: &gh.Instructions{}}, Recorded: recorded{err: errors.New("database down")}},
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := r.PerPush(context.Background(), Pull{Owner: "acme", Repo: "widgets", Number: 8, Unit: 7}, nil, func(string) bool { return false }, nil); err == nil {
				t.Errorf("PerPush = %v, want an error", got)
			}
		})
	}
}
