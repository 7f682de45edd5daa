package config

import (
	"path"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/glob"
	"github.com/aepgate/aepgate/protocol/login"
)

// MatchPath reports whether the slash-separated, repository-relative name
// matches pattern. Each pattern segment uses path.Match syntax (*, ?,
// [...]) within one path segment, and a segment "**" matches any number of
// whole segments, none included: "docs/contract/**" matches
// "docs/contract/a.md" and "docs/contract/x/y.md"; "**/*.proto" matches
// "a.proto" and "api/v1/a.proto". A leading "./" on either side is ignored.
func MatchPath(pattern, name string) bool {
	pattern = strings.TrimPrefix(pattern, "./")
	name = strings.TrimPrefix(name, "./")
	return matchSegments(strings.Split(pattern, "/"), strings.Split(name, "/"))
}

// matchSegments matches pattern segments against name segments ("**" any
// number of whole segments; glob.Segments), each other segment by
// path.Match.
func matchSegments(pat, name []string) bool {
	return glob.Segments(pat, name, func(p, n string) bool {
		ok, err := path.Match(p, n)
		return err == nil && ok
	})
}

// builtinContractPaths are contract paths whatever the config says: the
// config itself, the workflows (they run with the repository's secrets and
// produce the CI evidence) and executor plans' immutable contracts
// (docs/config.md).
var builtinContractPaths = []string{".github/aepgate.yml", ".github/workflows/**", "plans/*/progress.json"}

// BuiltinContractPaths returns the contract paths that apply whatever the
// config says.
func BuiltinContractPaths() []string { return slices.Clone(builtinContractPaths) }

// IsContractPath reports whether a changed file is under a contract path
// (BuiltinContractPaths, the kept default contract paths or the configured
// ones), so that its change needs an owner's approval.
func (c *Config) IsContractPath(name string) bool {
	return c.isContractPath(builtinContractPaths, name)
}

// isContractPath is IsContractPath with the built-in paths given (tests
// pass fewer to show what each one stops).
func (c *Config) isContractPath(builtins []string, name string) bool {
	match := func(p string) bool { return MatchPath(p, name) }
	return slices.ContainsFunc(builtins, match) || slices.ContainsFunc(c.DefaultContractPaths, match) || slices.ContainsFunc(c.ContractPaths, match)
}

// IsRunDocumentDir reports whether dir is one of the run-document folders.
func (c *Config) IsRunDocumentDir(dir string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return slices.ContainsFunc(c.RunDocuments, func(p string) bool { return MatchPath(strings.TrimSuffix(p, "/"), dir) })
}

// IsOwner reports whether login is a listed owner. GitHub logins are
// case-insensitive in ASCII, and so is the comparison (login.Equal).
func (c *Config) IsOwner(login string) bool { return hasLogin(c.Owners, login) }

// IsCoordinator reports whether login is a listed coordinator.
func (c *Config) IsCoordinator(login string) bool { return hasLogin(c.Coordinators, login) }

// MayAudit reports whether login's reviews can count as independent audits
// as far as the config is concerned: any login when auditors is unset,
// otherwise only the listed ones. (Independence from the author is the
// audit rules' business.)
func (c *Config) MayAudit(login string) bool {
	return len(c.Auditors) == 0 || hasLogin(c.Auditors, login)
}

func hasLogin(list []string, name string) bool {
	return login.In(list, name)
}
