package route

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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
		want                 []ReadBack
	}{
		{"merged", "pull_request", `{"action":"closed","pull_request":{"number":3,"merged":true}}`, []ReadBack{{PR: 3}}},
		{"closed unmerged", "pull_request", `{"action":"closed","pull_request":{"number":3,"merged":false}}`, nil},
		{"run on main", "workflow_run", run("main"), []ReadBack{{SHA: "abc", Guesses: []int{4}}}},
		{"run on a branch", "workflow_run", run("work"), nil},
		{"accept-merge on a pull request", "issue_comment", comment("created", true, "/aep accept-merge abc"), []ReadBack{{PR: 5}}},
		{"accept-merge on an issue", "issue_comment", comment("created", false, "/aep accept-merge abc"), nil},
		{"accept-merge edited in", "issue_comment", comment("edited", true, "/aep accept-merge abc"), nil},
		{"another command on a pull request", "issue_comment", comment("created", true, "/aep recheck"), nil},
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
