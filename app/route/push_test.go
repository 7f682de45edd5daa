package route

import (
	"encoding/json"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/google/go-cmp/cmp"
)

// TestPushOf: which deliveries say who moved a branch to which SHA.
func TestPushOf(t *testing.T) {
	sha := "ec26c3e57ca3a959ca5aad62de7213c562f8c821"
	tests := []struct {
		name, event string
		body        map[string]any
		want        *RecordPush
	}{
		{"synchronize", "pull_request", map[string]any{"action": "synchronize", "sender": map[string]any{"login": "mallory"},
			"pull_request": map[string]any{"number": 5, "head": map[string]any{"sha": sha}}}, &RecordPush{sha, "mallory"}},
		{"opened", "pull_request", map[string]any{"action": "opened", "sender": map[string]any{"login": "bob"},
			"pull_request": map[string]any{"number": 5, "head": map[string]any{"sha": sha}}}, &RecordPush{sha, "bob"}},
		{"edited moves nothing", "pull_request", map[string]any{"action": "edited", "sender": map[string]any{"login": "bob"},
			"pull_request": map[string]any{"number": 5, "head": map[string]any{"sha": sha}}}, nil},
		{"push to a branch", "push", map[string]any{"ref": "refs/heads/feature", "after": sha, "sender": map[string]any{"login": "mallory"}}, &RecordPush{sha, "mallory"}},
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
// payloads name their sender and head.
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
		_, ws, err := Defaults().Route(w.Event, w.Body, testAppID)
		if err != nil {
			t.Fatalf("%s: %v", w.Name, err)
		}
		got := pushIn(ws)
		switch {
		case !toInstallation(t, w):
		case w.Event == "pull_request" && w.Action == "synchronize":
			if got == nil || got.SHA != p.PullRequest.Head.SHA || got.Login != p.Sender.Login {
				t.Errorf("%s: push %+v", w.Name, got)
			}
		case w.Event == "push" && p.After != zeroSHA && len(p.Ref) > 11 && p.Ref[:11] == "refs/heads/":
			if got == nil || got.SHA != p.After {
				t.Errorf("%s: push %+v", w.Name, got)
			}
		}
	}
}

// pushIn is the branch move recorded among ws, nil for none.
func pushIn(ws []Work) *RecordPush {
	for _, w := range ws {
		if p, ok := w.(RecordPush); ok {
			return (*RecordPush)(&p)
		}
	}
	return nil
}
