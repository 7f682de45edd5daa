package pull_test

import (
	"encoding/json"
	"maps"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/deploy"
	"github.com/aepgate/aepgate/app/gates"
	"github.com/aepgate/aepgate/app/heldwork"
	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/release"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/google/go-cmp/cmp"
)

// families is the App's table of event families as the root lists them
// (app.Families): these tests route deliveries of every event.
func families() route.Table {
	return route.Table{pull.PullRequestFamily(), gates.ConversationFamily(), pull.ReviewFamily(), pull.ChecksFamily(),
		pull.MergeGroupFamily(), release.Family(), pull.IssuesFamily(), pull.PushFamily(), deploy.Family()}
}

// zeroSHA is what a push deleting a branch moves it to.
const zeroSHA = "0000000000000000000000000000000000000000"

func payloadJSON(v map[string]any) []byte {
	v["installation"] = map[string]any{"id": 9}
	repo := map[string]any{"name": "app", "owner": map[string]any{"login": "acme"}}
	if r, ok := v["repository"].(map[string]any); ok {
		maps.Copy(repo, r)
	}
	v["repository"] = repo
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
		want  []route.Work
	}{
		{"opened", "pull_request", payloadJSON(map[string]any{"action": "opened", "pull_request": map[string]any{"number": 5, "body": "Fixes #3"}}), []route.Work{pull.RecordAttempt{PR: 5, Unit: 3, Open: true}, pull.JudgePR{PR: 5, Guesses: []int{3}}}},
		{"synchronize", "pull_request", payloadJSON(map[string]any{"action": "synchronize", "pull_request": map[string]any{"number": 5, "body": ""}}), []route.Work{pull.RecordAttempt{PR: 5, Open: true}, pull.JudgePR{PR: 5}}},
		{"two units: no guess", "pull_request", payloadJSON(map[string]any{"action": "edited", "pull_request": map[string]any{"number": 5, "body": "Fixes #3, fixes #4"}}), []route.Work{pull.RecordAttempt{PR: 5, Open: true}, pull.JudgePR{PR: 5}}},
		{"edited while closed", "pull_request", payloadJSON(map[string]any{"action": "edited", "pull_request": map[string]any{"number": 5, "body": "Work-unit: #3", "state": "closed"}}),
			[]route.Work{pull.RecordAttempt{PR: 5, Unit: 3}, pull.JudgePR{PR: 5, Guesses: []int{3}}}},
		{"closed", "pull_request", payloadJSON(map[string]any{"action": "closed", "pull_request": map[string]any{"number": 5, "body": "Work-unit: #3", "state": "closed"}}),
			[]route.Work{pull.RecordAttempt{PR: 5, Unit: 3}, pull.JudgeOpen{Issue: 3}}},
		{"labeled: ignored", "pull_request", payloadJSON(map[string]any{"action": "labeled", "pull_request": map[string]any{"number": 5}}), nil},
		{"synchronize by a sender to a unit's attempt", "pull_request", payloadJSON(map[string]any{"action": "synchronize", "sender": map[string]any{"login": "ann"},
			"pull_request": map[string]any{"number": 5, "body": "Work-unit: #3", "head": map[string]any{"sha": "abc"}}}),
			[]route.Work{pull.RecordAttempt{PR: 5, Unit: 3, Open: true}, pull.RecordPush{SHA: "abc", Login: "ann"}, heldwork.HeldWork{Kind: "push", Unit: 3, Thread: 5, By: "ann", Head: "abc"}, pull.JudgePR{PR: 5, Guesses: []int{3}}}},
		{"opened is no held push", "pull_request", payloadJSON(map[string]any{"action": "opened", "sender": map[string]any{"login": "ann"},
			"pull_request": map[string]any{"number": 5, "body": "Work-unit: #3", "head": map[string]any{"sha": "abc"}}}),
			[]route.Work{pull.RecordAttempt{PR: 5, Unit: 3, Open: true}, pull.RecordPush{SHA: "abc", Login: "ann"}, pull.JudgePR{PR: 5, Guesses: []int{3}}}},
		{"issue assigned", "issues", payloadJSON(map[string]any{"action": "assigned", "sender": map[string]any{"login": "carl"}, "assignee": map[string]any{"login": "robo"},
			"issue": map[string]any{"number": 3}}), []route.Work{pull.JudgeOpen{Issue: 3}, heldwork.HeldWork{Kind: "assignment", Unit: 3, Thread: 3, By: "carl", Assignee: "robo"}}},
		{"issue edited", "issues", payloadJSON(map[string]any{"action": "edited", "issue": map[string]any{"number": 3}}), []route.Work{pull.JudgeOpen{Issue: 3}}},
		{"issue in milestone", "issues", payloadJSON(map[string]any{"action": "closed", "issue": map[string]any{"number": 3, "milestone": map[string]any{"number": 2}}}), []route.Work{pull.JudgeOpen{Issue: 3, Milestones: []int{2}}, increment.JudgeIncrements{Milestones: []int{2}}}},
		{"issue demilestoned", "issues", payloadJSON(map[string]any{"action": "demilestoned", "issue": map[string]any{"number": 3, "milestone": nil}, "milestone": map[string]any{"number": 4}}), []route.Work{pull.JudgeOpen{Issue: 3, Milestones: []int{4}}, increment.JudgeIncrements{Milestones: []int{4}}}},
		{"issue deleted", "issues", payloadJSON(map[string]any{"action": "deleted", "issue": map[string]any{"number": 3}}), []route.Work{pull.JudgeOpen{}}},
		{"issue on a PR", "issues", payloadJSON(map[string]any{"action": "edited", "issue": map[string]any{"number": 3, "pull_request": map[string]any{}}}), nil},
		{"milestone", "milestone", payloadJSON(map[string]any{"action": "edited", "milestone": map[string]any{"number": 1}}), []route.Work{pull.JudgeOpen{Milestones: []int{1}}, increment.JudgeIncrements{Milestones: []int{1}}}},
		{"milestone deleted", "milestone", payloadJSON(map[string]any{"action": "deleted", "milestone": map[string]any{"number": 1}}), []route.Work{pull.JudgeOpen{}}},
		{"rerequested ours", "check_run", payloadJSON(map[string]any{"action": "rerequested", "check_run": map[string]any{"name": checks.NameWorkUnit, "app": map[string]any{"id": testAppID}, "pull_requests": []any{map[string]any{"number": 7}}}}), []route.Work{pull.JudgePR{PR: 7}}},
		{"rerequested other app", "check_run", payloadJSON(map[string]any{"action": "rerequested", "check_run": map[string]any{"app": map[string]any{"id": 1}, "pull_requests": []any{map[string]any{"number": 7}}}}), nil},
		{"check run completed", "check_run", payloadJSON(map[string]any{"action": "completed", "check_run": map[string]any{"app": map[string]any{"id": testAppID}}}), nil},
		{"suite rerequested", "check_suite", payloadJSON(map[string]any{"action": "rerequested", "check_suite": map[string]any{"app": map[string]any{"id": testAppID}, "pull_requests": []any{map[string]any{"number": 8}, map[string]any{"number": 9}}}}), []route.Work{pull.JudgePR{PR: 8}, pull.JudgePR{PR: 9}}},
		{"config pushed to default branch", "push", pushJSON("refs/heads/main", "modified", verdict.ConfigPath), []route.Work{pull.JudgeOpen{}}},
		{"config removed", "push", pushJSON("refs/heads/main", "removed", verdict.ConfigPath), []route.Work{pull.JudgeOpen{}}},
		{"config pushed elsewhere", "push", pushJSON("refs/heads/feature", "modified", verdict.ConfigPath), nil},
		{"other file pushed", "push", pushJSON("refs/heads/main", "added", "README.md"), nil},
		{"push without file lists", "push", []byte(`{"ref":"refs/heads/main","installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"},"default_branch":"main"},"commits":[{"id":"x"}]}`), []route.Work{pull.JudgeOpen{}}},
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
		if _, _, err := families().Route(tt.event, []byte(tt.body), testAppID); err == nil {
			t.Errorf("%s %s was accepted", tt.event, tt.body)
		}
	}
}

func FuzzRoute(f *testing.F) {
	f.Add("pull_request", string(payloadJSON(map[string]any{"action": "opened", "pull_request": map[string]any{"number": 5, "body": "Fixes #3"}})))
	f.Add("check_run", `{"action":"rerequested","installation":{"id":1},"repository":{"name":"a","owner":{"login":"b"}},"check_run":{"pull_requests":[{"number":-1}]}}`)
	f.Fuzz(func(t *testing.T, event, body string) {
		_, ws, err := families().Route(event, []byte(body), testAppID)
		if err != nil {
			return
		}
		for _, w := range ws {
			if j, ok := w.(pull.JudgePR); ok && j.PR <= 0 {
				t.Fatalf("work without a pull request: %+v", w)
			}
		}
	})
}

// routeOf is what the App's family table makes of a delivery.
func routeOf(t testing.TB, event string, body []byte) []route.Work {
	t.Helper()
	_, ws, err := families().Route(event, body, testAppID)
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
func only[T route.Work](ws []route.Work) []T {
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
	for _, f := range families() {
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
		_, ws, err := families().Route(w.Event, w.Body, testAppID)
		if err != nil {
			t.Errorf("%s: %v", w.Name, err)
		}
		if w.Event == "pull_request" && w.Action == "opened" && toInstallation(t, w) && len(only[pull.JudgePR](ws)) != 1 {
			t.Errorf("%s: %d pull requests judged, want 1: %v", w.Name, len(only[pull.JudgePR](ws)), ws)
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

const testAppID = 4242

// TestPushOf: which deliveries say who moved a branch to which SHA, and
// when GitHub says it was pushed (pull_request's updated_at, push's
// repository.pushed_at in Unix seconds; none stated, none kept).
func TestPushOf(t *testing.T) {
	sha := "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	at := time.Date(2026, 12, 1, 10, 5, 0, 0, time.UTC)
	tests := []struct {
		name, event string
		body        map[string]any
		want        *pull.RecordPush
	}{
		{"synchronize", "pull_request", map[string]any{"action": "synchronize", "sender": map[string]any{"login": "mallory"},
			"pull_request": map[string]any{"number": 5, "updated_at": "2026-12-01T10:05:00Z", "head": map[string]any{"sha": sha}}}, &pull.RecordPush{sha, "mallory", at}},
		{"opened", "pull_request", map[string]any{"action": "opened", "sender": map[string]any{"login": "bob"},
			"pull_request": map[string]any{"number": 5, "head": map[string]any{"sha": sha}}}, &pull.RecordPush{sha, "bob", time.Time{}}},
		{"edited moves nothing", "pull_request", map[string]any{"action": "edited", "sender": map[string]any{"login": "bob"},
			"pull_request": map[string]any{"number": 5, "head": map[string]any{"sha": sha}}}, nil},
		{"push to a branch", "push", map[string]any{"ref": "refs/heads/feature", "after": sha, "sender": map[string]any{"login": "mallory"},
			"repository": map[string]any{"pushed_at": at.Unix()}}, &pull.RecordPush{sha, "mallory", at}},
		{"push, pushed_at spelled as a time", "push", map[string]any{"ref": "refs/heads/feature", "after": sha, "sender": map[string]any{"login": "mallory"},
			"repository": map[string]any{"pushed_at": "2026-12-01T10:05:00Z"}}, &pull.RecordPush{sha, "mallory", at}},
		{"push to a tag", "push", map[string]any{"ref": "refs/tags/v1", "after": sha, "sender": map[string]any{"login": "mallory"}}, nil},
		{"branch deleted", "push", map[string]any{"ref": "refs/heads/feature", "after": zeroSHA, "sender": map[string]any{"login": "mallory"}}, nil},
		{"no sender", "push", map[string]any{"ref": "refs/heads/feature", "after": sha}, nil},
		{"a review", "pull_request_review", map[string]any{"action": "submitted", "sender": map[string]any{"login": "carol"},
			"pull_request": map[string]any{"number": 5, "head": map[string]any{"sha": sha}}, "review": map[string]any{"id": 1}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, pushIn(routeOf(t, tt.event, payloadJSON(tt.body)))); diff != "" {
				t.Errorf("push (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPushOfFixtures: GitHub's recorded synchronize and branch-push
// payloads name their sender and head, and GitHub's time of the push.
func TestPushOfFixtures(t *testing.T) {
	for _, w := range fixtures.Webhooks(t) {
		var p struct {
			Ref         string `json:"ref"`
			After       string `json:"after"`
			PullRequest *struct {
				Head struct {
					SHA string `json:"sha"`
				} `json:"head"`
			} `json:"pull_request"`
			Sender *struct {
				Login string `json:"login"`
			} `json:"sender"`
		}
		if err := json.Unmarshal(w.Body, &p); err != nil {
			t.Fatalf("%s: %v", w.Name, err)
		}
		_, ws, err := families().Route(w.Event, w.Body, testAppID)
		if err != nil {
			t.Fatalf("%s: %v", w.Name, err)
		}
		got := pushIn(ws)
		switch {
		case !toInstallation(t, w):
		case w.Event == "pull_request" && w.Action == "synchronize":
			if got == nil || got.SHA != p.PullRequest.Head.SHA || got.Login != p.Sender.Login || got.At.IsZero() {
				t.Errorf("%s: push %+v", w.Name, got)
			}
		case w.Event == "push" && p.After != zeroSHA && len(p.Ref) > 11 && p.Ref[:11] == "refs/heads/":
			if got == nil || got.SHA != p.After || got.At.IsZero() {
				t.Errorf("%s: push %+v", w.Name, got)
			}
		}
	}
}

// pushIn is the branch move recorded among ws, nil for none.
func pushIn(ws []route.Work) *pull.RecordPush {
	for _, w := range ws {
		if p, ok := w.(pull.RecordPush); ok {
			return (*pull.RecordPush)(&p)
		}
	}
	return nil
}

// comment is an issue_comment payload on issue 5 (a pull request when pr).
func comment(action string, pr bool, body string) string {
	p := ""
	if pr {
		p = `,"pull_request":{"url":"x"}`
	}
	return `{"action":"` + action + `","issue":{"number":5` + p + `},"comment":{"id":9,"body":` + strconvQuote(body) + `,"user":{"login":"olivia","type":"User"},"created_at":"2026-01-01T00:00:00Z"}}`
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestReadbackWork(t *testing.T) {
	run := func(branch string) string {
		return `{"action":"completed","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"abc","head_branch":"` + branch + `","head_commit":{"message":"Merge pull request #4 from a/b"}}}`
	}
	tests := []struct {
		name, event, payload string
		want                 []readback.ReadBack
	}{
		{"merged", "pull_request", `{"action":"closed","pull_request":{"number":3,"merged":true}}`, []readback.ReadBack{{PR: 3}}},
		{"closed unmerged", "pull_request", `{"action":"closed","pull_request":{"number":3,"merged":false}}`, nil},
		{"run on main", "workflow_run", run("main"), []readback.ReadBack{{SHA: "abc", Guesses: []int{4}}}},
		{"run on a branch", "workflow_run", run("work"), nil},
		{"accept-merge on a pull request", "issue_comment", comment("created", true, "/aep accept-merge abc"), []readback.ReadBack{{PR: 5}}},
		{"accept-merge on an issue", "issue_comment", comment("created", false, "/aep accept-merge abc"), nil},
		{"accept-merge edited in", "issue_comment", comment("edited", true, "/aep accept-merge abc"), nil},
		{"another command on a pull request", "issue_comment", comment("created", true, "/aep recheck"), nil},
		{"run requested", "workflow_run", `{"action":"requested","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"abc","head_branch":"main"}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, only[readback.ReadBack](routeOf(t, tt.event, installed(tt.payload)))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzReadbackWork(f *testing.F) {
	f.Add("workflow_run", []byte(`{"action":"completed","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"a","head_branch":"main","head_commit":{"message":"x (#1)"}}}`))
	f.Add("pull_request", []byte(`{"action":"closed","pull_request":{"number":1,"merged":true}}`))
	f.Fuzz(func(t *testing.T, event string, raw []byte) {
		_, ws, err := families().Route(event, raw, testAppID)
		if err != nil {
			return
		}
		for _, rb := range only[readback.ReadBack](ws) {
			if (rb.PR <= 0 && rb.SHA == "") || !json.Valid(raw) {
				t.Fatalf("readback %+v from %q", rb, raw)
			}
		}
	})
}
