package lint

import (
	"fmt"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

var (
	mentionRE = rundoc.Compile(mention)
	wordRE    = rundoc.Compile(`\w+`)
)

// The negative-control heuristic as single regular expressions, the form
// aepgate used before the patterns were split into alternatives. They are
// the oracle: FuzzAlternatives holds each split matcher to its pattern.
var (
	deferPhraseRE = rundoc.Compile(`⟨(?:` + deferTerms + `|tba|tbc` +
		`|will\s+(?:be\s+)?(?:add|writ|do|defin|document|creat|implement|provid|decid)\w*` +
		`|see\s+(?:above|below)|to\s+follow|coming\s+soon|planned\s+(?:for|in)|in\s+a\s+later` +
		`|once\s+(?:\S+\s+){0,4}?(?:is|are|lands?)|next\s+(?:sprint|release|phase|iteration)` +
		`|no\s+(?:negative\s+)?controls?|omit\w*|(?:could\s+not|couldn['’]?t)\s+\w+` +
		`|(?:cannot|can['’]t|can\s+not)\s+be\s+(?:broken|shown|tested)|nothing\s+to\s+(?:show|break|test)` +
		`|not\s+possible|impossible|unnecessary|unneeded|waiv\w*|out\s+of\s+scope|hypothetical\w*|postpon\w*` +
		`|would|might|anyway|eventually|could|should|may|maybe|perhaps|probably|presumably|supposedly|hopefully` +
		`|in\s+theory|(?:remov|disabl|break|chang|delet|revert|bypass|mutat)\w*[^\n]*?⟨nothing` +
		`|do\s+not\s+know|don['’]?t\s+know` +
		// aepgate's additions: refusals the reference let through.
		`|unable|not\s+(?:relevant|worth)|(?:does|do)\s+not\s+(?:apply|have)|(?:doesn|don)['’]?t\s+(?:apply|have)` +
		`)⟩`)

	actionRE = rundoc.Compile(`⟨(?:remov|revert|delet|disabl|comment\w*\s+(?:\S+\s+){0,3}?out|drop|bypass|flip|mutat|replac` +
		`|strip|undo|roll\s*back|swap|corrupt|tamper|chang|patch|turn\s+off|unset|send|feed|submit|pass|call` +
		`|request|post|inject|use|set|break|weaken|loosen|invert|negat|stub|mock|add|insert|introduc|stash)`)
	failureRE = rundoc.Compile(`⟨(?:fail\w*|error\w*|reject\w*|red|non-?zero|exit(?:s|ed)?\s+(?:code\s+)?0*[1-9][0-9]*` +
		`|rais\w*|throw\w*|crash\w*|deny|denies|denied|block\w*|refus\w*|[45][0-9][0-9]|assert\w*|catch\w*|caught|flag\w*|trip\w*)⟩`)
	negFailureRE = rundoc.Compile(`(?:⟨(?:not|never|no|nothing|without)|n['’]t)(?:\s+\S+){0,2}?\s+(?:fail|error|reject|rais|throw|crash|block)`)
	negActionRE  = rundoc.Compile(`(?:⟨(?:not|never|no|without)|n['’]t)(?:\s+\S+){0,3}?\s+(?:remov|revert|delet|disabl|drop|bypass|flip` +
		`|mutat|replac|strip|undo|rollback|swap|corrupt|tamper|chang|patch|unset|send|feed|submit|pass|call|request|post` +
		`|inject|break|weaken|loosen|invert|negat|stub|mock|add|insert|introduc|stash)`)
)

var alternativeSeeds = []string{
	"remove the validation in c10/check.go and watch testreject10 fail; restore it and it passes.",
	"n/a", "n. a.", "tbd — will be added later", "once the harness lands", "couldn’t break it", "can't be tested",
	"we do not remove anything", "it doesn't fail", "remove the lock; nothing fails", "exits with code 02",
	"exited 0", "returns 404", "1404", "tripwire", "étbd", "_may", "may_", "x\nremove\nnothing", "don’t know",
	"nan", "final", "snot fail", "without  x  y blocking", "n't   fail", "\u00a0would\u00a0",
	"negative controls: negative\u00a0control, negativenegative\ncontrolled", "negative  x control", "a b c d", "a_b c",
	"nothing\u00a0to\u2003test", "can’t\u0085be tested", "ñot fail", "fail² x", "exit 1٣", "x\u2028would", "omit—ted", "_would",
	"negative control: n/a", "negative controls — was not yet done", "the negative control is tbd",
	"negative controlskip", "negative control was\u00a0skipped", "negative control.  is pending", "negative control_ n/a",
	"negative control, 3 later", "negative control\nis pending", "negative control. it is pending", "no negative control",
	"negative control, which in theory is to be\ndecided", "negative control ——————————— n/a", "negative controlé n/a",
	"—", "none yet", "- n/a -", "N/A", "not  performed.", "skipped", "ok: 3 passed", "<>", "TBD\nTBD",
}

func FuzzAlternatives(f *testing.F) {
	for _, s := range alternativeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkAlternatives(t, s) })
}

func TestAlternativesAgreeWithPatterns(t *testing.T) {
	for _, s := range alternativeSeeds {
		checkAlternatives(t, s)
	}
}

// checkAlternatives compares each split matcher with its pattern on s
// lowercased, as statedControl sees text, and the evidence test on s as is.
func checkAlternatives(t *testing.T, s string) {
	t.Helper()
	low := strings.ToLower(s)
	for name, pair := range map[string][2]bool{
		"deferPhrases": {deferPhrases.match(low), deferPhraseRE.MatchString(low)},
		"actions":      {actions.match(low), actionRE.MatchString(low)},
		"failures":     {failures.match(low), failureRE.MatchString(low)},
		"negFailures":  {negFailures.match(low), negFailureRE.MatchString(low)},
		"negActions":   {negActions.match(low), negActionRE.MatchString(low)},
		"deferralOnly": {deferralOnly(s), deferralOnlyRE().MatchString(s)},
		"hasWords":     {hasWords(low, 4), len(wordRE.FindAllStringIndex(low, 4)) >= 4},
		"vetoed":       {vetoed(low), vetoedByPatterns(low)},
	} {
		if pair[0] != pair[1] {
			t.Errorf("%s(%q) = %v; pattern gives %v", name, s, pair[0], pair[1])
		}
	}
	var got [][]int
	mentions(low, -1, func(start, end int) bool {
		got = append(got, []int{start, end})
		return true
	})
	if want := mentionRE.FindAllStringIndex(low, -1); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("mentions(%q) = %v; pattern gives %v", low, got, want)
	}
}

// TestASCIISpace holds the table to rundoc.IsSpace.
func TestASCIISpace(t *testing.T) {
	for c := range rune(len(asciiSpace)) {
		if asciiSpace[c] != rundoc.IsSpace(c) {
			t.Errorf("asciiSpace[%#x] = %v, rundoc.IsSpace = %v", c, asciiSpace[c], rundoc.IsSpace(c))
		}
	}
}

// vetoedByPatterns is vetoed without the filter in front of vetoRE: the
// oracle that shows the filter never hides a veto.
func vetoedByPatterns(body string) bool {
	for _, re := range vetoRE {
		if re().MatchString(body) {
			return true
		}
	}
	v := false
	mentions(body, -1, func(start, _ int) bool {
		v = vetoBeforeRE().MatchString(before(body, start))
		return !v
	})
	return v
}

// TestLiteralAlt: which alternatives need no regexp, and whether a match
// must end a word. A wrong "literal" answer would change lint's verdicts;
// FuzzAlternatives holds the result to the patterns.
func TestLiteralAlt(t *testing.T) {
	tests := []struct {
		pattern, prefix  string
		literal, wordEnd bool
	}{
		{`(?:red)⟩`, "red", true, true},
		{`(?:remov)`, "remov", true, false},
		{`(?:fail\w*)⟩`, "fail", true, false},
		{`(?:omit\w*)`, "omit", true, false},
		{`(?:n/a)⟩`, "n/a", true, true},
		{`(?:skip(?:ped)?)⟩`, "skip", false, false},
		{`(?:comment\w*\s+(?:\S+\s+){0,3}?out)`, "comment", false, false},
		{`(?:non-?zero)⟩`, "non", false, false},
		{`(?:red)x`, "red", false, false},
		{`(?:see\s+(?:above|below))⟩`, "see", false, false},
		{`n['’]t\s+fail`, "n", false, false},
	}
	for _, tt := range tests {
		lit, end := literalAlt(tt.pattern, tt.prefix)
		if lit != tt.literal || end != tt.wordEnd {
			t.Errorf("literalAlt(%q, %q) = %v, %v; want %v, %v", tt.pattern, tt.prefix, lit, end, tt.literal, tt.wordEnd)
		}
	}
}
