// Package codeowners parses a GitHub CODEOWNERS file and says who owns a
// path, by GitHub's rules: the last matching line wins, patterns follow
// gitignore's syntax except that "!" negation, "[ ]" character ranges and
// a "\#" escape do not work
// (https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-code-owners).
// It is pure: bytes in, rules or positioned problems out.
package codeowners

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/position"
)

// Locations are where GitHub looks for the file on a branch, in order: the
// first one found is the file.
var Locations = []string{".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"}

// MaxSize is the largest file GitHub reads: a CODEOWNERS file over 3 MB is
// ignored ("CODEOWNERS file size", same page).
const MaxSize = 3 << 20

// Rule is one line: a pattern and its owners, each a login ("octocat") or a
// team ("@org/team-slug"). E-mail owners are left out (the App cannot map
// an address to an account), so Owners may be empty: then the line leaves
// its paths without owners.
type Rule struct {
	Pattern string
	Owners  []string
	Line    int
}

// File is a parsed CODEOWNERS file: its rules in file order.
type File struct {
	Path  string
	Rules []Rule
}

// Parse reads a CODEOWNERS file named filename (used in problems). A line
// GitHub would refuse is a problem here, not a line skipped: skipping one
// would hand its paths to an earlier line's owners.
func Parse(filename string, data []byte) (*File, position.Problems) {
	if len(data) > MaxSize {
		return nil, position.Problems{{File: filename, Message: fmt.Sprintf("%d bytes; GitHub ignores a CODEOWNERS file over %d bytes", len(data), MaxSize)}}
	}
	f := &File{Path: filename}
	var probs position.Problems
	for i, line := range strings.Split(string(data), "\n") {
		r, msg := parseLine(strings.TrimSuffix(line, "\r"))
		switch {
		case msg != "":
			probs = append(probs, position.Problem{File: filename, Line: i + 1, Column: 1, Message: msg})
		case r != nil:
			r.Line = i + 1
			f.Rules = append(f.Rules, *r)
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return f, nil
}

// parseLine reads one line: nil for a blank line or a comment, or why the
// line is refused.
func parseLine(line string) (*Rule, string) {
	fields := strings.Fields(line)
	if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
		return nil, ""
	}
	pat := fields[0]
	if msg := checkPattern(pat); msg != "" {
		return nil, msg
	}
	r := &Rule{Pattern: pat, Owners: []string{}}
	for _, o := range fields[1:] {
		owner, msg := parseOwner(o)
		if msg != "" {
			return nil, msg
		}
		if owner != "" {
			r.Owners = append(r.Owners, owner)
		}
	}
	return r, ""
}

// checkPattern refuses what GitHub does not support in a pattern.
func checkPattern(p string) string {
	switch {
	case strings.HasPrefix(p, `\#`):
		return fmt.Sprintf("pattern %q: escaping a leading # does not work in CODEOWNERS", p)
	case strings.HasPrefix(p, "!"):
		return fmt.Sprintf("pattern %q: negation with ! does not work in CODEOWNERS", p)
	case strings.ContainsAny(p, "[]"):
		return fmt.Sprintf("pattern %q: character ranges [ ] do not work in CODEOWNERS", p)
	case strings.ContainsRune(p, 0):
		return "the pattern holds a NUL byte"
	}
	return ""
}

// parseOwner reads one owner: "@login" gives the login, "@org/team" the
// team as written with its slug lower-cased (GitHub's slugs are), an
// e-mail address "" (ignored). Anything else is refused, as GitHub
// refuses it (an inline "# comment" included).
func parseOwner(o string) (string, string) {
	rest, at := strings.CutPrefix(o, "@")
	switch {
	case !at && strings.Contains(o, "@"):
		return "", "" // an e-mail address
	case !at || rest == "":
		return "", fmt.Sprintf("owner %q is not @login, @org/team or an e-mail address (a comment must be on a line of its own)", o)
	}
	org, slug, team := strings.Cut(rest, "/")
	if !team {
		if !loginLike(rest) {
			return "", fmt.Sprintf("owner %q is not a GitHub login", o)
		}
		return rest, ""
	}
	if !loginLike(org) || slug == "" || strings.ContainsAny(slug, "/@") {
		return "", fmt.Sprintf("owner %q is not a team (@org/team-slug)", o)
	}
	return "@" + org + "/" + strings.ToLower(slug), ""
}

// loginLike reports whether s can be a GitHub login: letters, digits and
// hyphens, at most 39 characters.
func loginLike(s string) bool {
	if s == "" || len(s) > 39 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
