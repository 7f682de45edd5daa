package instructed

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
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
			{SHA: "c2", At: at(7), Logins: []string{"bob"}},
			{SHA: "c3", At: at(8), Pusher: claude},
		},
	}
	got, err := PerPush(context.Background(), channels{ins: ins}, "acme", "widgets", 8, 7, instructor.TriggersFor([]string{claude}, nil), isAgent, nil)
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
	want := []string{"c1:claude[bot]:alice", "c2::", "c3:claude[bot]:carol"}
	if diff := cmp.Diff(want, who); diff != "" {
		t.Errorf("PerPush (-want +got):\n%s", diff)
	}
}

// TestPerPushFailsClosed: a failed read or a truncated timeline is an
// error, never "nobody instructed it".
func TestPerPushFailsClosed(t *testing.T) {
	for name, c := range map[string]channels{
		"error":     {err: errors.New("502")},
		"truncated": {ins: &gh.Instructions{Truncated: true}},
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := PerPush(context.Background(), c, "acme", "widgets", 8, 7, nil, func(string) bool { return false }, nil); err == nil {
				t.Errorf("PerPush = %v, want an error", got)
			}
		})
	}
}
