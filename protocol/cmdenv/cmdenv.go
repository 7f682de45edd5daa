// Package cmdenv decides what environment a command aepgate starts may
// see: the caller's, without the credentials a GitHub Actions job or a
// GitHub CLI session leaves in it. Negative controls (`aepgate negcontrol`,
// with or without --all, and the Action's aep/negative-controls) and the
// re-run of recorded verification commands (`aepgate plans verify --rerun`,
// the Action's rerun input) run a repository's own commands, which a pull
// request can change; they must never inherit the token that can write to
// the repository. Scrub is the one place that list lives.
package cmdenv

import (
	"slices"
	"strings"
)

// Names are the variables Scrub removes, by exact name (compared in upper
// case, as Windows compares them).
var Names = []string{
	"INPUT_TOKEN",             // the Action's token input
	"GITHUB_TOKEN",            // the job's token, when a workflow exports it
	"GITHUB_ENTERPRISE_TOKEN", // the GitHub CLI's token for GitHub Enterprise Server
}

// Prefixes are the name prefixes Scrub removes: the runner's own
// credentials and endpoints (ACTIONS_RUNTIME_TOKEN,
// ACTIONS_ID_TOKEN_REQUEST_TOKEN, ACTIONS_ID_TOKEN_REQUEST_URL,
// ACTIONS_CACHE_URL, …) and the GitHub CLI's (GH_TOKEN,
// GH_ENTERPRISE_TOKEN, GH_HOST, …).
var Prefixes = []string{"ACTIONS_", "GH_"}

// Scrub returns env ("NAME=value" entries) without the variables Names
// and Prefixes list, in the order given. It never returns nil, so that
// exec.Cmd.Env set to its result never falls back to the whole process
// environment.
func Scrub(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if !Credential(kv) {
			out = append(out, kv)
		}
	}
	return out
}

// Credential reports whether the entry kv ("NAME=value", or a bare name)
// is one Scrub removes.
func Credential(kv string) bool {
	name, _, _ := strings.Cut(kv, "=")
	name = strings.ToUpper(name)
	if slices.Contains(Names, name) {
		return true
	}
	return slices.ContainsFunc(Prefixes, func(p string) bool { return strings.HasPrefix(name, p) })
}
