package demo

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStepLine: one line per step with the progress, what happened and
// each check run's move; a refusal's reply follows, indented.
func TestStepLine(t *testing.T) {
	tests := []struct {
		name string
		st   Step
		want string
	}{
		{"changes", Step{N: 3, Title: "bob opens PR #3", Changes: []Change{
			{Name: "aepgate/gates", To: "success"}, {Name: "aepgate/merge", From: "failure", To: "failure", Title: "Not ready: audit"},
			{Name: "aepgate/audit", From: "failure", To: "success"}}},
			"[ 3/10 ███░░░░░░░] bob opens PR #3 ⇒ aepgate/gates –→success, aepgate/merge failure (\"Not ready: audit\"), aepgate/audit failure→success\n"},
		{"refusal", Step{N: 10, Title: "cody comments '/aep resume': refused", Refused: true, Detail: "aepgate replied: no\n\n- only an owner\n- third\n- fourth"},
			"[10/10 ██████████] cody comments '/aep resume': refused\n        aepgate replied: no\n        - only an owner\n        - third\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			r := &recorder{w: &world{o: Options{Progress: &b}}, total: 10}
			r.print(tt.st)
			if diff := cmp.Diff(tt.want, b.String()); diff != "" {
				t.Errorf("line (-want +got):\n%s", diff)
			}
		})
	}
}
