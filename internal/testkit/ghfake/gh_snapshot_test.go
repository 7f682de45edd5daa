package ghfake_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// TestProjectSnapshotAgainstFake builds internal/gh's pull-request
// snapshot with every optional part on the snapshot story and checks what
// it decoded: the conversation (with the bot's login as REST spells it and
// edits marked), reviews bound to their commits, files, commits, and every
// check at the head with the App's own runs told apart.
func TestProjectSnapshotAgainstFake(t *testing.T) {
	s := snapshotStory(t)
	s.f.SetNow(time.Now()) // internal/gh signs its App JWTs with the real clock
	clients := gh.NewClients(gh.NewAppAuth(42, testKey(), s.f.URL(), nil), s.f.URL())
	clients.WritePause = 0
	in, err := clients.Installation(s.inst)
	if err != nil {
		t.Fatal(err)
	}
	all := snapshot.Needs{Conversation: true, Files: true, Commits: true, HeadChecks: true}
	snap, err := in.Snapshot(ctx, gh.SnapshotRequest{Owner: "acme", Repo: "widgets", PR: 3, Needs: all})
	if err != nil {
		t.Fatal(err)
	}
	p := snap.Pull
	if p == nil || p.HeadSHA != s.c2 || !p.RunsKnown || snap.Has != all {
		t.Fatalf("pull = %+v", p)
	}
	// The body names unit #1, which was not guessed: a second query read it.
	if u := snap.Units[1]; u == nil || u.Title != "Story A" {
		t.Errorf("unit #1 = %+v", u)
	}
	if th := snap.UnitComments[1]; len(th.Comments) != 1 || !th.Comments[0].Edited || th.Comments[0].ID != s.unitCm {
		t.Errorf("unit comments = %+v", th)
	}
	if c := snap.Control; c == nil || c.Number != 2 || len(c.Thread.Comments) != 1 || c.Thread.Comments[0].ID != s.ctlCm {
		t.Errorf("control = %+v", c)
	}
	var authors []snapshot.Actor
	var edited []bool
	for _, c := range p.Conversation.Comments {
		authors = append(authors, c.Author)
		edited = append(edited, c.Edited)
	}
	wantAuthors := []snapshot.Actor{{Login: "alice", Type: "User"}, {Login: "app-42[bot]", Type: "Bot"}}
	if diff := cmp.Diff(wantAuthors, authors); diff != "" || !edited[0] || edited[1] {
		t.Errorf("comment authors (-want +got):\n%s\nedited = %v", diff, edited)
	}
	var reviews []string
	for _, r := range p.Reviews {
		reviews = append(reviews, r.State+"@"+r.CommitSHA)
	}
	if diff := cmp.Diff([]string{"APPROVED@" + s.c1, "COMMENTED@" + s.c2}, reviews); diff != "" {
		t.Errorf("reviews (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"bob"}, p.ReviewRequests); diff != "" {
		t.Errorf("review requests (-want +got):\n%s", diff)
	}
	if len(p.Files) != 2 || len(p.Commits) != 2 || p.Commits[1].SHA != s.c2 || len(p.Truncated) != 0 {
		t.Errorf("files %+v, commits %+v, truncated %v", p.Files, p.Commits, p.Truncated)
	}
	var ci *snapshot.HeadCheck
	for i := range p.HeadChecks {
		if p.HeadChecks[i].ID == s.ciRun {
			ci = &p.HeadChecks[i]
		}
	}
	if ci == nil || ci.WorkflowRunID != s.runID || ci.Workflow == "" || ci.AppSlug != "github-actions" {
		t.Errorf("the CI run at the head = %+v", ci)
	}
	if len(p.Runs) != 1 || p.Runs[0].ID != s.mergeRun || p.Runs[0].DetailsURL != "https://aepgate.example/r/3" {
		t.Errorf("the App's own runs = %+v", p.Runs)
	}
}
