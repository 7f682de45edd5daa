package command

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The verbs of issue 45's merge commands (docs/merge.md). Parse reads
// "merge" (app/merge carries it out), "override" and "waive" (the gate
// log keeps an override; readback settles the retro-audit it owes).
const (
	// VerbMerge asks the App to merge the pull request at the head it
	// judged: "merge", no arguments.
	VerbMerge = "merge"
	// VerbOverride makes one failing aepgate check conclude success on the
	// pull request's head, with a reason: "override <check> <reason>".
	VerbOverride = "override"
	// VerbWaive settles the retro-audit an overridden merge owes without
	// an audit, with a reason: "waive <reason>".
	VerbWaive = "waive"
)

// The overridable checks: the App's checks on a pull request's head,
// spelled as checks.Name* spells them (a test in checks holds the two
// together).
var overridable = []string{"aepgate/work-unit", "aepgate/gates", "aepgate/audit", "aepgate/merge"}

// OverridableChecks returns the checks "override" may name, in the order
// the usage names them.
func OverridableChecks() []string { return append([]string(nil), overridable...) }

// notOverridable are the names "override" refuses with a reason of their
// own: what lifts a HOLD, and evidence observed after the merge.
var notOverridable = map[string]string{
	"hold":                "a HOLD is lifted only by `resume`; override never applies to it",
	"resume":              "a HOLD is lifted only by `resume` itself, not by an override",
	"aepgate/readback":    "the readback is what main showed after the merge; it cannot be overridden, only observed again",
	"aepgate/certificate": "a certificate records evidence (an audit and a readback at the merge commit); it is issued, never overridden",
	"aepgate/config":      "a broken .github/aepgate.yml is fixed on the default branch; the policy itself is never overridden",
}

// Override reason bounds: at least MinOverrideWords words of two or more
// letters or digits, at most MaxOverrideReason characters.
const (
	MinOverrideWords  = 3
	MaxOverrideReason = 300
)

// ParseMergeArgs checks the arguments of "merge" (the text after the
// verb): there are none.
func ParseMergeArgs(args string) error {
	if strings.TrimSpace(args) != "" {
		return fmt.Errorf("merge takes no arguments; it merges the pull request at the head its checks judged")
	}
	return nil
}

// ParseOverrideArgs reads the arguments of "override" (the text after the
// verb): "<check> <reason>". The check is one of OverridableChecks, named
// exactly; a HOLD, the readback, the certificate and the config are
// refused with the reason why. The reason is the rest of the line: it
// must hold at least MinOverrideWords words (a word is a run of two or
// more letters or digits) and at most MaxOverrideReason characters, so
// that what the check's title and the ledger keep says why.
func ParseOverrideArgs(args string) (check, reason string, err error) {
	return overrideRules{allowed: overridable, refused: notOverridable, minWords: MinOverrideWords}.parse(args)
}

// overrideRules are the rules ParseOverrideArgs applies; tests drop one at
// a time to watch what it stops get through.
type overrideRules struct {
	allowed  []string          // the checks that may be named; nil: any
	refused  map[string]string // names refused with their own reason
	minWords int               // the reason's least number of words
}

func (o overrideRules) parse(args string) (check, reason string, err error) {
	args = strings.TrimSpace(args)
	check = args
	if i := strings.IndexFunc(args, unicode.IsSpace); i >= 0 {
		check, reason = args[:i], strings.TrimSpace(args[i:])
	}
	if check == "" {
		return "", "", fmt.Errorf("override takes a check (%s) and a reason", strings.Join(overridable, ", "))
	}
	if why, ok := o.refused[strings.ToLower(check)]; ok {
		return check, reason, fmt.Errorf("%s cannot be overridden: %s", check, why)
	}
	if o.allowed != nil && !contains(o.allowed, check) {
		return check, reason, fmt.Errorf("%q is not a check an owner may override (expected one of %s)", check, strings.Join(o.allowed, ", "))
	}
	return check, reason, checkReason(reason, o.minWords)
}

// CheckOverrideReason says what is wrong with an override's reason, nil
// when it is at least MinOverrideWords words and at most
// MaxOverrideReason characters.
func CheckOverrideReason(reason string) error { return checkReason(reason, MinOverrideWords) }

func checkReason(reason string, minWords int) error {
	switch n := utf8.RuneCountInString(reason); {
	case n > MaxOverrideReason:
		return fmt.Errorf("the override's reason is %d characters; at most %d", n, MaxOverrideReason)
	case words(reason) < minWords:
		return fmt.Errorf("override needs a reason of at least %d words after the check (say why the check may be bypassed for this head), not %q", minWords, reason)
	}
	return nil
}

// words counts the runs of two or more letters or digits in s.
func words(s string) int {
	n, run := 0, 0
	for _, r := range s + " " {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			run++
			continue
		}
		if run >= 2 {
			n++
		}
		run = 0
	}
	return n
}

// OverrideRefusal is the rule an App applies when an override arrives,
// beyond its grammar: while a HOLD is in force on the pull request's unit
// (or the project), no override is accepted, whatever check it names,
// since only `resume` lifts a HOLD. It returns "" when the override may
// proceed.
func OverrideRefusal(held bool) string {
	if held {
		return "a HOLD is in force; only `resume` lifts it, and no override is accepted until then"
	}
	return ""
}

// parseOverrideOrWaive reads the check and reason of "override"
// (ParseOverrideArgs), or the reason of "waive", which has the same bounds
// as an override's (CheckWaiveReason).
func parseOverrideOrWaive(c *Command, rest, prefix string) {
	args := strings.TrimSpace(rest)[len(c.Verb):]
	var err error
	if c.Verb == VerbOverride {
		c.Check, c.Reason, err = ParseOverrideArgs(args)
	} else {
		c.Reason = strings.TrimSpace(args)
		err = CheckWaiveReason(c.Reason)
	}
	if err != nil {
		c.Err = usageErr(prefix, "%s", err)
	}
}

// CheckWaiveReason says what is wrong with a waiver's reason, nil when it
// is at least MinOverrideWords words and at most MaxOverrideReason
// characters.
func CheckWaiveReason(reason string) error {
	switch n := utf8.RuneCountInString(reason); {
	case n > MaxOverrideReason:
		return fmt.Errorf("the waiver's reason is %d characters; at most %d", n, MaxOverrideReason)
	case words(reason) < MinOverrideWords:
		return fmt.Errorf("waive needs a reason of at least %d words (say why the merge needs no retro-audit), not %q", MinOverrideWords, reason)
	}
	return nil
}
