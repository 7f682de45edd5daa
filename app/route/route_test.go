package route

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/aepgate/aepgate/app/release"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/google/go-cmp/cmp"
)

func payloadJSON(v map[string]any) []byte {
	v["installation"] = map[string]any{"id": 9}
	v["repository"] = map[string]any{"name": "app", "owner": map[string]any{"login": "acme"}}
	b, _ := json.Marshal(v)
	return b
}

func pushJSON(ref, change, file string) []byte {
	b, _ := json.Marshal(map[string]any{"ref": ref, "installation": map[string]any{"id": 9},
		"repository": map[string]any{"name": "app", "owner": map[string]any{"login": "acme"}, "default_branch": "main"},
		"commits":    []any{map[string]any{"added": []string{}, "modified": []string{}, "removed": []string{}, change: []string{file}}}})
	return b
}

func TestRouteWork(t *testing.T) {
	tests := []struct {
		name  string
		event string
		body  []byte
		want  []Work
	}{
		{"opened", "pull_request", payloadJSON(map[string]any{"action": "opened", "pull_request": map[string]any{"number": 5, "body": "Fixes #3"}}), []Work{JudgePR{PR: 5, Guesses: []int{3}}}},
		{"synchronize", "pull_request", payloadJSON(map[string]any{"action": "synchronize", "pull_request": map[string]any{"number": 5, "body": ""}}), []Work{JudgePR{PR: 5}}},
		{"two units: no guess", "pull_request", payloadJSON(map[string]any{"action": "edited", "pull_request": map[string]any{"number": 5, "body": "Fixes #3, fixes #4"}}), []Work{JudgePR{PR: 5}}},
		{"labeled: ignored", "pull_request", payloadJSON(map[string]any{"action": "labeled", "pull_request": map[string]any{"number": 5}}), nil},
		{"synchronize by a sender to a unit's attempt", "pull_request", payloadJSON(map[string]any{"action": "synchronize", "sender": map[string]any{"login": "ann"},
			"pull_request": map[string]any{"number": 5, "body": "Work-unit: #3", "head": map[string]any{"sha": "abc"}}}),
			[]Work{RecordPush{SHA: "abc", Login: "ann"}, HeldWork{Kind: "push", Unit: 3, Thread: 5, By: "ann", Head: "abc"}, JudgePR{PR: 5, Guesses: []int{3}}}},
		{"opened is no held push", "pull_request", payloadJSON(map[string]any{"action": "opened", "sender": map[string]any{"login": "ann"},
			"pull_request": map[string]any{"number": 5, "body": "Work-unit: #3", "head": map[string]any{"sha": "abc"}}}),
			[]Work{RecordPush{SHA: "abc", Login: "ann"}, JudgePR{PR: 5, Guesses: []int{3}}}},
		{"issue assigned", "issues", payloadJSON(map[string]any{"action": "assigned", "sender": map[string]any{"login": "carl"}, "assignee": map[string]any{"login": "robo"},
			"issue": map[string]any{"number": 3}}), []Work{JudgeOpen{Issue: 3}, HeldWork{Kind: "assignment", Unit: 3, Thread: 3, By: "carl", Assignee: "robo"}}},
		{"issue edited", "issues", payloadJSON(map[string]any{"action": "edited", "issue": map[string]any{"number": 3}}), []Work{JudgeOpen{Issue: 3}}},
		{"issue in milestone", "issues", payloadJSON(map[string]any{"action": "closed", "issue": map[string]any{"number": 3, "milestone": map[string]any{"number": 2}}}), []Work{JudgeOpen{Issue: 3, Milestones: []int{2}}, JudgeIncrements{Milestones: []int{2}}}},
		{"issue demilestoned", "issues", payloadJSON(map[string]any{"action": "demilestoned", "issue": map[string]any{"number": 3, "milestone": nil}, "milestone": map[string]any{"number": 4}}), []Work{JudgeOpen{Issue: 3, Milestones: []int{4}}, JudgeIncrements{Milestones: []int{4}}}},
		{"issue deleted", "issues", payloadJSON(map[string]any{"action": "deleted", "issue": map[string]any{"number": 3}}), []Work{JudgeOpen{}}},
		{"issue on a PR", "issues", payloadJSON(map[string]any{"action": "edited", "issue": map[string]any{"number": 3, "pull_request": map[string]any{}}}), nil},
		{"milestone", "milestone", payloadJSON(map[string]any{"action": "edited", "milestone": map[string]any{"number": 1}}), []Work{JudgeOpen{Milestones: []int{1}}, JudgeIncrements{Milestones: []int{1}}}},
		{"milestone deleted", "milestone", payloadJSON(map[string]any{"action": "deleted", "milestone": map[string]any{"number": 1}}), []Work{JudgeOpen{}}},
		{"rerequested ours", "check_run", payloadJSON(map[string]any{"action": "rerequested", "check_run": map[string]any{"name": checks.NameWorkUnit, "app": map[string]any{"id": testAppID}, "pull_requests": []any{map[string]any{"number": 7}}}}), []Work{JudgePR{PR: 7}}},
		{"rerequested other app", "check_run", payloadJSON(map[string]any{"action": "rerequested", "check_run": map[string]any{"app": map[string]any{"id": 1}, "pull_requests": []any{map[string]any{"number": 7}}}}), nil},
		{"check run completed", "check_run", payloadJSON(map[string]any{"action": "completed", "check_run": map[string]any{"app": map[string]any{"id": testAppID}}}), nil},
		{"suite rerequested", "check_suite", payloadJSON(map[string]any{"action": "rerequested", "check_suite": map[string]any{"app": map[string]any{"id": testAppID}, "pull_requests": []any{map[string]any{"number": 8}, map[string]any{"number": 9}}}}), []Work{JudgePR{PR: 8}, JudgePR{PR: 9}}},
		{"config pushed to default branch", "push", pushJSON("refs/heads/main", "modified", verdict.ConfigPath), []Work{JudgeOpen{}}},
		{"config removed", "push", pushJSON("refs/heads/main", "removed", verdict.ConfigPath), []Work{JudgeOpen{}}},
		{"config pushed elsewhere", "push", pushJSON("refs/heads/feature", "modified", verdict.ConfigPath), nil},
		{"other file pushed", "push", pushJSON("refs/heads/main", "added", "README.md"), nil},
		{"push without file lists", "push", []byte(`{"ref":"refs/heads/main","installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"},"default_branch":"main"},"commits":[{"id":"x"}]}`), []Work{JudgeOpen{}}},
		{"no installation", "pull_request", []byte(`{"action":"opened","pull_request":{"number":1}}`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, routeOf(t, tt.event, tt.body)); diff != "" {
				t.Errorf("work (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRouteRejectsBadPayload(t *testing.T) {
	for _, tt := range []struct{ event, body string }{
		{"pull_request", `{"pull_request": 5}`},
		{"workflow_run", `{`},
		{"issue_comment", `{"installation":{"id":1},"repository":{"name":"a","owner":{"login":"o"}},"action":"created","comment":{"id":"x"}}`},
	} {
		if _, _, err := Defaults().Route(tt.event, []byte(tt.body), testAppID); err == nil {
			t.Errorf("%s %s was accepted", tt.event, tt.body)
		}
	}
}

func FuzzRoute(f *testing.F) {
	f.Add("pull_request", string(payloadJSON(map[string]any{"action": "opened", "pull_request": map[string]any{"number": 5, "body": "Fixes #3"}})))
	f.Add("check_run", `{"action":"rerequested","installation":{"id":1},"repository":{"name":"a","owner":{"login":"b"}},"check_run":{"pull_requests":[{"number":-1}]}}`)
	f.Fuzz(func(t *testing.T, event, body string) {
		_, ws, err := Defaults().Route(event, []byte(body), testAppID)
		if err != nil {
			return
		}
		for _, w := range ws {
			if j, ok := w.(JudgePR); ok && j.PR <= 0 {
				t.Fatalf("work without a pull request: %+v", w)
			}
		}
	})
}

// routeOf is what the App's family table makes of a delivery.
func routeOf(t testing.TB, event string, body []byte) []Work {
	t.Helper()
	_, ws, err := Defaults().Route(event, body, testAppID)
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

// installed gives a bare payload an installation and a repository.
func installed(payload string) []byte {
	if payload == "{" {
		return []byte(payload)
	}
	return []byte(`{"installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"},"default_branch":"main"},` + payload[1:])
}

// only is the work of kind T among ws.
func only[T Work](ws []Work) []T {
	var out []T
	for _, w := range ws {
		if j, ok := w.(T); ok {
			out = append(out, j)
		}
	}
	return out
}

// TestFamiliesAreDisjoint: each event belongs to exactly one family, so
// the table alone decides what a delivery asks for.
func TestFamiliesAreDisjoint(t *testing.T) {
	seen := map[string]string{}
	for _, f := range Defaults() {
		if f.View == nil || f.Derive == nil || len(f.Events) == 0 {
			t.Errorf("family %q lacks a view, work or events", f.Name)
		}
		for e := range f.Events {
			if other, dup := seen[e]; dup {
				t.Errorf("event %s in families %q and %q", e, other, f.Name)
			}
			seen[e] = f.Name
		}
	}
}

func TestParseEveryFixture(t *testing.T) {
	for _, w := range fixtures.Webhooks(t) {
		_, ws, err := Defaults().Route(w.Event, w.Body, testAppID)
		if err != nil {
			t.Errorf("%s: %v", w.Name, err)
		}
		if w.Event == "pull_request" && w.Action == "opened" && toInstallation(t, w) && len(only[JudgePR](ws)) != 1 {
			t.Errorf("%s: %d pull requests judged, want 1: %v", w.Name, len(only[JudgePR](ws)), ws)
		}
	}
}

// toInstallation reports whether w was delivered to an App installation
// (the npm fixtures also hold older recordings made without one).
func toInstallation(t *testing.T, w fixtures.Webhook) bool {
	var p struct {
		Installation json.RawMessage `json:"installation"`
	}
	if err := json.Unmarshal(w.Body, &p); err != nil {
		t.Fatalf("%s: %v", w.Name, err)
	}
	return p.Installation != nil
}

func TestParseReleaseDeliveries(t *testing.T) {
	tests := []struct {
		action string
		want   []Work
	}{
		{"published", []Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"released", []Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"prereleased", []Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"edited", []Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"unpublished", []Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"deleted", []Work{JudgeRelease{Tag: "v2.0.0"}}},
		{"created", nil}, // a draft has no tag yet; publishing sends published
	}
	for _, tt := range tests {
		t.Run(tt.action, func(t *testing.T) {
			body := fmt.Sprintf(`{"action":%q,"release":{"tag_name":"v2.0.0"},"installation":{"id":9},"repository":{"name":"r","owner":{"login":"o"}}}`, tt.action)
			if diff := cmp.Diff(tt.want, routeOf(t, "release", []byte(body))); diff != "" {
				t.Errorf("work (-want +got):\n%s", diff)
			}
		})
	}
	for _, w := range fixtures.Webhooks(t) {
		if _, ws, err := Defaults().Route(w.Event, w.Body, testAppID); w.Event == "release" && toInstallation(t, w) && err == nil &&
			(len(ws) == 1) != slices.Contains(release.Actions, w.Action) {
			t.Errorf("%s: work %v", w.Name, ws)
		}
	}
}

const testAppID = 4242
