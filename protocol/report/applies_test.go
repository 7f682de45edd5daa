package report

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/config"
)

// scopeConfig skips a bot-like login, a label and docs, and requires a
// report for a label and for src/.
var scopeConfig = config.Report{
	RequiredFor: config.ReportMatch{Labels: []string{"aep"}, Paths: []string{"src/**"}},
	Skip: config.ReportSkip{Authors: []string{"renovate-bot"},
		ReportMatch: config.ReportMatch{Labels: []string{"dependencies"}, Paths: []string{"docs/**"}}},
}

// bump is a dependency-bump pull request as Dependabot opens it.
var bump = Subject{Body: "Bumps [lodash](https://github.com/lodash/lodash) from 4.17.20 to 4.17.21.", Repo: "o/r",
	Author: "dependabot[bot]", AuthorType: "Bot", Labels: []string{"dependencies"}, Files: []string{"package-lock.json"}, FilesKnown: true}

func with(s Subject, edit func(*Subject)) Subject {
	s.Labels, s.Files = slices.Clone(s.Labels), slices.Clone(s.Files)
	edit(&s)
	return s
}

func human(s *Subject) { s.Author, s.AuthorType, s.Labels = "octo", "User", nil }

func TestApplies(t *testing.T) {
	tests := []struct {
		name   string
		cfg    config.Report
		s      Subject
		want   bool
		reason string // a phrase the reason must hold
	}{
		{"dependency bump by a bot, defaults", config.Report{}, bump, false, "dependabot[bot] is a bot account"},
		{"human pull request naming nothing, defaults", config.Report{}, with(bump, human), false, "names no work unit"},
		{"Work-unit line", config.Report{}, with(bump, func(s *Subject) { human(s); s.Body = "Work-unit: #12" }), true, "names work unit #12"},
		{"closing keyword", config.Report{}, with(bump, func(s *Subject) { human(s); s.Body = "Fixes #7" }), true, "names work unit #7"},
		{"a report alone", config.Report{}, with(bump, func(s *Subject) { human(s); s.Body = "STATUS: done" }), true, "carries a worker report"},
		{"unit in a code block does not count", config.Report{}, with(bump, func(s *Subject) { human(s); s.Body = "```\nWork-unit: #12\n```" }), false, "names no work unit"},
		{"listed author", scopeConfig, with(bump, func(s *Subject) { human(s); s.Author = "Renovate-Bot" }), false, "report.skip.authors"},
		{"skip label", scopeConfig, with(bump, func(s *Subject) { s.AuthorType = "User"; s.Author = "octo" }), false, "report.skip.labels"},
		{"only docs changed", scopeConfig, with(bump, func(s *Subject) { human(s); s.Files = []string{"docs/a.md", "docs/b/c.md"} }), false, "report.skip.paths"},
		{"docs and src changed", scopeConfig, with(bump, func(s *Subject) { human(s); s.Files = []string{"docs/a.md", "src/x.go"} }), true, "changes src/x.go"},
		{"required label", scopeConfig, with(bump, func(s *Subject) { human(s); s.Labels = []string{"AEP"} }), true, `label "AEP"`},
		{"required path", scopeConfig, with(bump, func(s *Subject) { human(s); s.Files = []string{"src/a/b.go"} }), true, "report.required_for.paths"},
		{"other path", scopeConfig, with(bump, func(s *Subject) { human(s); s.Files = []string{"README.md"} }), false, "no report.required_for rule"},
		{"files unknown with required paths", scopeConfig, with(bump, func(s *Subject) { human(s); s.Files, s.FilesKnown = nil, false }), true, "fail closed"},
		{"files unknown without required paths", config.Report{}, with(bump, func(s *Subject) { human(s); s.Files, s.FilesKnown = nil, false }), false, "names no work unit"},
		// The attacks: a claimed unit cannot be excused from its report.
		{"bot naming a unit", scopeConfig, with(bump, func(s *Subject) { s.Body = "Work-unit: #12" }), true, "names work unit #12"},
		{"skip label on a claimed unit", scopeConfig, with(bump, func(s *Subject) { s.AuthorType = "User"; s.Body = "Closes #3" }), true, "names work unit #3"},
		{"skipped author naming a unit", scopeConfig, with(bump, func(s *Subject) { human(s); s.Author = "renovate-bot"; s.Body = "Work-unit: #12" }), true, "names work unit"},
		{"docs-only change naming a unit", scopeConfig, with(bump, func(s *Subject) { human(s); s.Files = []string{"docs/a.md"}; s.Body = "Work-unit: #12" }), true, "names work unit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Applies(tt.cfg, tt.s)
			if got.Required != tt.want || !strings.Contains(got.Reason, tt.reason) {
				t.Errorf("Applies = %+v, want Required %v with a reason holding %q", got, tt.want, tt.reason)
			}
		})
	}
}

// TestAppliesNegativeControl removes one rule at a time and shows the
// attack it stops then succeeds: without claimsUnit a bot, a skip label or
// a docs-only change excuses a claimed unit from its report; without
// unknownFiles a pull request whose files could not be read escapes
// report.required_for.paths.
func TestAppliesNegativeControl(t *testing.T) {
	unit := with(bump, func(s *Subject) { s.Body = "Work-unit: #12" })
	unread := with(bump, func(s *Subject) { human(s); s.Files, s.FilesKnown = nil, false })
	tests := []struct {
		name    string
		without string
		s       Subject
	}{
		{"bot naming a unit", "claims-unit", unit},
		{"skip label on a claimed unit", "claims-unit", with(unit, func(s *Subject) { s.AuthorType = "User"; s.Author = "octo" })},
		{"docs-only change naming a unit", "claims-unit", with(unit, func(s *Subject) { human(s); s.Files = []string{"docs/a.md"} })},
		{"files unknown with required paths", "unknown-files", unread},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !Applies(scopeConfig, tt.s).Required {
				t.Fatal("the full rules do not require the report")
			}
			rules := slices.DeleteFunc(slices.Clone(scopeRules), func(r scopeRule) bool { return r.name == tt.without })
			if len(rules) != len(scopeRules)-1 {
				t.Fatalf("%s not found in scopeRules", tt.without)
			}
			if got := applies(rules, scopeConfig, tt.s); got.Required {
				t.Errorf("without %s the report is still required (%s); the control shows nothing", tt.without, got.Reason)
			}
		})
	}
}

func TestAppliesReasons(t *testing.T) {
	got := []string{Applies(config.Report{}, bump).Reason, Applies(config.Report{}, with(bump, human)).Reason}
	want := []string{
		"No worker report is required: its author dependabot[bot] is a bot account and it names no work unit.",
		"No worker report is required: it names no work unit (no 'Work-unit: #N' line, closing keyword or report) and no report.required_for rule matches it.",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reasons (-want +got):\n%s", diff)
	}
}
