package checks

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/config"
)

// ConfigWarnings are what a valid config leaves open that its owners
// should know: with no auditors listed, any collaborator with write access
// who is independent of a change may audit it, and a pull request with a
// commit linked to no GitHub account cannot be audited at all.
func ConfigWarnings(c *config.Config) []string {
	var out []string
	if len(c.Auditors) == 0 {
		who := "write, maintain or admin"
		if c.AuditTriage {
			who = "triage, write, maintain or admin"
		}
		out = append(out, fmt.Sprintf("**No auditors are listed, so any collaborator with %s access may audit** a change they neither opened, wrote, committed nor pushed. A pull request with a commit linked to no GitHub account cannot be audited until auditors are listed. List them with `auditors: [login, ...]`.", who))
	}
	return out
}

// ConfigWarned renders a valid config that leaves something open as the
// aepgate/config check run on head: neutral, so the warnings show beside
// the green checks while nothing is blocked (GitHub counts a neutral
// conclusion as passing a required check), each warning in the summary.
func ConfigWarned(head, path, branch string, warnings []string) Run {
	r := Run{Name: NameConfig, HeadSHA: head, Conclusion: ConclusionNeutral, Title: "Repository config is valid, with " + plural(len(warnings), "warning", "warnings")}
	var b strings.Builder
	fmt.Fprintf(&b, "`%s` on the default branch (`%s`) is valid, but:\n\n", path, branch)
	for _, w := range warnings {
		fmt.Fprintf(&b, "- ⚠️ %s\n", w)
	}
	fmt.Fprintf(&b, "\nChange the file on `%s` to close this; a pull request can never change the policy that judges it.\n", branch)
	r.Summary = b.String() + DocsFooter(r.Name)
	return r
}
