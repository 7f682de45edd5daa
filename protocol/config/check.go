package config

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/glob"
)

func indexField(field string, i int) string { return fmt.Sprintf("%s[%d]", field, i) }

func lower(s string) string     { return strings.ToLower(s) }
func trimSpace(s string) string { return strings.TrimSpace(s) }

// checkLogin validates a GitHub login: 1–39 letters, digits or hyphens,
// not starting or ending with a hyphen. Bot accounts ("name[bot]") pass
// only when allowBot is set (owners must be people).
func checkLogin(s string, allowBot bool) string {
	name, bot := strings.CutSuffix(s, "[bot]")
	if bot && !allowBot {
		return fmt.Sprintf("%q is a bot account; owners must be people", s)
	}
	if name == "" || len(name) > 39 || name[0] == '-' || name[len(name)-1] == '-' {
		return fmt.Sprintf("%q is not a GitHub login (1-39 letters, digits or inner hyphens)", s)
	}
	for _, r := range name {
		if !isAlnum(r) && r != '-' {
			return fmt.Sprintf("%q is not a GitHub login (1-39 letters, digits or inner hyphens)", s)
		}
	}
	return ""
}

// checkControlName validates a control name: [A-Za-z0-9._-], 1–64 long.
func checkControlName(s string) string {
	if s == "" || len(s) > 64 {
		return "must be 1-64 characters from A-Z a-z 0-9 . _ -"
	}
	for _, r := range s {
		if !isAlnum(r) && r != '.' && r != '_' && r != '-' {
			return fmt.Sprintf("%q has %q; use only A-Z a-z 0-9 . _ -", s, r)
		}
	}
	return ""
}

func isAlnum(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// checkPath validates a repository-relative path (or glob, when isGlob is
// set): not empty, not absolute, no ".." segment, no backslashes. A glob
// may start with "/", which anchors it at the repository root
// (glob.Match), and must be one glob.Valid accepts; neither takes "\"
// (a Windows path's separator, not an escape here).
func checkPath(s string, isGlob bool) string {
	switch {
	case strings.TrimSpace(s) == "":
		return "must not be empty"
	case strings.ContainsRune(s, 0):
		return "must not contain a NUL byte"
	case strings.HasPrefix(s, "/") && !isGlob || len(s) >= 2 && s[1] == ':':
		return fmt.Sprintf("%q must be relative to the repository root", s)
	case strings.Contains(s, `\`):
		return fmt.Sprintf("%q: use forward slashes", s)
	}
	for _, seg := range strings.Split(s, "/") {
		if seg == ".." {
			return fmt.Sprintf("%q must not contain '..'", s)
		}
	}
	if isGlob {
		if err := glob.Valid(s); err != nil {
			return fmt.Sprintf("%q is not a valid glob: %v", s, err)
		}
	}
	return ""
}

// checkRisk validates a risk tier.
func checkRisk(s string) string {
	switch s {
	case RiskLow, RiskMedium, RiskHigh:
		return ""
	}
	return fmt.Sprintf("%q is not a risk tier; use low, medium or high", s)
}

// checkPrefix validates the comment-command prefix: a slash and a word.
func checkPrefix(s string) string {
	if len(s) < 2 || len(s) > 32 || s[0] != '/' {
		return fmt.Sprintf("%q must be a slash and a word, like /aep", s)
	}
	for _, r := range s[1:] {
		if !isAlnum(r) && r != '-' && r != '_' {
			return fmt.Sprintf("%q must be a slash and a word, like /aep", s)
		}
	}
	return ""
}
