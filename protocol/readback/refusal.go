package readback

import (
	"fmt"
	"sort"
)

// Refusal is one reason readback is not verified: a machine token (e.g.
// "readback-missing:ci") and, for people,
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
