package readback

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/refusal"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

func TestGuesses(t *testing.T) {
	tests := []struct {
		message string
		want    []int
	}{
		{"Merge pull request #12 from acme/work\n\nWork", []int{12}},
		{"Add export (#7)\n\n* work", []int{7}},
		{"Add export (#7) \n", []int{7}},
		{"Fix #7 in the middle", nil},
		{"Merge pull request #0 from x", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Guesses(tt.message); !cmp.Equal(got, tt.want) {
			t.Errorf("Guesses(%q) = %v, want %v", tt.message, got, tt.want)
		}
	}
}

func TestReadbackState(t *testing.T) {
	missing := refusal.Refusal{Token: "readback-missing:ci"}
	tests := []struct {
		name    string
		res     readbackrules.Result
		extra   []refusal.Refusal
		want    checks.ReadbackState
		awaited []string
	}{
		{"verified", readbackrules.Result{Verified: true}, nil, checks.ReadbackVerified, nil},
		{"verified but runs unreadable", readbackrules.Result{Verified: true}, []refusal.Refusal{unreadable("403")}, checks.ReadbackWaiting, []string{"readable workflow runs"}},
		{"missing and running", readbackrules.Result{Refusals: []refusal.Refusal{missing, {Token: "readback-not-complete:lint"}, {Token: "ci-not-complete:ci"}}}, nil, checks.ReadbackWaiting, []string{"ci", "lint"}},
		{"a failed run fails at once", readbackrules.Result{Refusals: []refusal.Refusal{missing, {Token: "readback-failed:lint"}}}, nil, checks.ReadbackFailed, nil},
		{"changed head fails at once", readbackrules.Result{Refusals: []refusal.Refusal{missing, {Token: "head-not-proven-unchanged"}}}, nil, checks.ReadbackFailed, nil},
		{"invalid config fails", readbackrules.Result{Refusals: []refusal.Refusal{missing}}, []refusal.Refusal{{Token: tokenConfigInvalid}}, checks.ReadbackFailed, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, awaited := state(tt.res, tt.extra)
			if got != tt.want || !cmp.Equal(awaited, tt.awaited) {
				t.Errorf("state = %v %v, want %v %v", got, awaited, tt.want, tt.awaited)
			}
		})
	}
}

func TestReadbackFinal(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	run := func(name, status, conclusion string) snapshot.ExistingRun {
		return snapshot.ExistingRun{ID: 1, Name: name, Status: status, Conclusion: conclusion}
	}
	success, failure := run(checks.NameReadback, "completed", "success"), run(checks.NameReadback, "completed", "failure")
	cert := run(checks.NameCertificate, "completed", "success")
	tests := []struct {
		name     string
		runs     []snapshot.ExistingRun
		deadline time.Time
		want     bool
	}{
		{"none", nil, now.Add(time.Hour), false},
		{"waiting", []snapshot.ExistingRun{run(checks.NameReadback, "in_progress", "")}, now.Add(-time.Hour), false},
		{"success with certificate", []snapshot.ExistingRun{success, cert}, now.Add(time.Hour), true},
		{"success without certificate", []snapshot.ExistingRun{success}, now.Add(-time.Hour), false},
		{"failure in time", []snapshot.ExistingRun{failure}, now.Add(time.Hour), false},
		{"failure past the deadline", []snapshot.ExistingRun{failure}, now.Add(-time.Hour), true},
	}
	for _, tt := range tests {
		if got := final(tt.runs, tt.deadline, now); got != tt.want {
			t.Errorf("%s: final = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestPushRunsOnly(t *testing.T) {
	runs := []readbackrules.Run{{ID: 1, Event: "push"}, {ID: 2, Event: "pull_request"}, {ID: 3, Event: "workflow_dispatch"}, {ID: 4, Event: "schedule"}}
	var ids []int64
	for _, r := range pushRuns(runs) {
		ids = append(ids, r.ID)
	}
	if !cmp.Equal(ids, []int64{1, 3}) {
		t.Errorf("pushRuns kept %v, want [1 3]", ids)
	}
}

// FuzzGuesses: a commit message (outside input) yields no guess or one
// positive pull request number that its first line names.
func FuzzGuesses(f *testing.F) {
	f.Add("Merge pull request #12 from acme/work\n\nWork")
	f.Add("Add export (#7)")
	f.Add("")
	f.Fuzz(func(t *testing.T, message string) {
		got := Guesses(message)
		if len(got) > 1 || (len(got) == 1 && got[0] <= 0) {
			t.Fatalf("Guesses(%q) = %v", message, got)
		}
		first, _, _ := strings.Cut(message, "\n")
		if len(got) == 1 && !strings.Contains(first, strconv.Itoa(got[0])) {
			t.Fatalf("Guesses(%q) = %v, not named on the first line", message, got)
		}
	})
}
