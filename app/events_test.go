package app

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
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
		want  []work
	}{
		{"opened", "pull_request", payloadJSON(map[string]any{"action": "opened", "pull_request": map[string]any{"number": 5, "body": "Fixes #3"}}), []work{judgePR{pr: 5, guesses: []int{3}}}},
		{"synchronize", "pull_request", payloadJSON(map[string]any{"action": "synchronize", "pull_request": map[string]any{"number": 5, "body": ""}}), []work{judgePR{pr: 5}}},
		{"two units: no guess", "pull_request", payloadJSON(map[string]any{"action": "edited", "pull_request": map[string]any{"number": 5, "body": "Fixes #3, fixes #4"}}), []work{judgePR{pr: 5}}},
		{"labeled: ignored", "pull_request", payloadJSON(map[string]any{"action": "labeled", "pull_request": map[string]any{"number": 5}}), nil},
		{"issue edited", "issues", payloadJSON(map[string]any{"action": "edited", "issue": map[string]any{"number": 3}}), []work{judgeOpen{issue: 3}}},
		{"issue in milestone", "issues", payloadJSON(map[string]any{"action": "closed", "issue": map[string]any{"number": 3, "milestone": map[string]any{"number": 2}}}), []work{judgeOpen{issue: 3, milestones: []int{2}}, judgeIncrements{milestones: []int{2}}}},
		{"issue demilestoned", "issues", payloadJSON(map[string]any{"action": "demilestoned", "issue": map[string]any{"number": 3, "milestone": nil}, "milestone": map[string]any{"number": 4}}), []work{judgeOpen{issue: 3, milestones: []int{4}}, judgeIncrements{milestones: []int{4}}}},
		{"issue deleted", "issues", payloadJSON(map[string]any{"action": "deleted", "issue": map[string]any{"number": 3}}), []work{judgeOpen{}}},
		{"issue on a PR", "issues", payloadJSON(map[string]any{"action": "edited", "issue": map[string]any{"number": 3, "pull_request": map[string]any{}}}), nil},
		{"milestone", "milestone", payloadJSON(map[string]any{"action": "edited", "milestone": map[string]any{"number": 1}}), []work{judgeOpen{milestones: []int{1}}, judgeIncrements{milestones: []int{1}}}},
		{"milestone deleted", "milestone", payloadJSON(map[string]any{"action": "deleted", "milestone": map[string]any{"number": 1}}), []work{judgeOpen{}}},
		{"rerequested ours", "check_run", payloadJSON(map[string]any{"action": "rerequested", "check_run": map[string]any{"name": checks.NameWorkUnit, "app": map[string]any{"id": testAppID}, "pull_requests": []any{map[string]any{"number": 7}}}}), []work{judgePR{pr: 7}}},
		{"rerequested other app", "check_run", payloadJSON(map[string]any{"action": "rerequested", "check_run": map[string]any{"app": map[string]any{"id": 1}, "pull_requests": []any{map[string]any{"number": 7}}}}), nil},
		{"check run completed", "check_run", payloadJSON(map[string]any{"action": "completed", "check_run": map[string]any{"app": map[string]any{"id": testAppID}}}), nil},
		{"suite rerequested", "check_suite", payloadJSON(map[string]any{"action": "rerequested", "check_suite": map[string]any{"app": map[string]any{"id": testAppID}, "pull_requests": []any{map[string]any{"number": 8}, map[string]any{"number": 9}}}}), []work{judgePR{pr: 8}, judgePR{pr: 9}}},
		{"config pushed to default branch", "push", pushJSON("refs/heads/main", "modified", verdict.ConfigPath), []work{judgeOpen{}}},
		{"config removed", "push", pushJSON("refs/heads/main", "removed", verdict.ConfigPath), []work{judgeOpen{}}},
		{"config pushed elsewhere", "push", pushJSON("refs/heads/feature", "modified", verdict.ConfigPath), nil},
		{"other file pushed", "push", pushJSON("refs/heads/main", "added", "README.md"), nil},
		{"push without file lists", "push", []byte(`{"ref":"refs/heads/main","installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"},"default_branch":"main"},"commits":[{"id":"x"}]}`), []work{judgeOpen{}}},
		{"no installation", "pull_request", []byte(`{"action":"opened","pull_request":{"number":1}}`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, routeOf(t, tt.event, tt.body), workCmp); diff != "" {
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
		if _, _, err := families(defaultFamilies()).route(tt.event, []byte(tt.body), testAppID); err == nil {
			t.Errorf("%s %s was accepted", tt.event, tt.body)
		}
	}
}

func FuzzRoute(f *testing.F) {
	f.Add("pull_request", string(payloadJSON(map[string]any{"action": "opened", "pull_request": map[string]any{"number": 5, "body": "Fixes #3"}})))
	f.Add("check_run", `{"action":"rerequested","installation":{"id":1},"repository":{"name":"a","owner":{"login":"b"}},"check_run":{"pull_requests":[{"number":-1}]}}`)
	f.Fuzz(func(t *testing.T, event, body string) {
		_, ws, err := families(defaultFamilies()).route(event, []byte(body), testAppID)
		if err != nil {
			return
		}
		for _, w := range ws {
			if j, ok := w.(judgePR); ok && j.pr <= 0 {
				t.Fatalf("work without a pull request: %+v", w)
			}
		}
	})
}
