package checks

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// gatesFixture replays a unit with a project HOLD, a unit HOLD, a
// coordinator's merge gate, a contract-change gate and a gate the owner
// answered with its safe default; blocked false replays only the answers.
func gatesFixture(blocked bool) gatelog.Result {
	t0 := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	pr := gatelog.Source{Kind: gatelog.PullRequest, Number: 21}
	ctl := gatelog.Source{Kind: gatelog.ControlIssue, Number: 1}
	c := func(id int64, who string, src gatelog.Source, min int, body string) gatelog.Item {
		at := t0.Add(time.Duration(min) * time.Minute)
		return gatelog.Item{ID: id, URL: "https://github.com/acme/w/pull/21#issuecomment-" + strings.Repeat("1", int(id)), Source: src,
			Author: who, AuthorType: "User", Created: at, Updated: at, Body: body, Event: gatelog.EventCommentCreated}
	}
	block := func(id, q, safe string) string {
		return "```aep-gate\nid: " + id + "\nquestion: " + q + "\nchoices: [approve, reject]\ncategory: human-product-judgment-action\neffect: deploy\nscope: merge\nsafe_default: " + safe + "\n```"
	}
	items := []gatelog.Item{
		c(1, "carol", pr, 1, block("deploy-docs", "Deploy the docs | site to production?", "reject")),
		c(2, "carol", pr, 2, block("paid-api", "Use the paid geocoding API?", "reject")),
		c(3, "alice", pr, 3, "/aep resolve paid-api approve"),
	}
	in := gatelog.Input{Project: "demo", Unit: 13, PR: 21, ControlIssue: 1,
		Policy:      gatelog.Policy{Owners: []string{"alice"}, Coordinators: []string{"carol"}},
		Permissions: gatelog.Permissions{"alice": "admin", "carol": "write"}}
	if blocked {
		items = append(items,
			c(4, "carol", pr, 4, block("rename-table", "Rename the orders table?", "reject")),
			c(5, "alice", pr, 5, "/aep resolve rename-table reject"),
			c(6, "carol", pr, 6, "/aep hold waiting for legal"),
			c(7, "carol", ctl, 7, "/aep hold release freeze"))
		in.PullRequests = []gatelog.PullRequestState{{Number: 21, Head: sha, HeadAt: t0, ContractFiles: []string{".github/aepgate.yml"}}}
	} else {
		items = append(items, c(4, "alice", pr, 4, "/aep resolve deploy-docs approve"))
	}
	in.Items = items
	return gatelog.Build(in)
}

func TestRenderGates(t *testing.T) {
	ctx := GatesContext{Unit: 13, PR: 21, Owners: []string{"alice"}, ControlIssueURL: "https://github.com/acme/w/issues/1", PRURL: "https://github.com/acme/w/pull/21"}
	blocked, clear := gatesFixture(true), gatesFixture(false)
	if len(blocked.Blockers) != 5 || len(clear.Blockers) != 0 {
		t.Fatalf("fixture: %d and %d blockers; want 5 and 0", len(blocked.Blockers), len(clear.Blockers))
	}
	refused := []gatelog.Outcome{
		{ItemID: 9, Line: 2, Command: "/aep resolve deploy-docs approve", Action: gatelog.ActionResolve, Reason: "only an owner (@alice) may resolve; @mallory is not listed in owners"},
		{ItemID: 9, Line: 3, Command: "/aep approve", Reason: `"approve" is not a command`},
	}
	tests := []struct {
		file, text string
		run        *Run
	}{
		{"gates-blocked.golden", "", ptrRun(Gates(sha, ctx, blocked.State, blocked.Blockers))},
		{"gates-clear.golden", "", ptrRun(Gates(sha, ctx, clear.State, clear.Blockers))},
		{"gates-status-blocked.golden", StatusComment(ctx, blocked.State, blocked.Blockers), nil},
		{"gates-status-clear.golden", StatusComment(GatesContext{Unit: 13}, clear.State, nil), nil},
		{"gates-reply.golden", RefusalReply(9, "mallory", "", refused), nil},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			text := tt.text
			if tt.run != nil {
				if err := Validate(Fit(*tt.run)); err != nil {
					t.Errorf("rendered run is invalid: %v", err)
				}
				if len(tt.run.Actions) != 0 {
					t.Errorf("the gates run has buttons: %+v", tt.run.Actions)
				}
				text = dumpApp(*tt.run) + "--- details\n" + tt.run.DetailsURL + "\n"
			}
			if cmds := command.Parse(text, ""); len(cmds) != 0 {
				t.Errorf("rendered text holds commands, which a replay would read: %+v", cmds)
			}
			golden.CheckString(t, filepath.Join("testdata", tt.file), text)
		})
	}
}

func ptrRun(r Run) *Run { return &r }

func TestEscapeHTML(t *testing.T) {
	tests := []struct{ in, want string }{
		{`choice "<img src=x>" is not one of a, b`, `choice "&lt;img src=x&gt;" is not one of a, b`},
		{"the valid forms are `/aep hold <reason>` & more", "the valid forms are `/aep hold <reason>` &amp; more"},
	}
	for _, tt := range tests {
		if got := escapeHTML(tt.in); got != tt.want {
			t.Errorf("escapeHTML(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
