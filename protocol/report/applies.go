package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// Subject is what the report rule needs to know about a pull request to
// decide whether it must carry a worker report.
type Subject struct {
	// Body is the pull request's description.
	Body string
	// Repo is the pull request's repository, "owner/name".
	Repo string
	// Author is the login that opened the pull request; AuthorType is
	// GitHub's user type for it ("User", "Bot", "Organization").
	Author, AuthorType string
	// Labels are the pull request's label names.
	Labels []string
	// Files are the paths the pull request changes; FilesKnown says they
	// were read in full.
	Files      []string
	FilesKnown bool
}

// Scope is the rule's answer for one pull request.
type Scope struct {
	// Required says the pull request must carry a valid report.
	Required bool
	// Reason says why, in a sentence fit for a check run's summary.
	Reason string
}

// scopeRule decides a pull request's Scope, or returns false to leave the
// decision to the next rule.
type scopeRule struct {
	name   string
	decide func(c config.Report, s Subject) (Scope, bool)
}

// scopeRules are Applies' rules, first decisive answer wins. A pull request
// that names a work unit (or already carries a report) needs one whoever
// opened it and whatever its labels and paths: no skip rule comes first, so
// a skip label or a bot account cannot excuse a claimed unit from its
// report. Changed files that could not be read never satisfy a skip rule
// and, when report.required_for.paths is set, make a report required (fail
// closed).
var scopeRules = []scopeRule{
	{"claims-unit", claimsUnit},
	{"bot-author", botAuthor},
	{"skipped-author", skippedAuthor},
	{"skipped-label", skippedLabel},
	{"skipped-paths", skippedPaths},
	{"required-label", requiredLabel},
	{"unknown-files", unknownFiles},
	{"required-paths", requiredPaths},
}

// Applies decides whether the pull request s must carry a worker report
// under the config's report rules (docs/report.md, "When a report is
// required"). The Action's aep/report and the App's merge check both ask
// it; a pull request the rule does not apply to gets a neutral run saying
// why.
func Applies(c config.Report, s Subject) Scope { return applies(scopeRules, c, s) }

// applies is Applies under rules; the negative-control tests drop one.
func applies(rules []scopeRule, c config.Report, s Subject) Scope {
	for _, rule := range rules {
		if sc, ok := rule.decide(c, s); ok {
			return sc
		}
	}
	return skip("it names no work unit (no 'Work-unit: #N' line, closing keyword or report) and no report.required_for rule matches it")
}

func claimsUnit(_ config.Report, s Subject) (Scope, bool) {
	if refs := workunit.ParseRefs(s.Body, s.Repo); len(refs) > 0 {
		return Scope{Required: true, Reason: fmt.Sprintf("the pull request names work unit %s, so it must carry the worker's report", refs[0])}, true
	}
	if Parse(s.Body).Found {
		return Scope{Required: true, Reason: "the pull request's body carries a worker report (a STATUS line), so it is checked"}, true
	}
	return Scope{}, false
}

func botAuthor(_ config.Report, s Subject) (Scope, bool) {
	if strings.EqualFold(s.AuthorType, "Bot") {
		return skip("its author %s is a bot account and it names no work unit", s.Author), true
	}
	return Scope{}, false
}

func skippedAuthor(c config.Report, s Subject) (Scope, bool) {
	if s.Author != "" && login.In(c.Skip.Authors, s.Author) {
		return skip("its author %s is listed in report.skip.authors and it names no work unit", s.Author), true
	}
	return Scope{}, false
}

func skippedLabel(c config.Report, s Subject) (Scope, bool) {
	if l, ok := firstLabel(c.Skip.Labels, s.Labels); ok {
		return skip("it carries the label %q, listed in report.skip.labels, and names no work unit", l), true
	}
	return Scope{}, false
}

func skippedPaths(c config.Report, s Subject) (Scope, bool) {
	if len(c.Skip.Paths) == 0 || !s.FilesKnown || len(s.Files) == 0 {
		return Scope{}, false
	}
	for _, f := range s.Files {
		if !matchAny(c.Skip.Paths, f) {
			return Scope{}, false
		}
	}
	return skip("every file it changes matches report.skip.paths and it names no work unit"), true
}

func requiredLabel(c config.Report, s Subject) (Scope, bool) {
	if l, ok := firstLabel(c.RequiredFor.Labels, s.Labels); ok {
		return Scope{Required: true, Reason: fmt.Sprintf("the pull request carries the label %q, listed in report.required_for.labels, so it must carry the worker's report", l)}, true
	}
	return Scope{}, false
}

func unknownFiles(c config.Report, s Subject) (Scope, bool) {
	if len(c.RequiredFor.Paths) > 0 && !s.FilesKnown {
		return Scope{Required: true, Reason: "report.required_for.paths is set and the pull request's changed files could not be read in full, so a worker report is required (fail closed)"}, true
	}
	return Scope{}, false
}

func requiredPaths(c config.Report, s Subject) (Scope, bool) {
	for _, f := range s.Files {
		if matchAny(c.RequiredFor.Paths, f) {
			return Scope{Required: true, Reason: fmt.Sprintf("the pull request changes %s, which matches report.required_for.paths, so it must carry the worker's report", f)}, true
		}
	}
	return Scope{}, false
}

func skip(format string, args ...any) Scope {
	return Scope{Reason: "No worker report is required: " + fmt.Sprintf(format, args...) + "."}
}

// firstLabel returns the first of have that is in want (case-insensitive).
func firstLabel(want, have []string) (string, bool) {
	i := slices.IndexFunc(have, func(h string) bool {
		return slices.ContainsFunc(want, func(w string) bool { return strings.EqualFold(w, h) })
	})
	if i < 0 {
		return "", false
	}
	return have[i], true
}

func matchAny(patterns []string, name string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return config.MatchPath(p, name) })
}
