package config

import (
	"fmt"
	"slices"
	"strings"
)

// AuthoritySource is one default contract path: a file that decides who
// may do what, or what agents are told, so that a pull request changing it
// would otherwise change the rules that judge it (DESIGN "inputs are kept
// like decisions").
type AuthoritySource struct {
	// Glob is the contract path (MatchPath syntax).
	Glob string
	// Source says in words which source of authority it is.
	Source string
}

// The sources of authority the default contract paths name.
const (
	sourceCodeOwners   = "the code owners (CODEOWNERS)"
	sourceInstructions = "the instructions agents follow"
	sourceMCP          = "the tools agents may call (an MCP server config)"
)

// authoritySources are the default contract paths: every place GitHub
// reads CODEOWNERS from (codeowners.Locations; a pull request adding a file
// at an earlier location replaces the one in force), the files coding
// agents read their instructions from (AGENTS.md and CLAUDE.md in any
// folder, since agents read the nearest one), and the MCP server configs
// that give agents their tools.
var authoritySources = []AuthoritySource{
	{".github/CODEOWNERS", sourceCodeOwners},
	{"/CODEOWNERS", sourceCodeOwners}, // anchored: a pattern without a slash matches at any depth (docs/config.md, "Path patterns")
	{"docs/CODEOWNERS", sourceCodeOwners},
	{"**/AGENTS.md", sourceInstructions},
	{"**/CLAUDE.md", sourceInstructions},
	{".github/copilot-instructions.md", sourceInstructions},
	{".github/instructions/**", sourceInstructions},
	{".cursor/rules/**", sourceInstructions},
	{".cursorrules", sourceInstructions},
	{".mcp.json", sourceMCP},
	{".vscode/mcp.json", sourceMCP},
	{".cursor/mcp.json", sourceMCP},
}

// builtinSources say which source of authority each built-in contract
// path is.
var builtinSources = map[string]string{
	".github/aepgate.yml":   "the repository's aepgate policy",
	".github/workflows/**":  "the workflows that produce the CI evidence",
	"plans/*/progress.json": "an executor plan's contract",
}

// DefaultContractPaths returns the default contract paths, the value of
// default_contract_paths when the config leaves it out.
func DefaultContractPaths() []string {
	out := make([]string, len(authoritySources))
	for i, s := range authoritySources {
		out[i] = s.Glob
	}
	return out
}

// checkDefaultContractPath is the error for an entry of
// default_contract_paths that is not a default, or "".
func checkDefaultContractPath(s string) string {
	if slices.Contains(DefaultContractPaths(), s) {
		return ""
	}
	return fmt.Sprintf("%q is not a default contract path; list here only the defaults to keep (%s) and add other paths under contract_paths", s, strings.Join(DefaultContractPaths(), ", "))
}

// AuthoritySource says which source of authority the changed file name is
// by the built-in and the kept default contract paths ("" when none names
// it, e.g. a path only contract_paths lists).
func (c *Config) AuthoritySource(name string) string {
	for _, g := range builtinContractPaths {
		if MatchPath(g, name) {
			return builtinSources[g]
		}
	}
	for _, s := range authoritySources {
		if slices.Contains(c.DefaultContractPaths, s.Glob) && MatchPath(s.Glob, name) {
			return s.Source
		}
	}
	return ""
}
