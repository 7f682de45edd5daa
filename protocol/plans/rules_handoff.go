package plans

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// HandoffSections are the sections the Executor skill's handoff carries
// under "## Handoff — phase {N} — {date}", in order; "Ruled out" is the
// one that matters most.
var HandoffSections = []string{"Where things stand", "What changed", "Decisions and why", "Ruled out", "Blockers", "Next step"}

var handoffRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^##\s+Handoff\s+[—–-]\s+phase\s+([0-9]+)\s+[—–-]\s+\S`)
})

// checkHandoff: when the pull request moves a phase to needs_review,
// HANDOFF.md at head carries that phase's handoff with every section.
func checkHandoff(in Input) []Finding {
	var out []Finding
	for n, s := range changedStates(in) {
		if s.Status != StatusNeedsReview || (in.Base.States[n] != nil && in.Base.States[n].Status == StatusNeedsReview) {
			continue
		}
		file := in.Head.HandoffPath()
		if in.Head.Handoff == nil {
			out = append(out, Finding{Rule: "handoff", File: file, Line: 1,
				Message: fmt.Sprintf("phase %d moves to needs_review, but the plan folder has no %s; write \"## Handoff — phase %d — <date>\" with the sections %s", n, HandoffFile, n, strings.Join(HandoffSections, ", "))})
			continue
		}
		line, missing := handoffGaps(in.Head.Handoff, n)
		switch {
		case line == 0:
			out = append(out, Finding{Rule: "handoff", File: file, Line: 1,
				Message: fmt.Sprintf("phase %d moves to needs_review, but %s has no \"## Handoff — phase %d — <date>\" heading", n, HandoffFile, n)})
		case len(missing) > 0:
			out = append(out, Finding{Rule: "handoff", File: file, Line: line,
				Message: fmt.Sprintf("the handoff of phase %d lacks the section(s) %s (each a \"### \" heading under it; \"Ruled out\" matters most)", n, quoteAll(missing))})
		}
	}
	return out
}

// handoffGaps finds the last handoff heading of phase n in doc and the
// sections missing under it (up to the next "## " heading); line is 0 when
// there is no such heading.
func handoffGaps(doc []byte, n int) (line int, missing []string) {
	var found []string
	sc := bufio.NewScanner(bytes.NewReader(doc))
	sc.Buffer(make([]byte, 0, 64*1024), MaxFileSize)
	in := false
	for i := 1; sc.Scan(); i++ {
		text := strings.TrimRight(sc.Text(), " \t\r")
		if m := handoffRE().FindStringSubmatch(text); m != nil {
			in = m[1] == strconv.Itoa(n)
			if in {
				line, found = i, nil
			}
			continue
		}
		if strings.HasPrefix(text, "## ") {
			in = false
		}
		if h, ok := strings.CutPrefix(text, "### "); ok && in {
			found = append(found, strings.TrimSpace(h))
		}
	}
	if line == 0 {
		return 0, nil
	}
	for _, want := range HandoffSections {
		if !slices.ContainsFunc(found, func(h string) bool { return strings.EqualFold(h, want) }) {
			missing = append(missing, want)
		}
	}
	return line, missing
}

func quoteAll(words []string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = strconv.Quote(w)
	}
	return strings.Join(q, ", ")
}
