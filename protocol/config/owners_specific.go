package config

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/codeowners"
	"github.com/aepgate/aepgate/protocol/glob"
	"github.com/aepgate/aepgate/protocol/login"
)

// OwnersOf are who may approve a change to the path name. With owners
// from CODEOWNERS, the last matching line's owners; otherwise the owners of
// the most specific PathOwners pattern that matches (MoreSpecific). A path
// nothing matches, or that a CODEOWNERS line leaves without owners (none,
// or e-mail addresses only), is the repository's: Owners.
func (c *Config) OwnersOf(name string) []string {
	if c.CodeOwners != nil {
		if o, ok := c.CodeOwners.Owners(name); ok && len(o) > 0 {
			return o
		}
		return c.Owners
	}
	var best *PathOwner
	for i := range c.PathOwners {
		p := &c.PathOwners[i]
		if MatchPath(p.Pattern, name) && (best == nil || !MoreSpecific(best.Pattern, p.Pattern)) {
			best = p // a tie goes to the pattern written later
		}
	}
	if best == nil {
		return c.Owners
	}
	return best.Owners
}

// MoreSpecific reports whether pattern a is more specific than pattern b
// (two patterns that both match a path). The first rule that tells them
// apart decides:
//  1. segment by segment from the left, the first segment where they
//     differ in kind: a literal segment ("api") beats one with wildcards
//     ("*.proto", "v?"), which beats "**";
//  2. the pattern with more segments;
//  3. the pattern with more literal characters (not *, ?, [...]).
//
// Patterns compare as they match (glob.Canonical): a pattern without a
// slash, which matches at any depth, as "**/" and it; a leading or
// trailing "/" left out. Otherwise neither is, and OwnersOf takes the one
// written later. So
// "docs/api/**" beats "docs/**", "docs/*.md" beats "docs/**", "api/**"
// beats "**/*.proto", and every pattern beats the "*" fallback.
func MoreSpecific(a, b string) bool {
	sa, sb := glob.Canonical(a), glob.Canonical(b) // "*.proto" is "**/*.proto"
	for i := 0; i < len(sa) && i < len(sb); i++ {
		if ra, rb := segmentRank(sa[i]), segmentRank(sb[i]); ra != rb {
			return ra > rb
		}
	}
	if len(sa) != len(sb) {
		return len(sa) > len(sb)
	}
	return literals(a) > literals(b)
}

// segmentRank ranks a pattern segment: 3 literal, 2 with wildcards, 1 "**".
func segmentRank(s string) int {
	switch {
	case s == "**":
		return 1
	case strings.ContainsAny(s, `*?[\`):
		return 2
	}
	return 3
}

// literals counts a pattern's characters outside wildcards and classes.
func literals(p string) int {
	n, class := 0, false
	for _, r := range p {
		switch {
		case class:
			class = r != ']'
		case r == '[':
			class = true
		case r != '*' && r != '?':
			n++
		}
	}
	return n
}

// WithCodeOwners is a copy of c whose owners come from the CODEOWNERS file
// f: path owners by its lines (OwnersOf), the repository's owners those of
// its last "*" line (none without one). c is unchanged.
func (c *Config) WithCodeOwners(f *codeowners.File) *Config {
	out := *c
	out.CodeOwners, out.Owners = f, nil
	for _, r := range f.Rules {
		if r.Pattern == FallbackPattern {
			out.Owners = r.Owners
		}
	}
	return &out
}

// AllOwners are everyone who may approve some path: the repository's
// owners and every path owner, each once.
func (c *Config) AllOwners() []string {
	var out []string
	for _, list := range c.pathOwnerLists() {
		for _, s := range list {
			if !login.In(out, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// pathOwnerLists are the owner lists: the repository's, then each path's.
func (c *Config) pathOwnerLists() [][]string {
	lists := [][]string{c.Owners}
	for _, p := range c.PathOwners {
		lists = append(lists, p.Owners)
	}
	if c.CodeOwners != nil {
		for _, r := range c.CodeOwners.Rules {
			lists = append(lists, r.Owners)
		}
	}
	return lists
}

// expandPaths are c's path owners and CODEOWNERS rules with each list
// passed through expand (WithMembers), copied.
func (c *Config) expandPaths(expand func([]string) []string) ([]PathOwner, *codeowners.File) {
	var paths []PathOwner
	for _, p := range c.PathOwners {
		p.Owners = expand(p.Owners)
		paths = append(paths, p)
	}
	if c.CodeOwners == nil {
		return paths, nil
	}
	f := &codeowners.File{Path: c.CodeOwners.Path}
	for _, r := range c.CodeOwners.Rules {
		r.Owners = expand(r.Owners)
		f.Rules = append(f.Rules, r)
	}
	return paths, f
}
