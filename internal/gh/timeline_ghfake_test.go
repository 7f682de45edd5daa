package gh_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/google/go-cmp/cmp"
)

// TestAssignments: the assigned and unassigned events of an issue's
// timeline, oldest first, across pages (comments fill the pages between),
// in one request per page of 100.
func TestAssignments(t *testing.T) {
	f, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "issues": "read"})
	is := repo.OpenIssue("olivia", "Story", "")
	is.Assign("olivia", "bob")
	for i := 0; i < 150; i++ {
		is.Comment("olivia", fmt.Sprint("note ", i))
	}
	is.Assign("alice", "copilot-swe-agent[bot]")
	is.Unassign("olivia", "bob")
	before := len(f.Requests())
	tl, err := in.Assignments(context.Background(), "acme", "widgets", is.Number())
	if err != nil {
		t.Fatal(err)
	}
	var got []instructor.Event
	for _, e := range tl.Events {
		e.ID = 0
		got = append(got, e)
	}
	want := []instructor.Event{{Kind: "assigned", Assignee: "bob", Actor: "olivia"}, {Kind: "assigned", Assignee: "copilot-swe-agent[bot]", Actor: "alice"},
		{Kind: "unassigned", Assignee: "bob", Actor: "olivia"}}
	if diff := cmp.Diff(instructor.Timeline{Events: want}, instructor.Timeline{Events: got, Truncated: tl.Truncated}); diff != "" {
		t.Errorf("Assignments (-want +got):\n%s", diff)
	}
	if reads := timelineReads(f, before); reads != 2 {
		t.Errorf("%d timeline requests for 153 events; want 2 pages of 100", reads)
	}
}

// timelineReads counts the timeline requests since the first before.
func timelineReads(f *ghfake.Fake, before int) int {
	n := 0
	for _, r := range f.Requests()[before:] {
		if strings.HasSuffix(r.Path, "/timeline") {
			n++
		}
	}
	return n
}

// TestAssignmentsBounded: a timeline longer than instructor.MaxEvents is
// read up to the bound and reported Truncated, never taken as whole.
func TestAssignmentsBounded(t *testing.T) {
	f, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "issues": "read"})
	is := repo.OpenIssue("olivia", "Story", "")
	for i := 0; i < instructor.MaxEvents; i++ {
		is.Comment("olivia", "x")
	}
	is.Assign("alice", "Copilot")
	before := len(f.Requests())
	tl, err := in.Assignments(context.Background(), "acme", "widgets", is.Number())
	if err != nil {
		t.Fatal(err)
	}
	if !tl.Truncated || len(tl.Events) != 0 {
		t.Errorf("Assignments = %+v; want truncated, the assignment past the bound unread", tl)
	}
	if n := timelineReads(f, before); n != instructor.MaxEvents/100 {
		t.Errorf("%d timeline requests; want %d", n, instructor.MaxEvents/100)
	}
}
