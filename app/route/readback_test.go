package route

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadbackWork(t *testing.T) {
	run := func(branch string) string {
		return `{"action":"completed","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"abc","head_branch":"` + branch + `","head_commit":{"message":"Merge pull request #4 from a/b"}}}`
	}
	tests := []struct {
		name, event, payload string
		want                 []ReadBack
	}{
		{"merged", "pull_request", `{"action":"closed","pull_request":{"number":3,"merged":true}}`, []ReadBack{{PR: 3}}},
		{"closed unmerged", "pull_request", `{"action":"closed","pull_request":{"number":3,"merged":false}}`, nil},
		{"run on main", "workflow_run", run("main"), []ReadBack{{SHA: "abc", Guesses: []int{4}}}},
		{"run on a branch", "workflow_run", run("work"), nil},
		{"run requested", "workflow_run", `{"action":"requested","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"abc","head_branch":"main"}}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, only[ReadBack](routeOf(t, tt.event, installed(tt.payload)))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func FuzzReadbackWork(f *testing.F) {
	f.Add("workflow_run", []byte(`{"action":"completed","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"a","head_branch":"main","head_commit":{"message":"x (#1)"}}}`))
	f.Add("pull_request", []byte(`{"action":"closed","pull_request":{"number":1,"merged":true}}`))
	f.Fuzz(func(t *testing.T, event string, raw []byte) {
		_, ws, err := Defaults().Route(event, raw, testAppID)
		if err != nil {
			return
		}
		for _, rb := range only[ReadBack](ws) {
			if (rb.PR <= 0 && rb.SHA == "") || !json.Valid(raw) {
				t.Fatalf("readback %+v from %q", rb, raw)
			}
		}
	})
}
