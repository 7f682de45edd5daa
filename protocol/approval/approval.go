// Package approval counts the distinct people among owners' answers, for
// the gates that need more than one owner (gates.<category>.approvals,
// docs/merge.md): the same person answering twice, from one account or
// from a second account sharing a verified e-mail, or through an agent
// acting for them, counts once. It is pure: answers in, a tally out.
package approval

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/login"
)

// Answer is one owner's accepted answer to a gate.
type Answer struct {
	// Login is the answering account.
	Login string
	// Emails are the account's verified e-mail addresses, where known.
	// Two accounts that share one are one person.
	Emails []string
	// ActsFor, when the answering account is an agent's (the config's
	// agents), is the person who instructed it: the answer is theirs.
	ActsFor string
}

// Rules says which identities join answers into one person. The zero
// value applies every rule; a negative-control test turns one off to
// watch the same person count twice.
type Rules struct {
	// CountRepeats counts every answer of one login (the rule: a login
	// counts once).
	CountRepeats bool
	// IgnoreEmails does not join accounts sharing a verified e-mail.
	IgnoreEmails bool
	// IgnoreInstructors does not join an agent's answer to its instructor.
	IgnoreInstructors bool
}

// Tally is how many distinct people answered, against how many are needed.
type Tally struct {
	// Need is the number of distinct owners the gate needs (at least 1).
	Need int
	// People are the distinct people who answered, each as the logins of
	// their answers, in the order of their first answer.
	People [][]string
	// Joined says why answers were counted as one person, e.g. "carol-2
	// is carol (same verified e-mail)".
	Joined []string
}

// Satisfied reports whether enough distinct people answered.
func (t Tally) Satisfied() bool { return len(t.People) >= t.Need }

// Missing is how many more distinct owners must answer (0 when satisfied).
func (t Tally) Missing() int { return max(0, t.Need-len(t.People)) }

// Reason says, in one sentence, how the answers count: who counted, what
// was joined and, when short, how many more distinct owners must answer.
func (t Tally) Reason() string {
	var who []string
	for _, p := range t.People {
		who = append(who, strings.Join(p, "/"))
	}
	s := fmt.Sprintf("%d of %d distinct owners answered", len(t.People), t.Need)
	if len(who) > 0 {
		s += " (" + strings.Join(who, ", ") + ")"
	}
	if len(t.Joined) > 0 {
		s += "; " + strings.Join(t.Joined, "; ")
	}
	if m := t.Missing(); m > 0 {
		s += fmt.Sprintf("; %d more owner(s), other than those who answered, must answer", m)
	}
	return s
}

// Count tallies answers against need distinct owners under r. An answer
// without a login is no one's and is not counted.
func Count(answers []Answer, need int, r Rules) Tally {
	var as []Answer
	for _, a := range answers {
		if a.Login != "" {
			as = append(as, a)
		}
	}
	parent := make([]int, len(as))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			i = parent[i]
		}
		return i
	}
	t := Tally{Need: max(1, need)}
	for j := range as {
		for i := range j {
			if why := r.same(as[i], as[j]); why != "" && find(i) != find(j) {
				parent[find(j)] = find(i)
				t.Joined = append(t.Joined, why)
			}
		}
	}
	t.People = group(as, find)
	return t
}

// group lists each person's logins (each once), people in the order of
// their first answer.
func group(as []Answer, find func(int) int) [][]string {
	index := map[int]int{}
	var out [][]string
	for i, a := range as {
		root := find(i)
		k, ok := index[root]
		if !ok {
			k, index[root] = len(out), len(out)
			out = append(out, nil)
		}
		if !login.In(out[k], a.Login) {
			out[k] = append(out[k], a.Login)
		}
	}
	return out
}

// same says why a and b are one person under r, "" when they are not.
func (r Rules) same(a, b Answer) string {
	switch {
	case !r.CountRepeats && login.Equal(a.Login, b.Login):
		return a.Login + " answered twice"
	case !r.IgnoreInstructors && a.ActsFor != "" && login.Equal(a.ActsFor, b.Login):
		return a.Login + " acts for " + b.Login
	case !r.IgnoreInstructors && b.ActsFor != "" && login.Equal(b.ActsFor, a.Login):
		return b.Login + " acts for " + a.Login
	case !r.IgnoreInstructors && a.ActsFor != "" && login.Equal(a.ActsFor, b.ActsFor):
		return a.Login + " and " + b.Login + " both act for " + a.ActsFor
	case !r.IgnoreEmails && sharesEmail(a.Emails, b.Emails):
		return b.Login + " is " + a.Login + " (same verified e-mail)"
	}
	return ""
}

// sharesEmail reports whether the two lists hold one address, compared
// without case and surrounding spaces.
func sharesEmail(a, b []string) bool {
	for _, x := range a {
		x = strings.ToLower(strings.TrimSpace(x))
		if x == "" {
			continue
		}
		for _, y := range b {
			if x == strings.ToLower(strings.TrimSpace(y)) {
				return true
			}
		}
	}
	return false
}
