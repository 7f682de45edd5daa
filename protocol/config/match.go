package config

import (
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/glob"
	"github.com/aepgate/aepgate/protocol/login"
)

// MatchPath reports whether the slash-separated, repository-relative file
// name matches pattern: glob.Match, the one dialect of every path pattern
// (GitHub's CODEOWNERS rules; docs/config.md "Path patterns"):
// "docs/contract/**" matches "docs/contract/x/y.md", "*.proto" a .proto
// file at any depth, "docs/" every file under any folder called docs.
func MatchPath(pattern, name string) bool { return glob.Match(pattern, name) }

// builtinContractPaths are contract paths whatever the config says: the
// config itself, the workflows (they run with the repository's secrets and
// produce the CI evidence) and executor plans' immutable contracts:
// progress.json and the phase briefs that carry each task's files and
// commands (docs/config.md; executor-state).
var builtinContractPaths = []string{".github/aepgate.yml", ".github/workflows/**", "plans/*/progress.json", "plans/*/phases/*.md"}

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

// IsRunDocumentDir reports whether dir is one of the run-document folders
// (glob.MatchDir: the folder itself matches, not a folder inside it).
func (c *Config) IsRunDocumentDir(dir string) bool {
	dir = strings.TrimSuffix(dir, "/")
	return slices.ContainsFunc(c.RunDocuments, func(p string) bool { return glob.MatchDir(p, dir) })
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
