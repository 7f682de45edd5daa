// Package cmdenv decides what environment a command aepgate starts may
// see: the caller's, without the credentials a GitHub Actions job or a
// GitHub CLI session leaves in it, without the files through which a job's
// step talks to the runner, and with git told not to send the token
// actions/checkout persists in the repository's config. Negative controls
// (`aepgate negcontrol`, with or without --all, and the Action's
// aep/negative-controls) and the re-run of recorded commands (`aepgate
// verify --rerun`, `aepgate plans verify --rerun`, the Action's rerun and
// verify inputs) run a repository's own commands, which a pull request can
// change; they must never inherit the token that can write to the
// repository, nor write the job's later steps' environment. Scrub is the
// one place those lists live.
package cmdenv

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Names are the variables Scrub removes, by exact name (compared in upper
// case, as Windows compares them).
var Names = []string{
	"INPUT_TOKEN",             // the Action's token input
	"GITHUB_TOKEN",            // the job's token, when a workflow exports it
	"GITHUB_ENTERPRISE_TOKEN", // the GitHub CLI's token for GitHub Enterprise Server
	// The job's files (GitHub docs, "Workflow commands for GitHub
	// Actions"): a command writing them would set the environment, PATH,
	// outputs, saved state or summary of the job's later steps.
	"GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE", "GITHUB_STEP_SUMMARY",
}

// Prefixes are the name prefixes Scrub removes: the runner's own
// credentials and endpoints (ACTIONS_RUNTIME_TOKEN,
// ACTIONS_ID_TOKEN_REQUEST_TOKEN, ACTIONS_ID_TOKEN_REQUEST_URL,
// ACTIONS_CACHE_URL, …) and the GitHub CLI's (GH_TOKEN,
// GH_ENTERPRISE_TOKEN, GH_HOST, …).
var Prefixes = []string{"ACTIONS_", "GH_"}

// Scrub returns env ("NAME=value" entries) without the variables Names
// and Prefixes list, in the order given, and with git's extra HTTP headers
// for GitHub cleared (WithoutGitHeaders with GitHeaderKeys). It never
// returns nil, so that exec.Cmd.Env set to its result never falls back to
// the whole process environment.
func Scrub(env []string) []string {
	out := make([]string, 0, len(env)+3)
	for _, kv := range env {
		if !Credential(kv) {
			out = append(out, kv)
		}
	}
	return WithoutGitHeaders(out, GitHeaderKeys(env)...)
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

// GitHeaderKeys are the git config keys under which actions/checkout
// persists the job's token ("http.<server origin>/.extraheader", its
// persist-credentials default): for github.com and, when env's
// GITHUB_SERVER_URL names another server (GHES), for that one too.
func GitHeaderKeys(env []string) []string {
	keys := []string{"http.https://github.com/.extraheader"}
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		if strings.ToUpper(name) != "GITHUB_SERVER_URL" {
			continue
		}
		if u, err := url.Parse(v); err == nil && u.Scheme != "" && u.Host != "" {
			if k := "http." + u.Scheme + "://" + u.Host + "/.extraheader"; !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	return keys
}

// WithoutGitHeaders returns env with each of keys (git config keys of
// extra HTTP headers, "http.<url>.extraheader") set to an empty value
// through GIT_CONFIG_COUNT, GIT_CONFIG_KEY_<n> and GIT_CONFIG_VALUE_<n>,
// after the entries env already holds. git reads these after the
// configuration files, and an empty extraheader clears the headers
// collected so far for that URL, so git sends none of them. It clears only
// headers configured under the same URL (git keeps a more specific URL's
// entries over a less specific one's), so a key must be spelled as the
// configuration spells it. A GIT_CONFIG_COUNT that is not a number makes
// git refuse to run; its entries are then dropped and replaced.
func WithoutGitHeaders(env []string, keys ...string) []string {
	if len(keys) == 0 {
		return env
	}
	n, out := 0, make([]string, 0, len(env)+2*len(keys)+1)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	for _, kv := range env {
		bad := n <= 0 && (strings.HasPrefix(kv, "GIT_CONFIG_KEY_") || strings.HasPrefix(kv, "GIT_CONFIG_VALUE_"))
		if !bad && !strings.HasPrefix(kv, "GIT_CONFIG_COUNT=") {
			out = append(out, kv)
		}
	}
	n = max(n, 0)
	for i, k := range keys {
		out = append(out, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", n+i, k), fmt.Sprintf("GIT_CONFIG_VALUE_%d=", n+i))
	}
	return append(out, fmt.Sprintf("GIT_CONFIG_COUNT=%d", n+len(keys)))
}
