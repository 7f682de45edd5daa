package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/config"
)

// Config renders the result of parsing the repository config at path on
// the default branch as the aepgate/config check run on head: success when
// errs and other are nil, otherwise a failure listing each error, with an
// annotation on the file for each positioned one. other is a reason the
// file could not be read or parsed at all.
func Config(head, path, branch string, errs config.Errors, other error) Run {
	r := Run{Name: NameConfig, HeadSHA: head}
	if errs == nil && other == nil {
		r.Conclusion = ConclusionSuccess
		r.Title = "Repository config is valid"
		r.Summary = fmt.Sprintf("`%s` on the default branch (`%s`) is valid.\n", path, branch) + DocsFooter(r.Name)
		return r
	}
	r.Conclusion = ConclusionFailure
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` on the default branch (`%s`) is invalid, so aepgate cannot judge this pull request. Fix the file on `%s` (a pull request can never change the policy that judges it); `aepgate config validate` checks it locally.\n\n", path, branch, branch)
	if other != nil {
		r.Title = "Repository config is unreadable"
		fmt.Fprintf(&b, "- %s\n", other)
	} else {
		r.Title = "Repository config has " + plural(len(errs), "error", "errors")
		for _, e := range errs {
			fmt.Fprintf(&b, "- %s\n", e.Error())
			if e.File != "" && e.File != path {
				continue // in the base policy, not in this repository: listed only
			}
			line := max(e.Line, 1)
			r.Annotations = append(r.Annotations, Annotation{
				Path: path, StartLine: line, EndLine: line, Level: LevelFailure,
				Title: "aepgate config", Message: strings.TrimSpace(fieldMessage(e)),
			})
		}
	}
	r.Summary = b.String() + DocsFooter(r.Name)
	return r
}

func fieldMessage(e config.Error) string {
	if e.Field == "" {
		return e.Message
	}
	return e.Field + ": " + e.Message
}
