package workunit

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Ref is an issue a pull request names as its work unit.
type Ref struct {
	// Repo is "owner/name" when the reference names another repository's
	// issue, empty for the pull request's own repository.
	Repo   string
	Number int
}

// String renders the reference as GitHub writes it.
func (r Ref) String() string { return r.Repo + "#" + strconv.Itoa(r.Number) }

var (
	// workUnitLine matches "Work-unit: #12" (any case, as the worker's
	// structured report writes WORK-UNIT:), optionally in a list item.
	workUnitLine = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*(?:[-*]\s+)?\**work[-_ ]unit\**\s*:\s*\**\s*((?:[\w.-]+/[\w.-]+)?#\d+)\b`)
	})
	// closingRef matches GitHub's closing keywords followed by an issue
	// reference (docs: "Linking a pull request to an issue").
	closingRef = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)(?:^|[^\w/-])(?:close|closes|closed|fix|fixes|fixed|resolve|resolves|resolved)\s*:?\s+((?:[\w.-]+/[\w.-]+)?#\d+)\b`)
	})
)

// ParseRefs returns the distinct issues a pull request body names as its
// work unit, in order of first mention: "Work-unit: #N" lines and closing
// keywords ("Fixes #N", "closes owner/repo#N"). Text inside fenced code
// blocks and quoted lines ("> …") does not count. repo is the pull
// request's own "owner/name"; references to it are normalised to Repo "".
func ParseRefs(body, repo string) []Ref {
	var out []Ref
	add := func(s string) {
		r := parseRef(s, repo)
		if r.Number > 0 && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, line := range proseLines(body) {
		if m := workUnitLine().FindStringSubmatch(line); m != nil {
			add(m[1])
		}
		for _, m := range closingRef().FindAllStringSubmatch(line, -1) {
			add(m[1])
		}
	}
	return out
}

func parseRef(s, repo string) Ref {
	name, num, _ := strings.Cut(s, "#")
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || n > 999_999_999 {
		return Ref{}
	}
	if strings.EqualFold(name, repo) {
		name = ""
	}
	return Ref{Repo: name, Number: n}
}

// proseLines returns the lines of md outside fenced code blocks and block
// quotes.
func proseLines(md string) []string {
	lines := strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		if ch, n, _, ok := openFence(lines[i]); ok {
			for i++; i < len(lines) && !closesFence(lines[i], ch, n); i++ {
			}
			continue
		}
		if strings.HasPrefix(strings.TrimLeft(lines[i], " "), ">") {
			continue
		}
		out = append(out, lines[i])
	}
	return out
}

// SoleUnit is the work unit a pull request body names when it names
// exactly one, in its own repository: the only shape the protocol accepts
// (one pull request, one unit). ok is false for none, several, or another
// repository's issue. Every part of aepgate that asks "which unit is this
// pull request for" asks it here.
func SoleUnit(body, repo string) (n int, ok bool) {
	return Sole(ParseRefs(body, repo))
}

// Sole is SoleUnit on references already parsed.
func Sole(refs []Ref) (n int, ok bool) {
	if len(refs) != 1 || refs[0].Repo != "" {
		return 0, false
	}
	return refs[0].Number, true
}
