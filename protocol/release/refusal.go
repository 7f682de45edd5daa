package release

import (
	"fmt"
	"sort"
)

// Refusal is one reason a release is not closed: a machine token (the
// craft-protocol refusal token, e.g. "remote-manifest-missing") and, for people,
// what was expected and what was seen.
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
