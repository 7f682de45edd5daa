package rundoc

import (
	"strings"
)

// IDChars is the character set of a task, gate or report ID.
const IDChars = `[A-Za-z0-9_.\-]+`

// HasDigit reports whether an ID contains a digit: only such headings are
// tasks or gates.
func HasDigit(id string) bool { return strings.ContainsAny(id, "0123456789") }

// PhaseOf returns the phase number of an ID with a P<n>- prefix, as a digit
// string without leading zeros ("P01-T1" → "1"), and false without one.
func PhaseOf(id string) (string, bool) {
	d, ok := phasePrefix(id)
	if !ok {
		return "", false
	}
	return NormNumber(d), true
}

// NormNumber strips leading zeros from a digit string ("007" → "7", "0" → "0").
func NormNumber(d string) string {
	d = strings.TrimLeft(d, "0")
	if d == "" {
		return "0"
	}
	return d
}

// LessNumber compares two normalized digit strings numerically without
// converting them (they may be arbitrarily long).
func LessNumber(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}

// IsGateID reports whether an ID has the gate form: it ends in -G<digits> or
// is exactly G<digits>, in any case.
func IsGateID(id string) bool { return isGateID(id) }

// IsGate reports whether a section is a gate: its ID has the gate form, or
// its title contains the word "gate" (aepgate matches the word; aepkit
// matches the substring, so "Investigate" was a gate there).
func IsGate(id, title string) bool { return IsGateID(id) || hasGateWord(title) }
