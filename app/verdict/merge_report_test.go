package verdict

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/report"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// TestMergeReportFacts checks what aepgate/merge gives the worker report
// check: the units the body names, and the changed files only when the
// snapshot read them in full (otherwise FILES is not compared).
func TestMergeReportFacts(t *testing.T) {
	body := "Fixes #7\n\nSTATUS: done\nWORK-UNIT: #7\n"
	pull := func(truncated ...string) *snapshot.Pull {
		return &snapshot.Pull{Number: 3, Body: body, HeadSHA: "abc", HeadRef: "work",
			Files: []snapshot.File{{Path: "a.go", ChangeType: "MODIFIED"}, {Path: "b.go", ChangeType: "ADDED"}}, Truncated: truncated}
	}
	tests := []struct {
		name string
		snap *snapshot.PR
		want report.Facts
	}{
		{"files read", &snapshot.PR{Repo: "o/r", Pull: pull(), Has: snapshot.Needs{Files: true}},
			report.Facts{HeadSHA: "abc", Number: 3, HeadBranch: "work", Repo: "o/r", Units: []workunit.Ref{{Number: 7}},
				Files: []string{"a.go", "b.go"}, FilesKnown: true}},
		{"files not read", &snapshot.PR{Repo: "o/r", Pull: pull()},
			report.Facts{HeadSHA: "abc", Number: 3, HeadBranch: "work", Repo: "o/r", Units: []workunit.Ref{{Number: 7}}}},
		{"files cut short", &snapshot.PR{Repo: "o/r", Pull: pull("files"), Has: snapshot.Needs{Files: true}},
			report.Facts{HeadSHA: "abc", Number: 3, HeadBranch: "work", Repo: "o/r", Units: []workunit.Ref{{Number: 7}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewWith(tt.snap, nil).reportFacts()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("facts (-want +got):\n%s", diff)
			}
		})
	}
}
