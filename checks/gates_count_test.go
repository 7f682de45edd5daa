package checks

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// TestRenderGatesCount: a gate whose category needs two owners, answered
// by one (twice), says who answered and that it needs another owner, in
// the check run and in the status comment.
func TestRenderGatesCount(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	pr := gatelog.Source{Kind: gatelog.PullRequest, Number: 21}
	c := func(id int64, who string, min int, body string) gatelog.Item {
		at := t0.Add(time.Duration(min) * time.Minute)
		return gatelog.Item{ID: id, URL: "https://github.com/acme/w/pull/21#issuecomment-" + strings.Repeat("1", int(id)), Source: pr,
			Author: who, AuthorType: "User", Created: at, Updated: at, Body: body, Event: gatelog.EventCommentCreated}
	}
	in := gatelog.Input{Project: "demo", Unit: 13, PR: 21,
		Policy:      gatelog.Policy{Owners: []string{"alice", "bob"}, Approvals: map[string]int{"irreversible-destructive": 2}},
		Permissions: gatelog.Permissions{"alice": "admin", "bob": "admin"},
		Items: []gatelog.Item{
			c(1, "alice", 1, "```aep-gate\nid: drop-orders\nquestion: Drop the orders table?\nchoices: [approve, reject]\ncategory: irreversible-destructive\neffect: irreversible-data-change\nscope: merge\nsafe_default: reject\n```"),
			c(2, "alice", 2, "/aep resolve drop-orders approve"),
			c(3, "alice", 3, "/aep resolve drop-orders approve"),
		}}
	res := gatelog.Build(in)
	if len(res.Blockers) != 1 {
		t.Fatalf("blockers = %+v, want the gate still open", res.Blockers)
	}
	ctx := GatesContext{Unit: 13, PR: 21, Owners: []string{"alice", "bob"}, PRURL: "https://github.com/acme/w/pull/21"}
	run := Gates(sha, ctx, res.State, res.Blockers)
	if err := Validate(Fit(run)); err != nil {
		t.Errorf("rendered run is invalid: %v", err)
	}
	text := dumpApp(run) + "--- status comment\n" + StatusComment(ctx, res.State, res.Blockers)
	if !strings.Contains(text, "1 of 2 owners answered `approve`: @alice; needs another owner") {
		t.Errorf("the run does not say who answered and that another owner must:\n%s", text)
	}
	golden.CheckString(t, filepath.Join("testdata", "gates-count.golden"), text)
}
