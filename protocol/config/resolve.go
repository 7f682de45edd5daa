package config

import (
	"fmt"
	"strings"
)

// Source says where a resolved value came from.
type Source string

// The sources of a resolved value.
const (
	// FromDefault: neither file sets the key; Default's value applies.
	FromDefault Source = "default"
	// FromBase: the base policy's value (the repository adds nothing).
	FromBase Source = "base"
	// FromRepository: the repository file's value.
	FromRepository Source = "repository"
	// FromBoth: the base's entries and the repository's, together.
	FromBoth Source = "base + repository"
)

// Resolved is an effective policy: the config every check uses and where
// the value of each key came from.
type Resolved struct {
	Config *Config
	// Base is the extends value of the repository's file ("" when it
	// extends nothing).
	Base string
	// Sources holds, by key (MergeRule.Key), where its value came from.
	Sources map[string]Source
}

// Resolve is repo's effective policy. A file that extends nothing is its
// own policy (base must then be nil). A file that extends a base is merged
// with it by rules (DefaultMergeRules; a negative-control test removes one),
// starting from the repository's values: each rule sets its key from both
// files, so a repository may only add restrictions. The base must not
// itself extend another (one level), and without the base Resolve returns
// ErrNoBase: it never falls back to the repository's file alone. Refusals
// are positioned Errors in the file that holds the offending key.
func Resolve(repo, base *File, rules []MergeRule) (*Resolved, error) {
	if repo.Config.Extends == "" {
		if base != nil {
			return nil, fmt.Errorf("%s extends no base; a base policy applies only to a file with \"extends\"", repo.Name)
		}
		return standalone(repo, rules), nil
	}
	if base == nil {
		return nil, fmt.Errorf("%s extends %s: %w", repo.Name, repo.Config.Extends, ErrNoBase)
	}
	if base.Config.Extends != "" {
		p := base.Set["extends"]
		return nil, Errors{{File: base.Name, Line: p.Line, Column: p.Column, Field: "extends", Message: fmt.Sprintf(
			"the base policy itself extends %s; only one level is supported, so write what it inherits into the base", base.Config.Extends)}}
	}
	c := *repo.Config
	m := &merger{base: base, repo: repo, out: &c, src: map[string]Source{}}
	for _, r := range rules {
		r.merge(m, r.Key)
	}
	m.after()
	if len(m.errs) > 0 {
		sortErrors(m.errs)
		return nil, m.errs
	}
	return &Resolved{Config: m.out, Base: repo.Config.Extends, Sources: m.src}, nil
}

// standalone is the Resolved of a file that extends nothing.
func standalone(f *File, rules []MergeRule) *Resolved {
	src := map[string]Source{}
	for _, r := range rules {
		src[r.Key] = FromDefault
		if f.setsUnder(r.Key) || f.setsOwnersForm(r.Key) {
			src[r.Key] = FromRepository
		}
	}
	return &Resolved{Config: f.Config, Sources: src}
}

// setsUnder reports whether the file sets key or a key below it.
func (f *File) setsUnder(key string) bool {
	for k := range f.Set {
		if k == key || strings.HasPrefix(k, key+".") {
			return true
		}
	}
	return false
}

// setsOwnersForm reports whether the file sets the merge rule key that is
// a form of its owners key, not a key of its own: an owners map's patterns
// (path_owners) or owners: {from: CODEOWNERS} (owners_from).
func (f *File) setsOwnersForm(key string) bool {
	switch key {
	case "path_owners":
		return len(f.Config.PathOwners) > 0
	case "owners_from":
		return f.Config.OwnersFrom != ""
	}
	return false
}

// merger holds one Resolve: the two files, the config being built, the
// refusals and the sources.
type merger struct {
	base, repo *File
	out        *Config
	errs       Errors
	src        map[string]Source
}

// refuse records a refusal of the repository's key, positioned at it (or
// at the first key it sets below it).
func (m *merger) refuse(key, format string, args ...any) {
	p, ok := m.repo.sets(key)
	for k, q := range m.repo.Set {
		if !ok && strings.HasPrefix(k, key+".") {
			p, ok = q, true
		}
	}
	m.errs = append(m.errs, Error{File: m.repo.Name, Line: p.Line, Column: p.Column, Field: key, Message: fmt.Sprintf(format, args...)})
}

// from records key's source: the base contributed, the repository did, or
// both; when neither did, whichever file sets the key, else the default.
func (m *merger) from(key string, base, repo bool) {
	s := FromDefault
	switch {
	case base && repo:
		s = FromBoth
	case repo:
		s = FromRepository
	case base && m.base.setsUnder(key):
		s = FromBase
	case !base && m.repo.setsUnder(key):
		s = FromRepository
	case !base && m.base.setsUnder(key):
		s = FromBase
	}
	m.src[key] = s
}

// after checks what only the merged config can show: stall bounds still
// in order and no more release assets than allowed.
func (m *merger) after() {
	if s := m.out.Stall; s.StalledAfter <= s.SuspectAfter {
		m.refuse("stall", "merged with the base %s, stalled_after (%s) must stay longer than suspect_after (%s)", m.base.Name, s.StalledAfter, s.SuspectAfter)
	}
	if n := len(m.out.Release.Assets); n > MaxReleaseAssets {
		m.refuse("release.assets", "merged with the base %s, %d release assets; at most %d", m.base.Name, n, MaxReleaseAssets)
	}
}
