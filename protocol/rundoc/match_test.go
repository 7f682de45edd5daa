package rundoc

import (
	"regexp"
	"strings"
	"testing"
)

// The regular expressions the hand matchers in match.go stand for. They are
// the oracle: FuzzLineMatchers holds every matcher to its pattern.
var (
	guideHeadingRE = Compile(`^###\s+(` + IDChars + `)\s+` + sep + `\s*(.*)$`)
	logHeadingRE   = Compile(`^###\s+(` + IDChars + `)\s+` + sep + `\s+([A-Za-z_]+)\s*$`)
	bodyEndRE      = Compile(`^#{1,6}(?:\s|$)`)
	boldFieldRE    = Compile(`^\*\*[^*\n]+:\*\*`)
	planFieldRE    = Compile(`^\*\*([^*\n]+?):\*\*(.*)$`)
	reportRefRE    = Compile("\\*\\*Report:\\*\\*[ \\t\\p{Zs}]*`?(" + IDChars + ")`?")
	phaseHeadingRE = Compile(`(?i)^#\s+phase\s+([0-9]+)(?:\s*` + sep + `\s*(.*))?$`)
	gateWordRE     = Compile(`(?i)⟨gates?⟩`)
	phasePrefixRE  = regexp.MustCompile(`^[Pp]([0-9]+)-`)
	gateIDRE       = regexp.MustCompile(`(?i)(?:-G[0-9]+$|^G[0-9]+$)`)
	placeholderRE  = regexp.MustCompile(`<[^>\n]*>`)
)

// sep is the separator class of the headings.
const sep = `[—–-]`

var matcherSeeds = []string{
	"### P0-T1 — Do it", "###\u00a0P0-T1\u2003–\tDONE  ", "### P0-T1 -DONE", "### - - x", "### P0-T1 — DONE (again)",
	"### P0-T1—DONE", "####  P0-T1 — x", "#", "######", "####### x", "#\u0085", "**Verify output:** x", "**a:b:**c", "**:**",
	"**Report:** `P0-T1`. **Report:**\u3000P0-T2 **Report:**`**Report:** P1.", "# Phase 01 — Ledger", "# PHAſE 2", "#\tphase 3-x",
	"# phase 4 x", "Release gate", "GATES!", "investigate", "gateſ", "_gate", "é gate", "P01-G12", "g7", "xg1", "-G", "P-",
	"a <b> c <d\n> <e>", "<x>", " <x> ", "<a>b<c>", "\xffgate", "### P0\xff-T1 — x",
}

func FuzzLineMatchers(f *testing.F) {
	for _, s := range matcherSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkMatchers(t, s) })
}

func TestLineMatchersAgreeWithPatterns(t *testing.T) {
	for _, s := range matcherSeeds {
		checkMatchers(t, s)
		checkMatchers(t, s+"\n")
	}
}

// checkMatchers compares every matcher with its pattern on the first line
// of s (the parser hands them single lines) and the placeholder functions on
// all of s.
func checkMatchers(t *testing.T, text string) {
	t.Helper()
	s, _, _ := strings.Cut(text, "\n")
	want2 := func(re *regexp.Regexp) (string, string, bool) {
		m := re.FindStringSubmatch(s)
		if m == nil {
			return "", "", false
		}
		return m[1], m[len(m)-1], true
	}
	agree := func(name string, a1, a2 string, aok bool, b1, b2 string, bok bool) {
		if a1 != b1 || a2 != b2 || aok != bok {
			t.Errorf("%s(%q) = %q, %q, %v; pattern gives %q, %q, %v", name, s, a1, a2, aok, b1, b2, bok)
		}
	}
	id, rest, ok := guideHeading(s)
	w1, w2, wok := want2(guideHeadingRE)
	agree("guideHeading", id, rest, ok, w1, w2, wok)
	id, word, ok := logHeading(s)
	w1, w2, wok = want2(logHeadingRE)
	agree("logHeading", id, word, ok, w1, w2, wok)
	label, value, ok := boldField(s)
	w1, w2, wok = want2(planFieldRE)
	agree("boldField", label, value, ok, w1, w2, wok)
	num, title, ok := phaseHeading(s)
	w1, w2, wok = want2(phaseHeadingRE)
	agree("phaseHeading", num, title, ok, w1, w2, wok)
	pp, ok := phasePrefix(s)
	m := phasePrefixRE.FindStringSubmatch(s)
	agree("phasePrefix", pp, "", ok, strings.Join(m[min(1, len(m)):], ""), "", m != nil)
	for name, pair := range map[string][2]bool{
		"isBodyEnd":   {isBodyEnd(s), bodyEndRE.MatchString(s)},
		"hasGateWord": {hasGateWord(s), gateWordRE.MatchString(s)},
		"isGateID":    {isGateID(s), gateIDRE.MatchString(s)},
		"isBoldField": {isBoldField(s), boldFieldRE.MatchString(s)},
	} {
		if pair[0] != pair[1] {
			t.Errorf("%s(%q) = %v; pattern gives %v", name, s, pair[0], pair[1])
		}
	}
	var wantIDs []string
	for _, m := range reportRefRE.FindAllStringSubmatch(s, -1) {
		wantIDs = append(wantIDs, m[1])
	}
	if got := appendReportIDs(nil, s); strings.Join(got, "|") != strings.Join(wantIDs, "|") || len(got) != len(wantIDs) {
		t.Errorf("appendReportIDs(%q) = %q; pattern gives %q", s, got, wantIDs)
	}
	if got, want := StripPlaceholders(text), placeholderRE.ReplaceAllString(text, ""); got != want {
		t.Errorf("StripPlaceholders(%q) = %q; pattern gives %q", text, got, want)
	}
	ts := TrimSpace(text)
	if got, want := IsPlaceholder(text), len(ts) >= 2 && placeholderRE.FindString(ts) == ts; got != want {
		t.Errorf("IsPlaceholder(%q) = %v; pattern gives %v", text, got, want)
	}
}
