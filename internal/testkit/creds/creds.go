// Package creds plants, for tests, the credentials a GitHub Actions job or
// a GitHub CLI session leaves in the environment, and the job's files
// (what protocol/cmdenv removes), and reads which of them a started
// command saw.
package creds

import "strings"

// Names are the planted variables: the Action's input token, the job's
// token, the runner's own tokens, the GitHub CLI's, and the paths of the
// job's files through which a step sets later steps' environment, PATH,
// outputs, state and summary.
var Names = []string{"INPUT_TOKEN", "GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
	"GH_TOKEN", "GH_ENTERPRISE_TOKEN",
	"GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"}

// Plant sets every name to "secret-<name>" for the test (t.Setenv).
func Plant(t interface{ Setenv(key, value string) }) {
	for _, n := range Names {
		t.Setenv(n, "secret-"+n)
	}
}

// Seen returns the planted credentials an environment dump (the output
// of `env`) holds, in Names order.
func Seen(dump string) []string {
	var out []string
	for _, n := range Names {
		if strings.Contains(dump, n+"=secret-") {
			out = append(out, n)
		}
	}
	return out
}
