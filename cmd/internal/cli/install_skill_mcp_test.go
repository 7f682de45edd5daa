package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mcpEntry is aepgate's server as Claude Code and Cursor read it.
var mcpEntry = map[string]any{"command": "aepgate", "args": []any{"mcp"}}

// TestInstallSkillMCP: --mcp adds aepgate's server to each agent's MCP
// configuration, keeping what the file held, skipping a file that already
// names it unless --force (JSON only), and keeping a private file private.
func TestInstallSkillMCP(t *testing.T) {
	tests := []struct {
		name     string
		agent    string
		file     string // relative to the project, or to CODEX_HOME for codex
		existing string
		mode     os.FileMode
		force    bool
		wantCode int
		wantOut  string
		want     string // the file afterwards; JSON compared as values
	}{
		{"claude, new", "claude", ".mcp.json", "", 0, false, 0, "installed", `{"mcpServers": {"aepgate": {"command": "aepgate", "args": ["mcp"]}}}`},
		{"cursor, new", "cursor", ".cursor/mcp.json", "", 0, false, 0, "installed", `{"mcpServers": {"aepgate": {"command": "aepgate", "args": ["mcp"]}}}`},
		{"claude, beside another server", "claude", ".mcp.json", `{"mcpServers": {"db": {"command": "db-mcp"}}, "other": 1}`, 0o644, false, 0, "installed",
			`{"mcpServers": {"db": {"command": "db-mcp"}, "aepgate": {"command": "aepgate", "args": ["mcp"]}}, "other": 1}`},
		{"claude, already there", "claude", ".mcp.json", `{"mcpServers": {"aepgate": {"command": "old"}}}`, 0o644, false, 0, "skip:", `{"mcpServers": {"aepgate": {"command": "old"}}}`},
		{"claude, replaced with --force", "claude", ".mcp.json", `{"mcpServers": {"aepgate": {"command": "old"}}}`, 0o644, true, 0, "installed",
			`{"mcpServers": {"aepgate": {"command": "aepgate", "args": ["mcp"]}}}`},
		{"claude, not JSON", "claude", ".mcp.json", `{oops`, 0o644, false, 2, "", `{oops`},
		{"codex, new", "codex", "config.toml", "", 0, false, 0, "installed", mcpTOMLTable},
		{"codex, a private file kept", "codex", "config.toml", "model = \"o3\"\n[mcp_servers.db]\ncommand = \"db\"", 0o600, false, 0, "installed",
			"model = \"o3\"\n[mcp_servers.db]\ncommand = \"db\"\n\n" + mcpTOMLTable},
		{"codex, already there", "codex", "config.toml", mcpTOMLTable, 0o600, false, 0, "skip:", mcpTOMLTable},
		{"codex, --force never rewrites TOML", "codex", "config.toml", mcpTOMLTable, 0o600, true, 2, "", mcpTOMLTable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, codexHome := t.TempDir(), t.TempDir()
			base := dir
			if tt.agent == "codex" {
				base = codexHome
			}
			path := filepath.Join(base, tt.file)
			if tt.existing != "" {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(tt.existing), tt.mode); err != nil {
					t.Fatal(err)
				}
				os.Chmod(path, tt.mode)
			}
			t.Setenv("CODEX_HOME", codexHome)
			args := []string{"install-skill", dir, "--mcp", "--agent", tt.agent}
			if tt.force {
				args = append(args, "--force")
			}
			code, out, errOut := runCLI(t, args...)
			if code != tt.wantCode || !strings.HasPrefix(out, tt.wantOut) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want %d and %q", code, out, errOut, tt.wantCode, tt.wantOut)
			}
			got := skillRead(t, path)
			if strings.HasSuffix(path, ".json") && json.Valid([]byte(tt.want)) {
				if diff := cmp.Diff(asJSON(t, []byte(tt.want)), asJSON(t, []byte(got))); diff != "" {
					t.Errorf("%s (-want +got):\n%s", path, diff)
				}
			} else if got != tt.want {
				t.Errorf("%s:\n got %q\nwant %q", path, got, tt.want)
			}
			if tt.mode != 0 {
				if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != tt.mode {
					t.Errorf("mode %v, want %v (%v)", fi.Mode().Perm(), tt.mode, err)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, ".claude")); err == nil {
				t.Error("--mcp installed the skill as well")
			}
		})
	}
}

// TestInstallSkillMCPPrintsAndRefuses: --dest - prints each agent's
// configuration; --global with claude is refused with the command to run;
// --global with cursor writes under the home directory.
func TestInstallSkillMCPPrintsAndRefuses(t *testing.T) {
	for agent, want := range map[string]string{"claude": `"mcpServers"`, "cursor": `"mcpServers"`, "codex": "[mcp_servers.aepgate]"} {
		code, out, _ := runCLI(t, "install-skill", "--mcp", "--agent", agent, "--dest", "-")
		if code != 0 || !strings.Contains(out, want) || !strings.Contains(out, `"mcp"`) {
			t.Errorf("%s --dest -: exit %d, stdout %q", agent, code, out)
		}
	}
	if code, _, errOut := runCLI(t, "install-skill", "--mcp", "--agent", "claude", "--global"); code != 2 || !strings.Contains(errOut, "claude mcp add --scope user aepgate -- aepgate mcp") {
		t.Errorf("claude --global: exit %d, stderr %q", code, errOut)
	}
	home := t.TempDir()
	o := skillOptions{agent: "cursor", global: true, mcp: true}
	env := skillEnv{getenv: func(string) string { return "" }, home: func() (string, error) { return home, nil }}
	var out bytes.Buffer
	if err := o.run(streams{out: &out}, t.TempDir(), env); err != nil {
		t.Fatal(err)
	}
	if got := asJSON(t, []byte(skillRead(t, filepath.Join(home, ".cursor", "mcp.json")))); !cmp.Equal(got, map[string]any{"mcpServers": map[string]any{"aepgate": mcpEntry}}) {
		t.Errorf("~/.cursor/mcp.json: %v", got)
	}
}
