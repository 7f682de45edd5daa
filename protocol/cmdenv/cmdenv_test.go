package cmdenv

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScrub(t *testing.T) {
	tests := []struct {
		name    string
		in, out []string
	}{
		{"nothing to remove", []string{"PATH=/bin", "HOME=/h"}, []string{"PATH=/bin", "HOME=/h"}},
		{"the action's token", []string{"INPUT_TOKEN=ghs_x", "INPUT_DIR=docs/*"}, []string{"INPUT_DIR=docs/*"}},
		{"job token", []string{"GITHUB_TOKEN=ghs_x", "GITHUB_SHA=abc"}, []string{"GITHUB_SHA=abc"}},
		{"runner credentials", []string{"ACTIONS_RUNTIME_TOKEN=a", "ACTIONS_ID_TOKEN_REQUEST_TOKEN=b",
			"ACTIONS_ID_TOKEN_REQUEST_URL=c", "ACTIONS_CACHE_URL=d", "PATH=/bin"}, []string{"PATH=/bin"}},
		{"github cli", []string{"GH_TOKEN=a", "GH_ENTERPRISE_TOKEN=b", "GITHUB_ENTERPRISE_TOKEN=c", "GHOST=keep"}, []string{"GHOST=keep"}},
		{"case folded as on windows", []string{"gh_token=a", "Github_Token=b", "input_token=c"}, []string{}},
		{"value holding a name", []string{"NOTE=GITHUB_TOKEN=x"}, []string{"NOTE=GITHUB_TOKEN=x"}},
		{"similar names kept", []string{"MY_GITHUB_TOKEN_PATH=/p", "INPUT_TOKENS=1", "XACTIONS_=1"},
			[]string{"MY_GITHUB_TOKEN_PATH=/p", "INPUT_TOKENS=1", "XACTIONS_=1"}},
		{"empty", nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Scrub(tt.in)
			if got == nil {
				t.Fatal("Scrub returned nil: exec.Cmd would inherit the whole environment")
			}
			if diff := cmp.Diff(tt.out, got); diff != "" {
				t.Errorf("Scrub (-want +got):\n%s", diff)
			}
		})
	}
}
