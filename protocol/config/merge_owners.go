package config

import "github.com/aepgate/aepgate/protocol/login"

// ownersRule unions owners, except that a repository taking its owners
// from CODEOWNERS lists none of its own: that is not an explicit [], and
// mergeOwnersFrom judges it.
func ownersRule() MergeRule {
	r := union("owners", func(c *Config) *[]string { return &c.Owners })
	list := r.merge
	r.merge = func(m *merger, key string) {
		if m.repo.Config.OwnersFrom == "" {
			list(m, key)
			return
		}
		m.out.Owners = append([]string(nil), m.base.Config.Owners...)
		m.from(key, len(m.base.Config.Owners) > 0, false)
	}
	return r
}

// mergePathOwners unions an owners map's patterns like owners: the base's
// patterns are kept, with the repository's owners added to a pattern both
// name, and a pattern only the repository names is added (and, being more
// specific, takes its paths as it would in one file).
func mergePathOwners(m *merger, key string) {
	b, r := m.base.Config.PathOwners, m.repo.Config.PathOwners
	out := make([]PathOwner, 0, len(b)+len(r))
	for _, p := range b {
		out = append(out, PathOwner{Pattern: p.Pattern, Owners: append([]string(nil), p.Owners...)})
	}
	for _, p := range r {
		i := indexPattern(out, p.Pattern)
		if i < 0 {
			out = append(out, p)
			continue
		}
		for _, o := range p.Owners {
			if !login.In(out[i].Owners, o) {
				out[i].Owners = append(out[i].Owners, o)
			}
		}
	}
	m.out.PathOwners = out
	m.from(key, len(b) > 0, len(r) > 0)
}

func indexPattern(ps []PathOwner, pattern string) int {
	for i, p := range ps {
		if p.Pattern == pattern {
			return i
		}
	}
	return -1
}

// mergeOwnersFrom keeps the base's owners source. CODEOWNERS' owners
// replace the owners list: so a repository may read its owners from
// CODEOWNERS only when the base lists no owners of its own, and under a
// base that reads CODEOWNERS it may list none (they would be dropped
// without a word).
func mergeOwnersFrom(m *merger, key string) {
	b, r := m.base.Config, m.repo.Config
	switch {
	case b.OwnersFrom != "" && (len(r.Owners) > 0 || len(r.PathOwners) > 0):
		m.refuse("owners", "the base %s takes its owners from %s, which would replace the repository's; name them in CODEOWNERS instead", m.base.Name, b.OwnersFrom)
	case b.OwnersFrom != "":
		m.out.OwnersFrom = b.OwnersFrom
		m.from(key, true, false)
	case r.OwnersFrom != "" && (len(b.Owners) > 0 || len(b.PathOwners) > 0):
		m.refuse("owners", "owners from %s would replace the inherited owners %s of %s; list the repository's owners instead", r.OwnersFrom, quoted(b.AllOwners()), m.base.Name)
	default:
		m.from(key, false, r.OwnersFrom != "")
	}
}
