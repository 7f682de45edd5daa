package app

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/readback"
	refusals "github.com/aepgate/aepgate/protocol/refusal"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

func TestMergeGuesses(t *testing.T) {
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
		if got := mergeGuesses(tt.message); !cmp.Equal(got, tt.want) {
			t.Errorf("mergeGuesses(%q) = %v, want %v", tt.message, got, tt.want)
		}
	}
}

func TestReadbackWork(t *testing.T) {
	run := func(branch string) string {
		return `{"action":"completed","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"abc","head_branch":"` + branch + `","head_commit":{"message":"Merge pull request #4 from a/b"}}}`
	}
	tests := []struct {
		name, event, payload string
		want                 []work
	}{
		{"merged", "pull_request", `{"action":"closed","pull_request":{"number":3,"merged":true}}`, []work{readBack{PR: 3}}},
		{"closed unmerged", "pull_request", `{"action":"closed","pull_request":{"number":3,"merged":false}}`, nil},
		{"run on main", "workflow_run", run("main"), []work{readBack{SHA: "abc", Guesses: []int{4}}}},
		{"run on a branch", "workflow_run", run("work"), nil},
		{"run requested", "workflow_run", `{"action":"requested","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"abc","head_branch":"main"}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, readbackWork(routeOf(t, tt.event, installed(tt.payload))), workCmp); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzReadbackWork(f *testing.F) {
	f.Add("workflow_run", []byte(`{"action":"completed","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"a","head_branch":"main","head_commit":{"message":"x (#1)"}}}`))
	f.Add("pull_request", []byte(`{"action":"closed","pull_request":{"number":1,"merged":true}}`))
	f.Fuzz(func(t *testing.T, event string, raw []byte) {
		_, ws, err := families(defaultFamilies()).route(event, raw, testAppID)
		if err != nil {
			return
		}
		for _, r := range readbackWork(ws) {
			if rb := r.(readBack); (rb.PR <= 0 && rb.SHA == "") || !json.Valid(raw) {
				t.Fatalf("readback %+v from %q", rb, raw)
			}
		}
	})
}

func TestReadbackState(t *testing.T) {
	missing := refusals.Refusal{Token: "readback-missing:ci"}
	tests := []struct {
		name    string
		res     readback.Result
		extra   []refusals.Refusal
		want    checks.ReadbackState
		awaited []string
	}{
		{"verified", readback.Result{Verified: true}, nil, checks.ReadbackVerified, nil},
		{"verified but runs unreadable", readback.Result{Verified: true}, []refusals.Refusal{unreadable("403")}, checks.ReadbackWaiting, []string{"readable workflow runs"}},
		{"missing and running", readback.Result{Refusals: []refusals.Refusal{missing, {Token: "readback-not-complete:lint"}, {Token: "ci-not-complete:ci"}}}, nil, checks.ReadbackWaiting, []string{"ci", "lint"}},
		{"a failed run fails at once", readback.Result{Refusals: []refusals.Refusal{missing, {Token: "readback-failed:lint"}}}, nil, checks.ReadbackFailed, nil},
		{"changed head fails at once", readback.Result{Refusals: []refusals.Refusal{missing, {Token: "head-not-proven-unchanged"}}}, nil, checks.ReadbackFailed, nil},
		{"invalid config fails", readback.Result{Refusals: []refusals.Refusal{missing}}, []refusals.Refusal{{Token: tokenConfigInvalid}}, checks.ReadbackFailed, nil},
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
	runs := []readback.Run{{ID: 1, Event: "push"}, {ID: 2, Event: "pull_request"}, {ID: 3, Event: "workflow_dispatch"}, {ID: 4, Event: "schedule"}}
	var ids []int64
	for _, r := range pushRuns(runs) {
		ids = append(ids, r.ID)
	}
	if !cmp.Equal(ids, []int64{1, 3}) {
		t.Errorf("pushRuns kept %v, want [1 3]", ids)
	}
}
