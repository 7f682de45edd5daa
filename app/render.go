package app

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// Check-run names the App writes here.
const (
	WorkUnitCheck = "aepgate/work-unit"
	ConfigCheck   = "aepgate/config"
)

// noNativeBlockers is added when the server has no issue dependencies.
const noNativeBlockers = "\n_This GitHub server has no issue dependencies (blocked-by), so only the contract's `depends_on` was checked._\n"

// workUnitRun renders a work-unit verdict as the aepgate/work-unit check run
// on head.
func workUnitRun(head string, v workunit.Verdict, unitTitle string) checks.Run {
	r := checks.Run{Name: WorkUnitCheck, HeadSHA: head}
	if v.OK {
		r.Conclusion = checks.ConclusionSuccess
		r.Title = fmt.Sprintf("Work unit #%d: %s", v.Unit, oneLine(unitTitle, 100))
		var b strings.Builder
		fmt.Fprintf(&b, "This pull request is an attempt at work unit #%d. Its contract is valid and its dependencies are closed.\n\n", v.Unit)
		fmt.Fprintf(&b, "**Goal:** %s\n\n**Risk:** %s · **Class:** %s\n\n**Acceptance**\n", oneLine(v.Contract.Goal, 800), v.Contract.Risk, v.Contract.Class)
		for _, a := range v.Contract.Acceptance {
			fmt.Fprintf(&b, "- %s\n", oneLine(a, 800))
		}
		r.Summary = b.String()
		return r
	}
	r.Conclusion = checks.ConclusionFailure
	r.Title = fmt.Sprintf("%d %s with the work unit", len(v.Reasons), plural(len(v.Reasons), "problem", "problems"))
	var b strings.Builder
	b.WriteString("A pull request must name exactly one open work unit (`Work-unit: #N` or a closing keyword) whose contract is valid, whose milestone is a valid increment and whose dependencies are all closed.\n\n")
	for _, reason := range v.Reasons {
		fmt.Fprintf(&b, "- %s\n", reason)
	}
	r.Summary = b.String()
	return r
}

// configRun renders the result of parsing the repository config as the
// aepgate/config check run on head; errs nil means the config is valid.
func configRun(head, branch string, errs config.Errors, other error) checks.Run {
	r := checks.Run{Name: ConfigCheck, HeadSHA: head}
	if errs == nil && other == nil {
		r.Conclusion = checks.ConclusionSuccess
		r.Title = "Repository config is valid"
		r.Summary = fmt.Sprintf("`%s` on the default branch (`%s`) is valid.\n", configPath, branch)
		return r
	}
	r.Conclusion = checks.ConclusionFailure
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` on the default branch (`%s`) is invalid, so aepgate cannot judge this pull request. Fix the file on `%s` (a pull request can never change the policy that judges it); `aepgate config validate` checks it locally.\n\n", configPath, branch, branch)
	if other != nil {
		r.Title = "Repository config is unreadable"
		fmt.Fprintf(&b, "- %s\n", other)
	} else {
		r.Title = fmt.Sprintf("Repository config has %d %s", len(errs), plural(len(errs), "error", "errors"))
		for _, e := range errs {
			fmt.Fprintf(&b, "- %s\n", e.Error())
			line := max(e.Line, 1)
			r.Annotations = append(r.Annotations, checks.Annotation{
				Path: configPath, StartLine: line, EndLine: line, Level: checks.LevelFailure,
				Title: "aepgate config", Message: strings.TrimSpace(fieldMessage(e)),
			})
		}
	}
	r.Summary = b.String()
	return r
}

func fieldMessage(e config.Error) string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}

// oneLine flattens s to one line of at most n runes.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
