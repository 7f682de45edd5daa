package app

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

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

func TestParseDeliveryTargets(t *testing.T) {
	tests := []struct {
		name  string
		event string
		body  []byte
		want  []target
	}{
		{"opened", "pull_request", payloadJSON(map[string]any{"action": "opened", "pull_request": map[string]any{"number": 5, "body": "Fixes #3"}}), []target{{PR: 5, Guesses: []int{3}}}},
		{"synchronize", "pull_request", payloadJSON(map[string]any{"action": "synchronize", "pull_request": map[string]any{"number": 5, "body": ""}}), []target{{PR: 5}}},
		{"two units: no guess", "pull_request", payloadJSON(map[string]any{"action": "edited", "pull_request": map[string]any{"number": 5, "body": "Fixes #3, fixes #4"}}), []target{{PR: 5}}},
		{"labeled: ignored", "pull_request", payloadJSON(map[string]any{"action": "labeled", "pull_request": map[string]any{"number": 5}}), nil},
		{"issue edited", "issues", payloadJSON(map[string]any{"action": "edited", "issue": map[string]any{"number": 3}}), []target{{AllOpen: true, Issue: 3}}},
		{"issue in milestone", "issues", payloadJSON(map[string]any{"action": "closed", "issue": map[string]any{"number": 3, "milestone": map[string]any{"number": 2}}}), []target{{AllOpen: true, Issue: 3, Milestones: []int{2}}}},
		{"issue demilestoned", "issues", payloadJSON(map[string]any{"action": "demilestoned", "issue": map[string]any{"number": 3, "milestone": nil}, "milestone": map[string]any{"number": 4}}), []target{{AllOpen: true, Issue: 3, Milestones: []int{4}}}},
		{"issue deleted", "issues", payloadJSON(map[string]any{"action": "deleted", "issue": map[string]any{"number": 3}}), []target{{AllOpen: true}}},
		{"issue on a PR", "issues", payloadJSON(map[string]any{"action": "edited", "issue": map[string]any{"number": 3, "pull_request": map[string]any{}}}), nil},
		{"milestone", "milestone", payloadJSON(map[string]any{"action": "edited", "milestone": map[string]any{"number": 1}}), []target{{AllOpen: true, Milestones: []int{1}}}},
		{"milestone deleted", "milestone", payloadJSON(map[string]any{"action": "deleted", "milestone": map[string]any{"number": 1}}), []target{{AllOpen: true}}},
		{"rerequested ours", "check_run", payloadJSON(map[string]any{"action": "rerequested", "check_run": map[string]any{"name": checks.NameWorkUnit, "app": map[string]any{"id": testAppID}, "pull_requests": []any{map[string]any{"number": 7}}}}), []target{{PR: 7}}},
		{"rerequested other app", "check_run", payloadJSON(map[string]any{"action": "rerequested", "check_run": map[string]any{"app": map[string]any{"id": 1}, "pull_requests": []any{map[string]any{"number": 7}}}}), nil},
		{"check run completed", "check_run", payloadJSON(map[string]any{"action": "completed", "check_run": map[string]any{"app": map[string]any{"id": testAppID}}}), nil},
		{"suite rerequested", "check_suite", payloadJSON(map[string]any{"action": "rerequested", "check_suite": map[string]any{"app": map[string]any{"id": testAppID}, "pull_requests": []any{map[string]any{"number": 8}, map[string]any{"number": 9}}}}), []target{{PR: 8}, {PR: 9}}},
		{"config pushed to default branch", "push", pushJSON("refs/heads/main", "modified", configPath), []target{{AllOpen: true}}},
		{"config removed", "push", pushJSON("refs/heads/main", "removed", configPath), []target{{AllOpen: true}}},
		{"config pushed elsewhere", "push", pushJSON("refs/heads/feature", "modified", configPath), nil},
		{"other file pushed", "push", pushJSON("refs/heads/main", "added", "README.md"), nil},
		{"push without file lists", "push", []byte(`{"ref":"refs/heads/main","installation":{"id":9},"repository":{"name":"app","owner":{"login":"acme"},"default_branch":"main"},"commits":[{"id":"x"}]}`), []target{{AllOpen: true}}},
		{"no installation", "pull_request", []byte(`{"action":"opened","pull_request":{"number":1}}`), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := parseDelivery(tt.event, tt.body, testAppID)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, j.Targets); diff != "" {
				t.Errorf("targets (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseDeliveryRejectsBadPayload(t *testing.T) {
	if _, err := parseDelivery("pull_request", []byte(`{"pull_request": 5}`), testAppID); err == nil {
		t.Error("a pull_request that is a number was accepted")
	}
}

func FuzzParseDelivery(f *testing.F) {
	f.Add("pull_request", string(payloadJSON(map[string]any{"action": "opened", "pull_request": map[string]any{"number": 5, "body": "Fixes #3"}})))
	f.Add("check_run", `{"action":"rerequested","installation":{"id":1},"repository":{"name":"a","owner":{"login":"b"}},"check_run":{"pull_requests":[{"number":-1}]}}`)
	f.Fuzz(func(t *testing.T, event, body string) {
		j, err := parseDelivery(event, []byte(body), testAppID)
		if err != nil {
			return
		}
		for _, tg := range j.Targets {
			if !tg.AllOpen && tg.PR <= 0 {
				t.Fatalf("target without a pull request: %+v", tg)
			}
		}
	})
}

func TestRiverLoggerKeepsOnlyWarnings(t *testing.T) {
	var buf strings.Builder
	l := riverLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	l.Info("chatter")
	l.With("k", "v").Debug("more chatter")
	l.With("k", "v").Warn("trouble")
	if got := buf.String(); strings.Contains(got, "chatter") || !strings.Contains(got, "trouble") || !strings.Contains(got, "component=river") {
		t.Errorf("log:\n%s", got)
	}
}
