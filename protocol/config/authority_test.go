package config

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDefaultContractPaths: the sources of authority are contract paths
// unless the config opts them out, and each says which source it is.
func TestDefaultContractPaths(t *testing.T) {
	keepAgents := "version: 1\ndefault_contract_paths: [\"**/AGENTS.md\"]\n"
	for _, tt := range []struct {
		name, file, path string
		wantContract     bool
		wantSource       string
	}{
		{"CODEOWNERS in .github", "version: 1\n", ".github/CODEOWNERS", true, sourceCodeOwners},
		{"CODEOWNERS at the root", "version: 1\n", "CODEOWNERS", true, sourceCodeOwners},
		{"CODEOWNERS in docs", "version: 1\n", "docs/CODEOWNERS", true, sourceCodeOwners},
		{"AGENTS.md at the root", "version: 1\n", "AGENTS.md", true, sourceInstructions},
		{"AGENTS.md in a folder", "version: 1\n", "svc/api/AGENTS.md", true, sourceInstructions},
		{"CLAUDE.md", "version: 1\n", "CLAUDE.md", true, sourceInstructions},
		{"copilot instructions", "version: 1\n", ".github/copilot-instructions.md", true, sourceInstructions},
		{"path instructions", "version: 1\n", ".github/instructions/go.instructions.md", true, sourceInstructions},
		{"cursor rules", "version: 1\n", ".cursor/rules/style.mdc", true, sourceInstructions},
		{"mcp config", "version: 1\n", ".mcp.json", true, sourceMCP},
		{"vscode mcp config", "version: 1\n", ".vscode/mcp.json", true, sourceMCP},
		{"the config is built in", "version: 1\n", ".github/aepgate.yml", true, "the repository's aepgate policy"},
		{"a configured path has no source", "version: 1\ncontract_paths: [\"api/**\"]\n", "api/v1.proto", true, ""},
		{"an ordinary file", "version: 1\n", "README.md", false, ""},
		{"a CODEOWNERS elsewhere", "version: 1\n", "src/CODEOWNERS", false, ""},
		{"opted out: CODEOWNERS", keepAgents, ".github/CODEOWNERS", false, ""},
		{"opted out: mcp", keepAgents, ".mcp.json", false, ""},
		{"kept: AGENTS.md", keepAgents, "AGENTS.md", true, sourceInstructions},
		{"all opted out", "version: 1\ndefault_contract_paths: []\n", "AGENTS.md", false, ""},
		{"null keeps the defaults", "version: 1\ndefault_contract_paths: null\n", "CODEOWNERS", true, sourceCodeOwners},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse(DefaultPath, []byte(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := c.IsContractPath(tt.path); got != tt.wantContract {
				t.Errorf("IsContractPath(%q) = %v, want %v", tt.path, got, tt.wantContract)
			}
			if got := c.AuthoritySource(tt.path); got != tt.wantSource {
				t.Errorf("AuthoritySource(%q) = %q, want %q", tt.path, got, tt.wantSource)
			}
		})
	}
}

// TestDefaultContractPathsRefused: an entry that is not a default is an
// error naming the defaults, never silently taken as a new contract path.
func TestDefaultContractPathsRefused(t *testing.T) {
	_, err := Parse(DefaultPath, []byte("version: 1\ndefault_contract_paths: [\"api/**\"]\n"))
	if err == nil || !strings.Contains(err.Error(), `default_contract_paths[0]: "api/**" is not a default contract path`) {
		t.Fatalf("Parse = %v; want the entry refused", err)
	}
}

// TestDefaultContractPathsShown: the resolved policy shows the defaults
// in force (config validate --resolved).
func TestDefaultContractPathsShown(t *testing.T) {
	r, err := resolveText(t, "", "version: 1\n", DefaultMergeRules())
	if err != nil {
		t.Fatal(err)
	}
	got := shown(r, "default_contract_paths")
	want := map[string]string{"default_contract_paths": `[".github/CODEOWNERS","/CODEOWNERS","docs/CODEOWNERS","**/AGENTS.md","**/CLAUDE.md",".github/copilot-instructions.md",".github/instructions/**",".cursor/rules/**",".cursorrules",".mcp.json",".vscode/mcp.json",".cursor/mcp.json"] # default`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resolved (-want +got):\n%s", diff)
	}
}
