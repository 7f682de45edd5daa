package config

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// MergeRule is how one key of a base policy and a repository's file combine
// into the effective value (Resolve).
type MergeRule struct {
	// Key is the field path the rule decides, as in File.Set.
	Key string
	// How says in words what the rule does.
	How   string
	merge func(m *merger, key string)
}

// quoted lists entries for a message: [a, b].
func quoted(list []string) string { return "[" + strings.Join(list, ", ") + "]" }

// containsFold reports whether list holds s, without case.
func containsFold(list []string, s string) bool {
	return slices.ContainsFunc(list, func(o string) bool { return strings.EqualFold(o, s) })
}

// union: the base's entries, then the repository's others (compared without
// case). A repository that sets the key to an empty list while the base
// has entries is refused: it would drop them.
func union(key string, get func(*Config) *[]string) MergeRule {
	return MergeRule{Key: key, How: "union; an explicit [] is refused while the base has entries", merge: func(m *merger, key string) {
		b, r := *get(m.base.Config), *get(m.repo.Config)
		if _, set := m.repo.sets(key); set && len(r) == 0 && len(b) > 0 {
			m.refuse(key, "[] would drop the inherited %s of %s; a repository may only add entries", quoted(b), m.base.Name)
		}
		out, added := slices.Clone(b), false
		for _, s := range r {
			if !containsFold(out, s) {
				out, added = append(out, s), true
			}
		}
		*get(m.out) = out
		m.from(key, len(b) > 0, added)
	}}
}

// narrow: where the base lists entries, the repository may list only some
// of them (the result is its list). An empty base list means "anyone"
// when emptyAll is set (auditors: the repository's list then narrows
// it), else "none" (exemptions: the repository may add none).
func narrow(key string, get func(*Config) *[]string, emptyAll bool) MergeRule {
	how := "the repository may only narrow the base's list (none listed: no exemption may be added)"
	if emptyAll {
		how = "the repository may only narrow the base's list (none listed: anyone, so any list narrows it)"
	}
	return MergeRule{Key: key, How: how, merge: func(m *merger, key string) {
		b, r := *get(m.base.Config), *get(m.repo.Config)
		_, set := m.repo.sets(key)
		switch {
		case !set:
			*get(m.out) = b
			m.from(key, true, false)
			return
		case len(b) == 0 && !emptyAll && len(r) > 0:
			m.refuse(key, "the base %s lists none; a repository may not add %s", m.base.Name, quoted(r))
		case len(b) == 0:
		case len(r) == 0 && emptyAll:
			m.refuse(key, "[] would let anyone in where the base %s lists only %s; a repository may only narrow it", m.base.Name, quoted(b))
		}
		for _, s := range r {
			if len(b) > 0 && !containsFold(b, s) {
				m.refuse(key, "%q is not in the inherited %s of %s; a repository may only narrow it", s, quoted(b), m.base.Name)
			}
		}
		*get(m.out) = r
		m.from(key, false, true)
	}}
}

// least: the stricter of two ordered values is the smaller; a key the
// repository leaves out takes the base's value.
func least[T cmp.Ordered](key string, get func(*Config) *T) MergeRule {
	return MergeRule{Key: key, How: "the stricter (smaller) value", merge: func(m *merger, key string) {
		b, r := *get(m.base.Config), *get(m.repo.Config)
		if _, set := m.repo.sets(key); set && r < b {
			*get(m.out) = r
			m.from(key, false, true)
			return
		}
		*get(m.out) = b
		m.from(key, true, false)
	}}
}

// ranked: the stricter of two values is the later in order.
func ranked(key string, get func(*Config) *string, order ...string) MergeRule {
	how := fmt.Sprintf("the stricter value (in order %s)", strings.Join(order, " < "))
	return MergeRule{Key: key, How: how, merge: func(m *merger, key string) {
		b, r := *get(m.base.Config), *get(m.repo.Config)
		if _, set := m.repo.sets(key); set && slices.Index(order, r) > slices.Index(order, b) {
			*get(m.out) = r
			m.from(key, false, true)
			return
		}
		*get(m.out) = b
		m.from(key, true, false)
	}}
}

// flag: a boolean whose stricter value is strict.
func flag(key string, get func(*Config) *bool, strict bool) MergeRule {
	how := fmt.Sprintf("the stricter value (%t)", strict)
	return MergeRule{Key: key, How: how, merge: func(m *merger, key string) {
		b, r := *get(m.base.Config), *get(m.repo.Config)
		if _, set := m.repo.sets(key); set && r == strict && b != strict {
			*get(m.out) = r
			m.from(key, false, true)
			return
		}
		*get(m.out) = b
		m.from(key, true, false)
	}}
}

// fixed: the base's value binds; a repository that sets another is refused.
func fixed(key string, get func(*Config) *string) MergeRule {
	return MergeRule{Key: key, How: "the base's value; a different one is refused", merge: func(m *merger, key string) {
		b, r := *get(m.base.Config), *get(m.repo.Config)
		if _, set := m.repo.sets(key); set && r != b {
			m.refuse(key, "%q differs from the inherited %q of %s; a repository may not change it", r, b, m.base.Name)
		}
		*get(m.out) = b
		m.from(key, true, false)
	}}
}

// own: a fact about the repository, not a restriction: its value, else the
// base's.
func own(key string, get func(*Config) *string) MergeRule {
	return MergeRule{Key: key, How: "the repository's value, else the base's (where the repository keeps it)", merge: func(m *merger, key string) {
		if _, set := m.repo.sets(key); set {
			*get(m.out) = *get(m.repo.Config)
			m.from(key, false, true)
			return
		}
		*get(m.out) = *get(m.base.Config)
		m.from(key, true, false)
	}}
}

// kept: the base's entries stay, and the repository may add entries the
// base left out (default_contract_paths: a base may opt a default out for
// its repositories, a repository may take it back). A repository that
// lists the key without one of the base's entries is refused: it would
// drop it.
func kept(key string, get func(*Config) *[]string) MergeRule {
	return MergeRule{Key: key, How: "union; leaving out an inherited entry is refused", merge: func(m *merger, key string) {
		b, r := *get(m.base.Config), *get(m.repo.Config)
		_, set := m.repo.sets(key)
		if !set {
			*get(m.out) = b
			m.from(key, true, false)
			return
		}
		for _, s := range b {
			if !containsFold(r, s) {
				m.refuse(key, "leaving out %q would drop it from the inherited %s of %s; a repository may only add entries", s, quoted(b), m.base.Name)
			}
		}
		out, added := slices.Clone(b), false
		for _, s := range r {
			if !containsFold(out, s) {
				out, added = append(out, s), true
			}
		}
		*get(m.out) = out
		m.from(key, true, added)
	}}
}
