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
		{"the job's files", []string{"GITHUB_ENV=/e", "GITHUB_PATH=/p", "GITHUB_OUTPUT=/o", "GITHUB_STATE=/s",
			"GITHUB_STEP_SUMMARY=/m", "GITHUB_WORKSPACE=/w"}, []string{"GITHUB_WORKSPACE=/w"}},
		{"empty", nil, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Scrub(tt.in)
			if got == nil {
				t.Fatal("Scrub returned nil: exec.Cmd would inherit the whole environment")
			}
			want := append(tt.out, "GIT_CONFIG_KEY_0=http.https://github.com/.extraheader", "GIT_CONFIG_VALUE_0=", "GIT_CONFIG_COUNT=1")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Scrub (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWithoutGitHeaders(t *testing.T) {
	const gh, ghes = "http.https://github.com/.extraheader", "http.https://ghes.example/.extraheader"
	tests := []struct {
		name    string
		in, out []string
	}{
		{"none set", []string{"PATH=/bin"},
			[]string{"PATH=/bin", "GIT_CONFIG_KEY_0=" + gh, "GIT_CONFIG_VALUE_0=", "GIT_CONFIG_COUNT=1"}},
		{"after the caller's entries", []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.pager", "GIT_CONFIG_VALUE_0=cat"},
			[]string{"GIT_CONFIG_KEY_0=core.pager", "GIT_CONFIG_VALUE_0=cat", "GIT_CONFIG_KEY_1=" + gh, "GIT_CONFIG_VALUE_1=", "GIT_CONFIG_COUNT=2"}},
		{"a count git refuses", []string{"GIT_CONFIG_COUNT=x", "GIT_CONFIG_KEY_0=core.pager", "GIT_CONFIG_VALUE_0=cat"},
			[]string{"GIT_CONFIG_KEY_0=" + gh, "GIT_CONFIG_VALUE_0=", "GIT_CONFIG_COUNT=1"}},
		{"a GHES server", []string{"GITHUB_SERVER_URL=https://ghes.example"},
			[]string{"GITHUB_SERVER_URL=https://ghes.example", "GIT_CONFIG_KEY_0=" + gh, "GIT_CONFIG_VALUE_0=",
				"GIT_CONFIG_KEY_1=" + ghes, "GIT_CONFIG_VALUE_1=", "GIT_CONFIG_COUNT=2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WithoutGitHeaders(tt.in, GitHeaderKeys(tt.in)...)
			if diff := cmp.Diff(tt.out, got); diff != "" {
				t.Errorf("WithoutGitHeaders (-want +got):\n%s", diff)
			}
		})
	}
}
