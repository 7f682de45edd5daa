package config

import (
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Report says which pull requests the worker-report rule applies to, on
// top of the one that always does: a pull request that names a work unit
// (docs/report.md, "When a report is required").
type Report struct {
	// RequiredFor adds pull requests that need a report although they name
	// no work unit: those with one of its labels, or changing a path that
	// matches one of its globs.
	RequiredFor ReportMatch `json:"required_for"`
	// Skip exempts pull requests that name no work unit: those opened by
	// one of its authors, carrying one of its labels, or whose every
	// changed file matches one of its paths.
	Skip ReportSkip `json:"skip"`
}

// ReportMatch selects pull requests by label or changed path.
type ReportMatch struct {
	// Labels are label names, compared case-insensitively as GitHub does.
	Labels []string `json:"labels"`
	// Paths are globs (MatchPath syntax) of repository paths.
	Paths []string `json:"paths"`
}

// ReportSkip selects pull requests to exempt by author, label or path.
type ReportSkip struct {
	// Authors are GitHub logins; bots ("name[bot]") allowed.
	Authors []string `json:"authors"`
	ReportMatch
}

// MaxLabelChars is the longest label name GitHub accepts.
const MaxLabelChars = 50

// report decodes the report mapping into r.
func (d *decoder) report(v *yaml.Node, field string, r *Report) {
	d.fields(v, field, fieldSetters{
		"required_for": func(v *yaml.Node, f string) { d.reportMatch(v, f, &r.RequiredFor, nil) },
		"skip": func(v *yaml.Node, f string) {
			d.reportMatch(v, f, &r.Skip.ReportMatch, func(v *yaml.Node, f string) { r.Skip.Authors = d.logins(v, f, true) })
		},
	})
}

// reportMatch decodes labels and paths into m, and authors with authors
// when it is not nil.
func (d *decoder) reportMatch(v *yaml.Node, field string, m *ReportMatch, authors func(v *yaml.Node, f string)) {
	set := fieldSetters{
		"labels": func(v *yaml.Node, f string) { m.Labels = d.labels(v, f) },
		"paths":  func(v *yaml.Node, f string) { m.Paths = d.paths(v, f, true) },
	}
	if authors != nil {
		set["authors"] = authors
	}
	d.fields(v, field, set)
}

// labels decodes a list of label names: non-empty, at most MaxLabelChars
// characters, no duplicates (case-insensitive).
func (d *decoder) labels(v *yaml.Node, field string) []string {
	seen := map[string]bool{}
	return d.list(v, field, func(item *yaml.Node, f, s string) {
		switch n := utf8.RuneCountInString(s); {
		case trimSpace(s) == "":
			d.errorf(item, f, "must not be empty")
		case n > MaxLabelChars:
			d.errorf(item, f, "is %d characters; GitHub labels have at most %d", n, MaxLabelChars)
		case seen[lower(s)]:
			d.errorf(item, f, "duplicate label %q", s)
		}
		seen[lower(s)] = true
	})
}
