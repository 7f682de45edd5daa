// Package refusal is the reason type every verifier in protocol returns: a
// certificate that is not valid, readback that is not verified, a release
// that is not closed. Each reason is a machine token (the craft-protocol
// refusal token, e.g. "missing:mergeSha", "readback-missing:ci",
// "remote-manifest-missing") and, for people, what was expected and what
// was seen.
package refusal

import (
	"fmt"
	"sort"
)

// Refusal is one reason evidence is refused: a machine token and, for
// people, what was expected and what was seen.
type Refusal struct {
	Token    string `json:"token"`
	Expected string `json:"expected"`
	Seen     string `json:"seen"`
}

// String renders the refusal for a person: token, expectation and sighting.
func (r Refusal) String() string {
	return fmt.Sprintf("%s: expected %s, saw %s", r.Token, r.Expected, r.Seen)
}

// Tokens returns the refusals' tokens, sorted and unique.
func Tokens(rs []Refusal) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, r := range rs {
		if !seen[r.Token] {
			seen[r.Token] = true
			out = append(out, r.Token)
		}
	}
	sort.Strings(out)
	return out
}
