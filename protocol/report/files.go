package report

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/glob"
)

// maxUnlisted is how many unlisted changed files Warnings names one by one;
// the rest share one warning.
const maxUnlisted = 20

// codeSpan matches a `code span` in a FILES item.
var codeSpan = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`([^`]+)`") })

// listedFile is one path FILES lists and the body line it is on.
type listedFile struct {
	path string
	line int
}

// listedFiles returns the paths FILES lists: every `code span` of an item,
// or else its first word, with a leading "./" and trailing punctuation
// removed. The rest of an item is a comment; "none" lists nothing.
func listedFiles(fld Field) []listedFile {
	var out []listedFile
	add := func(text string, line int) {
		var words []string
		if spans := codeSpan().FindAllStringSubmatch(text, -1); spans != nil {
			for _, s := range spans {
				words = append(words, s[1])
			}
		} else if fs := strings.Fields(text); len(fs) > 0 {
			words = fs[:1]
		}
		for _, w := range words {
			p := strings.TrimPrefix(strings.TrimRight(strings.TrimSpace(w), ".,;:"), "./")
			if p != "" && !strings.EqualFold(p, "none") {
				out = append(out, listedFile{path: p, line: line})
			}
		}
	}
	if fld.Inline != "" {
		add(fld.Inline, fld.Line)
	}
	for i, item := range fld.Items {
		add(item, fld.ItemLines[i])
	}
	return out
}

// covers reports whether the listed entry covers the changed path: the
// same path, or a pattern of the one dialect every path pattern uses
// (glob.Match, GitHub's CODEOWNERS rules: "dir/" a folder's files, "**"
// across folders, a name without a slash at any depth).
func covers(listed, changed string) bool {
	return listed == changed || glob.Match(listed, changed)
}

// checkFiles wants every path FILES lists to be one the pull request
// changes; it is skipped unless Facts.FilesKnown.
func checkFiles(fld Field, f Facts) ([]Problem, bool) {
	if !f.FilesKnown {
		return nil, false
	}
	var ps []Problem
	for _, l := range listedFiles(fld) {
		if !coversAny([]listedFile{l}, f.Files) {
			ps = append(ps, Problem{Code: "file-not-changed", Field: FieldFiles, Line: l.line,
				Message: fmt.Sprintf("FILES lists %s, which this pull request does not change; list only the files it changes", l.path)})
		}
	}
	return ps, len(ps) > 0
}

// coversAny reports whether some listed entry covers some changed path.
func coversAny(listed []listedFile, changed []string) bool {
	for _, l := range listed {
		for _, c := range changed {
			if covers(l.path, c) {
				return true
			}
		}
	}
	return false
}

// Warnings returns what is worth saying about r without failing it: each
// file the pull request changes that FILES does not list (when
// Facts.FilesKnown and FILES has a value), at the FILES line. Past
// maxUnlisted files, the rest share one warning.
func Warnings(r Report, f Facts) []Problem {
	fld, ok := r.Fields[FieldFiles]
	if !r.Found || !ok || !f.FilesKnown || len(fld.Values()) == 0 {
		return nil
	}
	listed := listedFiles(fld)
	var unlisted []string
	for _, c := range f.Files {
		if !coversAny(listed, []string{c}) {
			unlisted = append(unlisted, c)
		}
	}
	var ps []Problem
	for i, c := range unlisted {
		if i == maxUnlisted {
			ps = append(ps, Problem{Code: "file-not-listed", Field: FieldFiles, Line: fld.Line,
				Message: fmt.Sprintf("%d more changed files are not listed in FILES, from %s to %s; add them to FILES", len(unlisted)-i, c, unlisted[len(unlisted)-1])})
			break
		}
		ps = append(ps, Problem{Code: "file-not-listed", Field: FieldFiles, Line: fld.Line,
			Message: fmt.Sprintf("this pull request changes %s but FILES does not list it; add it to FILES", c)})
	}
	return ps
}
