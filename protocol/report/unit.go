package report

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/workunit"
)

// unitValue matches a WORK-UNIT value's issue: "#12", "12",
// "owner/name#12" or an issue URL ".../owner/name/issues/12".
var unitValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:https?://[^/\s]+/([\w.-]+/[\w.-]+)/issues/(\d+)|(?:([\w.-]+/[\w.-]+)#|#)?(\d+))$`)
})

// parseUnit reads the issue a WORK-UNIT value names: its first word, with
// code marks, emphasis and trailing punctuation removed. A reference to
// repo (owner/name) itself is normalised to Repo "". ok is false when the
// value names no issue.
func parseUnit(v, repo string) (workunit.Ref, bool) {
	word, _, _ := strings.Cut(strings.TrimSpace(strings.Trim(strings.TrimSpace(v), "`*_<>")), " ")
	word = strings.TrimRight(strings.Trim(word, "`*_<>"), ".,;:)/")
	m := unitValue().FindStringSubmatch(word)
	if m == nil {
		return workunit.Ref{}, false
	}
	name, num := m[1]+m[3], m[2]+m[4]
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || n > 999_999_999 {
		return workunit.Ref{}, false
	}
	if strings.EqualFold(name, repo) {
		name = ""
	}
	return workunit.Ref{Repo: name, Number: n}, true
}

// checkUnit wants WORK-UNIT to name the one work unit the pull request
// names (Facts.Units); it is skipped when Facts.Repo is empty.
func checkUnit(fld Field, f Facts) ([]Problem, bool) {
	if f.Repo == "" {
		return nil, false
	}
	at := func(code, format string, args ...any) ([]Problem, bool) {
		return []Problem{{Code: code, Field: FieldWorkUnit, Line: fld.Line, Message: fmt.Sprintf(format, args...)}}, true
	}
	v := strings.Join(fld.Values(), " ")
	ref, ok := parseUnit(v, f.Repo)
	switch {
	case !ok:
		return at("invalid-work-unit", "WORK-UNIT is %q; write the issue this pull request is an attempt at, as #N", v)
	case len(f.Units) == 0:
		return at("unnamed-work-unit", "WORK-UNIT is %s but the pull request names no work unit outside code blocks and quotes; add a line 'Work-unit: %s' to its description", ref, ref)
	case len(f.Units) == 1 && f.Units[0] == ref:
		return nil, false
	}
	named := make([]string, len(f.Units))
	for i, u := range f.Units {
		named[i] = u.String()
	}
	return at("wrong-work-unit", "WORK-UNIT is %s but the pull request names %s; a pull request is an attempt at exactly one work unit: name the same one in WORK-UNIT, 'Work-unit: #N' and closing keywords", ref, strings.Join(named, ", "))
}
