package glob

import (
	"errors"
	"fmt"
	"path"
	"strings"
)

// Match reports whether the slash-separated, repository-relative file name
// matches pattern, by the rules GitHub applies to CODEOWNERS (gitignore's,
// docs/config.md "Path patterns"):
//   - a pattern with a "/" at its start or in its middle is anchored at
//     the repository root; one without matches at any depth ("*.js",
//     "apps/");
//   - a trailing "/" matches directories only, so their files;
//   - a pattern that matches a directory matches every file under it
//     ("/apps/github", "docs/"), except a pattern ending "/*", which
//     matches only the files directly in that directory ("docs/*");
//   - within a segment "*" matches any run of characters but "/", "?" one
//     character but "/", "[...]" one character of a class, and "\x" is x
//     (path.Match); a segment "**" matches any number of whole segments,
//     none included ("**/logs", "docs/**", "a/**/b").
//
// A leading "./" of name is ignored. A malformed pattern (Valid) matches
// nothing.
func Match(pattern, name string) bool {
	p, dirOnly, ok := split(pattern)
	if !ok {
		return false
	}
	segs := strings.Split(strings.TrimPrefix(strings.TrimPrefix(name, "./"), "/"), "/")
	if !dirOnly && matchSegments(p, segs) {
		return true
	}
	if strings.HasSuffix(pattern, "/*") {
		return false // "docs/*": the directory's own files only
	}
	for n := len(segs) - 1; n >= 1; n-- {
		if matchSegments(p, segs[:n]) {
			return true // a directory the file is in
		}
	}
	return false
}

// MatchDir reports whether the folder dir itself matches pattern (a
// trailing "/" of the pattern is met, dir being a folder), by Match's
// rules but without its folders' files: "docs/*" matches the folder
// "docs/run-1", not "docs/run-1/annexes".
func MatchDir(pattern, dir string) bool {
	p, _, ok := split(pattern)
	if !ok {
		return false
	}
	dir = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(dir, "./"), "/"), "/")
	return matchSegments(p, strings.Split(dir, "/"))
}

// Canonical is the segments pattern is matched with: its leading "/" and
// trailing "/" removed and, when it is not anchored (no "/" at its start or
// in its middle), "**" in front: "*.proto" is "**/*.proto", "/a/b/" is
// "a/b". Two patterns with the same Canonical match the same files but for
// a trailing "/" (only the folder's files).
func Canonical(pattern string) []string {
	p, _, _ := split(pattern)
	return p
}

// split is pattern's segments as Match uses them (Canonical), whether it
// names folders only (a trailing "/"), and false for an empty pattern. A
// leading "./" anchors like a leading "/".
func split(pattern string) (segs []string, dirOnly, ok bool) {
	rooted := strings.HasPrefix(pattern, "/") || strings.HasPrefix(pattern, "./")
	p := strings.TrimPrefix(strings.TrimPrefix(pattern, "./"), "/")
	dirOnly = strings.HasSuffix(p, "/")
	p = strings.TrimSuffix(p, "/")
	if p == "" {
		return nil, false, false
	}
	if !rooted && !strings.Contains(p, "/") {
		p = "**/" + p
	}
	return strings.Split(p, "/"), dirOnly, true
}

// matchSegments matches pattern segments against name segments, "**" any
// number of whole segments (Segments), each other one by path.Match.
func matchSegments(pat, name []string) bool {
	return Segments(pat, name, func(p, n string) bool {
		ok, err := path.Match(p, n)
		return err == nil && ok
	})
}

// ErrEmptySegment is Valid's answer to a pattern with an empty segment
// ("a//b"), which no path has.
var ErrEmptySegment = errors.New("an empty segment")

// Valid says why pattern is not a pattern Match can use: empty, an empty
// segment, or a segment path.Match refuses (an unclosed "[", a trailing
// "\"); nil when it is one.
func Valid(pattern string) error {
	p := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(pattern, "./"), "/"), "/")
	if p == "" {
		return errors.New("an empty pattern")
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" {
			return ErrEmptySegment
		}
		if _, err := path.Match(seg, ""); err != nil {
			return fmt.Errorf("segment %q: %w", seg, err) // path.ErrBadPattern
		}
	}
	return nil
}
