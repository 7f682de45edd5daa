package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGateEval(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		blockers []string
		stderr   string
	}{
		{"HOLD blocks spawn", []string{"gates-hold.json", "--action", "spawn"}, 4, []string{"gate-open:project-hold"}, "blocked: gate-open:project-hold"},
		{"HOLD blocks merge of the gated unit twice", []string{"gates-hold.json", "--action", "merge", "--work-unit", "7"}, 4, []string{"gate-open:release-1", "gate-open:project-hold"}, ""},
		{"GO does not lift HOLD", []string{"gates-hold-go.json", "--action", "spawn"}, 4, []string{"gate-open:project-hold"}, "hold-needs-exact-resume"},
		{"resumed and resolved", []string{"gates-resumed.json", "--action", "merge", "--work-unit", "7", "--external-effect", "publish-release"}, 0, []string{}, ""},
		{"coordinator cannot resolve", []string{"gates-coordinator-resolve.json", "--action", "merge", "--work-unit", "7"}, 4, []string{"gate-open:release-1"}, "authority-not-direct-owner"},
		{"malformed event blocks", []string{"gates-malformed.json", "--action", "close"}, 4, []string{"gate-event-malformed:1"}, "unknown field"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"gate", "eval", "testdata/evidence/" + tt.args[0]}, tt.args[1:]...)
			code, out, errOut := runCLI(t, args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\n%s", code, tt.wantCode, errOut)
			}
			var got struct {
				Allowed  bool `json:"allowed"`
				Blockers []struct {
					Token string `json:"token"`
				} `json:"blockers"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("stdout: %v\n%s", err, out)
			}
			toks := []string{}
			for _, b := range got.Blockers {
				toks = append(toks, b.Token)
			}
			if diff := cmp.Diff(tt.blockers, toks); diff != "" {
				t.Errorf("blockers (-want +got):\n%s", diff)
			}
			if !strings.Contains(errOut, tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, errOut)
			}
		})
	}
}

func TestGateEvalBadInput(t *testing.T) {
	for name, args := range map[string][]string{
		"no action":      {"gate", "eval", "testdata/evidence/gates-hold.json"},
		"unknown action": {"gate", "eval", "testdata/evidence/gates-hold.json", "--action", "ship"},
		"missing file":   {"gate", "eval", "testdata/evidence/nope.json", "--action", "spawn"},
		"not events":     {"gate", "eval", "testdata/evidence/certificate-valid.json", "--action", "spawn"},
	} {
		if code, _, errOut := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "error:") {
			t.Errorf("%s: exit %d, stderr %q", name, code, errOut)
		}
	}
}
