package lint

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// The negative-control heuristic (aepkit's lint rule L5; docs/run-documents.md).
// Patterns use rundoc.Compile's shorthands: \s \w \W are Unicode-aware,
// ⟨ and ⟩ are word boundaries.
// They are written in lowercase and applied to lowercased text, which is
// faster than case-folding every pattern.

// deferTerms are the deferral terms shared by the veto, the per-mention
// check and the evidence rule.
const deferTerms = `(?:n/a|n\.\s?a\.?|na|none(?:\s+yet)?|tbd|todo|later|pending|skip(?:ped)?|deferred|missing` +
	`|not\s+(?:yet|needed|required|applicable|done|run|performed|written)` +
	`|to\s+be\s+(?:written|done|added|decided|determined|defined|confirmed|run))`

// deferTermList is deferTerms as a list of alternatives.
var deferTermList = []string{`n/a`, `n\.\s?a\.?`, `na`, `none(?:\s+yet)?`, `tbd`, `todo`, `later`, `pending`, `skip(?:ped)?`,
	`deferred`, `missing`, `not\s+(?:yet|needed|required|applicable|done|run|performed|written)`,
	`to\s+be\s+(?:written|done|added|decided|determined|defined|confirmed|run)`}

const mention = `negative\s+controls?`

var (
	// vetoBeforeRE is veto (a), "no/without/skip/omit (the) negative
	// control", matched on the text just before each mention.
	vetoBeforeRE = rundoc.Lazy(`⟨(?:no|without|skip|skipped|omit|omitted)\s+(?:the\s+)?$`)
	// vetoRE are vetoes (b) and (c): a deferral right after a mention, or
	// "was/is/were/are" + a deferral shortly after it.
	vetoRE = []func() *regexp.Regexp{
		rundoc.Lazy(mention + `[^\p{L}\p{N}\n]{0,10}` + deferTerms + `⟩`),
		rundoc.Lazy(mention + `(?:[^.\n]{0,39}[^\p{L}\p{N}_.\n])?(?:was|is|were|are)\s+` + deferTerms + `⟩`),
	}
	// segmentEndRE: where the text about one mention stops.
	segmentEndRE = rundoc.Lazy(`\n[ \t]*(?:[-*][ \t]*)?(?:\*\*|__)[^*_\n]+:|\n#|\n[ \t\r\f\v\p{Zs}]*\n`)

	// deferPhrases: an excuse or a hedge anywhere after the mention.
	deferPhrases = newAlternatives(func() []alt {
		return wordAlts(`⟩`, slices.Concat(deferTermList, []string{`tba`, `tbc`,
			`will\s+(?:be\s+)?(?:add|writ|do|defin|document|creat|implement|provid|decid)\w*`,
			`see\s+(?:above|below)`, `to\s+follow`, `coming\s+soon`, `planned\s+(?:for|in)`, `in\s+a\s+later`,
			`once\s+(?:\S+\s+){0,4}?(?:is|are|lands?)`, `next\s+(?:sprint|release|phase|iteration)`,
			`no\s+(?:negative\s+)?controls?`, `omit\w*`, `could\s+not\s+\w+`, `couldn['’]?t\s+\w+`,
			`cannot\s+be\s+(?:broken|shown|tested)`, `can['’]t\s+be\s+(?:broken|shown|tested)`, `can\s+not\s+be\s+(?:broken|shown|tested)`,
			`nothing\s+to\s+(?:show|break|test)`, `not\s+possible`, `impossible`, `unnecessary`, `unneeded`, `waiv\w*`,
			`out\s+of\s+scope`, `hypothetical\w*`, `postpon\w*`, `would`, `might`, `anyway`, `eventually`, `could`, `should`,
			`may`, `maybe`, `perhaps`, `probably`, `presumably`, `supposedly`, `hopefully`, `in\s+theory`,
			`remov\w*[^\n]*?⟨nothing`, `disabl\w*[^\n]*?⟨nothing`, `break\w*[^\n]*?⟨nothing`, `chang\w*[^\n]*?⟨nothing`,
			`delet\w*[^\n]*?⟨nothing`, `revert\w*[^\n]*?⟨nothing`, `bypass\w*[^\n]*?⟨nothing`, `mutat\w*[^\n]*?⟨nothing`,
			`do\s+not\s+know`, `don['’]?t\s+know`,
			// aepgate's additions: refusals the reference let through.
			`unable`, `not\s+(?:relevant|worth)`, `does\s+not\s+(?:apply|have)`, `do\s+not\s+(?:apply|have)`,
			`doesn['’]?t\s+(?:apply|have)`, `don['’]?t\s+(?:apply|have)`})...)
	})

	// actions: what the control breaks.
	actions = newAlternatives(func() []alt {
		return wordAlts(``, `remov`, `revert`, `delet`, `disabl`, `comment\w*\s+(?:\S+\s+){0,3}?out`, `drop`,
			`bypass`, `flip`, `mutat`, `replac`, `strip`, `undo`, `roll\s*back`, `swap`, `corrupt`, `tamper`, `chang`, `patch`,
			`turn\s+off`, `unset`, `send`, `feed`, `submit`, `pass`, `call`, `request`, `post`, `inject`, `use`, `set`, `break`,
			`weaken`, `loosen`, `invert`, `negat`, `stub`, `mock`, `add`, `insert`, `introduc`, `stash`)
	})
	// failures: the failure that shows it.
	failures = newAlternatives(func() []alt {
		return wordAlts(`⟩`, `fail\w*`, `error\w*`, `reject\w*`, `red`, `non-?zero`,
			`exit(?:s|ed)?\s+(?:code\s+)?0*[1-9][0-9]*`, `rais\w*`, `throw\w*`, `crash\w*`, `deny`, `denies`, `denied`,
			`block\w*`, `refus\w*`, `[45][0-9][0-9]`, `assert\w*`, `catch\w*`, `caught`, `flag\w*`, `trip\w*`)
	})
	// negFailures: a failure that is denied ("does not fail").
	negFailures = newAlternatives(func() []alt {
		return negated(`(?:\s+\S+){0,2}?\s+(?:fail|error|reject|rais|throw|crash|block)`,
			`not`, `never`, `no`, `nothing`, `without`)
	})
	// negActions: an action that is denied ("do not remove").
	negActions = newAlternatives(func() []alt {
		return negated(`(?:\s+\S+){0,3}?\s+(?:remov|revert|delet|disabl|drop|bypass|flip`+
			`|mutat|replac|strip|undo|rollback|swap|corrupt|tamper|chang|patch|unset|send|feed|submit|pass|call|request|post`+
			`|inject|break|weaken|loosen|invert|negat|stub|mock|add|insert|introduc|stash)`,
			`not`, `never`, `no`, `without`)
	})
)

// StatesNegativeControl reports whether a gate's body states a negative
// control in earnest: no excuse anywhere, and at least one mention followed
// by a concrete action and the failure it causes. Matching ignores case.
func StatesNegativeControl(body string) bool { return statesControl(body, true) }

// statesControl is StatesNegativeControl with the excuse veto applied only
// when veto is set; the negative-control test passes false to show that the
// veto is what rejects excuses.
func statesControl(body string, veto bool) bool { return statesLowered(strings.ToLower(body), veto) }

// statesLowered is statesControl on a body already lowercased. It keeps no
// piece of body, which may be a lowerer's buffer.
func statesLowered(body string, veto bool) bool {
	if !strings.Contains(body, "control") {
		return false // every mention and every veto names a control
	}
	if veto && vetoed(body) {
		return false
	}
	stated := false
	mentions(body, maxMentions, func(_, end int) bool {
		stated = statedControl(segmentAfter(body[end:]))
		return !stated
	})
	return stated
}

// lowerer lowercases text as strings.ToLower does, into one buffer reused
// from call to call: lint lowers every gate's body, and copies of them all
// would be garbage at the run's peak of memory.
type lowerer struct{ buf []byte }

// lower returns s lowercased (as strings.ToLower: unicode.ToLower of each
// rune): s itself when nothing changes, else a view of the lowerer's
// buffer, valid until the next call (the caller keeps no piece of it). Text
// that is not valid UTF-8 gets strings.ToLower's own copy.
func (lw *lowerer) lower(s string) string {
	if !utf8.ValidString(s) {
		return strings.ToLower(s)
	}
	lw.buf = lw.buf[:0]
	changed := false
	for _, r := range s {
		l := unicode.ToLower(r)
		changed = changed || l != r
		lw.buf = utf8.AppendRune(lw.buf, l)
	}
	if !changed {
		return s
	}
	return unsafe.String(unsafe.SliceData(lw.buf), len(lw.buf))
}

// mentions calls yield with the bounds of each of the first max mentions
// of a control in body (lowercased), as `negative\s+controls?` finds them,
// until yield returns false; max < 0 means all.
func mentions(body string, max int, yield func(start, end int) bool) {
	for off := 0; max != 0; {
		i := strings.Index(body[off:], "negative")
		if i < 0 {
			return
		}
		start := off + i
		rest := body[start+len("negative"):]
		s := rundoc.TrimLeftSpace(rest)
		after, ok := strings.CutPrefix(s, "control")
		if len(s) == len(rest) || !ok {
			off = start + 1
			continue
		}
		after = strings.TrimPrefix(after, "s")
		end := len(body) - len(after)
		if !yield(start, end) {
			return
		}
		max--
		off = end
	}
}

// maxMentions bounds how many mentions of a control are judged. A real gate
// has one to three; past the bound the gate fails closed (not stated).
const maxMentions = 64

// vetoed reports whether the body excuses itself from a control anywhere.
// vetoRE runs only when a mention is followed by what its match needs.
func vetoed(body string) bool {
	vetoed, after := false, false
	mentions(body, -1, func(start, end int) bool {
		after = after || mayVetoAfter(body, end)
		w := before(body, start)
		vetoed = mayVetoBefore(w) && vetoBeforeRE().MatchString(w)
		return !vetoed
	})
	if vetoed || !after {
		return vetoed
	}
	for _, re := range vetoRE {
		if re().MatchString(body) {
			return true
		}
	}
	return false
}

// mayVetoAfter is a cheap filter for vetoRE on the mention ending at end:
// before the line ends, either the first letter or number after "control"
// starts a deferral term, or "was", "is", "were" or "are" comes before a
// full stop. Every match of vetoRE passes it.
func mayVetoAfter(body string, end int) bool {
	rest := body[strings.LastIndex(body[:end], "control")+len("control"):]
	if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
		rest = rest[:nl]
	}
	for _, r := range rest {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			if strings.ContainsRune("ntlpsdm", r) {
				return true
			}
			break
		}
	}
	if dot := strings.IndexByte(rest, '.'); dot >= 0 {
		rest = rest[:dot]
	}
	return strings.Contains(rest, "is") || strings.Contains(rest, "are") ||
		strings.Contains(rest, "was") || strings.Contains(rest, "were")
}

// mayVetoBefore is a cheap filter for vetoBeforeRE: the window must hold one
// of its words (no, without, skip, omit) for the pattern to match.
func mayVetoBefore(w string) bool {
	return strings.Contains(w, "no") || strings.Contains(w, "without") ||
		strings.Contains(w, "skip") || strings.Contains(w, "omit")
}

// before returns up to 64 bytes of s ending at i, starting on a rune
// boundary.
func before(s string, i int) string {
	j := max(0, i-64)
	for j < i && !utf8.RuneStart(s[j]) {
		j++
	}
	return s[j:i]
}

// maxSegment bounds the text judged after one mention, so a body with
// thousands of mentions in one paragraph stays linear. A control statement
// is a sentence or two; 2,000 bytes is far more than any real one.
const maxSegment = 2000

// segmentAfter cuts the text about one mention: up to the next bold label,
// heading or blank line (at most maxSegment bytes); placeholders removed.
func segmentAfter(s string) string {
	if len(s) > maxSegment {
		k := maxSegment
		for k > 0 && !utf8.RuneStart(s[k]) {
			k--
		}
		s = s[:k]
	}
	if loc := segmentEndRE().FindStringIndex(s); loc != nil {
		s = s[:loc[0]]
	}
	return rundoc.TrimSpace(rundoc.StripPlaceholders(s))
}

// statedControl judges the text after one mention (lowercased). The cheap
// tests run first.
func statedControl(s string) bool {
	return hasWords(s, 4) &&
		actions.match(s) &&
		failures.match(s) &&
		!negFailures.match(s) &&
		!negActions.match(s) &&
		!deferPhrases.match(s)
}

// hasWords reports whether s holds at least n words (runs of \w).
func hasWords(s string, n int) bool {
	in := false
	for _, r := range s {
		w := rundoc.IsWordRune(r)
		if w && !in {
			if n--; n == 0 {
				return true
			}
		}
		in = w
	}
	return n <= 0
}
