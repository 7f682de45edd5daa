package action

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
)

// Check names accepted by the `checks` input.
const (
	CheckLint       = "lint"
	CheckStatus     = "status"
	CheckNegcontrol = "negcontrol"
	CheckReport     = "report"
	CheckRelease    = "release"
	CheckPlans      = "plans"
	CheckVerdicts   = "verdicts"
)

// Fail-on policies.
const (
	FailOnError = "error"
	FailOnNever = "never"
)

// Inputs are the step's `with:` values.
type Inputs struct {
	// Dirs are run-folder paths or globs relative to the workspace; empty
	// means the config's run_documents.
	Dirs []string
	// Checks are the checks asked for; nil means all that apply.
	Checks []string
	// Config is the config file's path relative to the repository root.
	Config string
	// Token writes check runs and reads the base branch's config.
	Token string
	// MembersToken reads the members of the teams in auditors (input
	// members-token); empty means Token.
	MembersToken string
	// FailOn is "error" (fail the step when a check fails) or "never".
	FailOn string
	// Tag is the release tag for the release check; empty means the
	// event's (a release event's tag_name, or a pushed tag).
	Tag string
	// Assets are the release assets to download and hash.
	Assets []string
	// Manifest is the manifest's path in the repository.
	Manifest string
	// Rerun makes the plans check re-run the recorded verification
	// commands (input rerun: true).
	Rerun bool
	// Verify is "rerun" (VerifyRerun): aep/verify re-runs the DONE tasks'
	// Verify commands of the run folders; empty means it does not run.
	Verify string
}

// InputError is a bad input; the step exits 2.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

// readInputs reads and validates the inputs.
func readInputs(a *githubactions.Action) (Inputs, error) {
	in := Inputs{
		Dirs:         splitList(a.GetInput("dir")),
		Config:       a.GetInput("config"),
		Token:        a.GetInput("token"),
		MembersToken: a.GetInput("members-token"),
		FailOn:       strings.ToLower(a.GetInput("fail-on")),
		Tag:          a.GetInput("tag"),
		Assets:       splitList(a.GetInput("assets")),
		Manifest:     a.GetInput("manifest"),
		Rerun:        strings.EqualFold(strings.TrimSpace(a.GetInput("rerun")), "true"),
		Verify:       strings.ToLower(strings.TrimSpace(a.GetInput("verify"))),
	}
	if in.Verify != "" && in.Verify != VerifyRerun {
		return in, &InputError{fmt.Sprintf("input verify is %q; use rerun (re-run every DONE task's Verify command) or leave it empty", in.Verify)}
	}
	if in.Manifest == "" {
		in.Manifest = gh.DefaultManifestPath
	}
	if in.Config == "" {
		in.Config = config.DefaultPath
	}
	if in.FailOn == "" {
		in.FailOn = FailOnError
	}
	if in.FailOn != FailOnError && in.FailOn != FailOnNever {
		return in, &InputError{fmt.Sprintf("input fail-on is %q; use error (fail the step when a check fails) or never", in.FailOn)}
	}
	for _, c := range splitList(strings.ToLower(a.GetInput("checks"))) {
		if c == "all" {
			in.Checks = nil
			continue
		}
		if _, ok := namedCheck(c); !ok {
			return in, &InputError{fmt.Sprintf("input checks names %q; use a comma-separated list of %s", c, strings.Join(checkNames(), ", "))}
		}
		if !slices.Contains(in.Checks, c) {
			in.Checks = append(in.Checks, c)
		}
	}
	return in, nil
}

// wants reports whether check c was asked for; with no explicit list every
// check applies but those that run only when named (release belongs to
// release workflows).
func (in Inputs) wants(c actionCheck) bool {
	if in.Checks == nil {
		return !c.onlyNamed
	}
	return slices.Contains(in.Checks, c.input)
}

// explicit reports whether check c was named in the input.
func (in Inputs) explicit(c string) bool { return slices.Contains(in.Checks, c) }

// splitList splits an input on newlines and commas, trimming blanks.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == ',' || r == '\r' }) {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
