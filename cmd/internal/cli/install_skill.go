package cli

import (
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"
)

// skillFS holds the instructions install-skill writes: SKILL.md and the
// role pages under references/.
//
//go:embed skill
var skillFS embed.FS

// skillName is the folder or file name the skill is installed under.
const skillName = "aepgate"

const installSkillLong = `Install aepgate's instructions for AI agents: SKILL.md (what aepgate checks,
its check runs and commands) and one page per role under references/
(executor.md, auditor.md, coordinator.md).

Destinations, relative to dir (default: the current directory), or under the
home directory with --global:

  claude   .claude/skills/aepgate/SKILL.md   (+ references/)
  cursor   .cursor/rules/aepgate.mdc         (one bundled file)
  codex    .codex/skills/aepgate/SKILL.md    (+ references/)

--agent auto (the default) picks the first of: a .claude, .cursor or .codex
folder in dir; the CLAUDECODE, CLAUDE_CODE or CLAUDE_PROJECT_DIR variable
(claude); CURSOR_PROJECT_DIR or CURSOR_TRACE_ID (cursor); CODEX_HOME (codex);
otherwise claude.

--dest overrides the destination: an existing folder or a path ending in "/"
gets SKILL.md and references/ inside it; a file named SKILL.md gets
references/ beside it; any other file name gets one bundled file.

An existing destination is never overwritten without --force: the command
prints "skip: <dest> already exists (use --force to overwrite)" and exits 0.

--format json prints {installed} or {skipped} (the path) instead.

--mcp adds aepgate's Model Context Protocol server (aepgate mcp, docs/mcp.md)
to the agent's MCP configuration instead of installing the skill:

  claude   .mcp.json in dir            {"mcpServers": {"aepgate":
                                         {"command": "aepgate", "args": ["mcp"]}}}
  cursor   .cursor/mcp.json in dir     the same (~/.cursor/mcp.json with
                                       --global)
  codex    $CODEX_HOME/config.toml     [mcp_servers.aepgate]
           (default ~/.codex)          command = "aepgate"
                                       args = ["mcp"]

An existing file keeps everything else it holds (a JSON file is rewritten
with its keys sorted; config.toml gets the table appended, its mode kept).
One that already names an aepgate server is skipped; --force replaces the
JSON entry (never a TOML table). --dest FILE writes FILE instead (.toml:
Codex's table), and --dest - prints the configuration. --global with claude
is refused: Claude Code's user-wide servers are added with 'claude mcp add
--scope user aepgate -- aepgate mcp'.

Exit codes: 0 installed or skipped; 2 usage error or a write failed.`

// skillOptions are the flags of install-skill.
type skillOptions struct {
	agent, dest, format string
	global, force, mcp  bool
}

// skillEnv is what install-skill reads from its surroundings.
type skillEnv struct {
	getenv func(string) string
	home   func() (string, error)
}

func newInstallSkillCmd(s streams) *cobra.Command {
	var o skillOptions
	cmd := &cobra.Command{
		Use:   "install-skill [dir] [--agent claude|cursor|codex|auto] [--global] [--dest PATH] [--force] [--mcp]",
		Short: "Install aepgate's instructions for executor, auditor and coordinator agents",
		Long:  installSkillLong,
		Example: `  aepgate install-skill
  aepgate install-skill --agent cursor
  aepgate install-skill --mcp --agent codex
  aepgate install-skill --mcp --agent claude --dest -
  aepgate install-skill --global --agent claude --force`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return o.run(s, dir, skillEnv{getenv: os.Getenv, home: os.UserHomeDir})
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.agent, "agent", "auto", "claude, cursor, codex or auto")
	f.BoolVar(&o.global, "global", false, "install under the home directory instead of dir")
	f.StringVar(&o.dest, "dest", "", "install to this path instead (a folder, a SKILL.md or a bundled file)")
	f.BoolVar(&o.force, "force", false, "overwrite an existing installation")
	f.BoolVar(&o.mcp, "mcp", false, "add aepgate's MCP server (aepgate mcp) to the agent's MCP configuration instead of installing the skill")
	addFormat(cmd, &o.format)
	return cmd
}

func (o *skillOptions) run(s streams, dir string, env skillEnv) error {
	if !slices.Contains([]string{"auto", "claude", "cursor", "codex"}, o.agent) {
		return failf(2, "--agent must be claude, cursor, codex or auto, not %q", o.agent)
	}
	if o.dest != "" && o.global {
		return failf(2, "--dest and --global cannot be combined")
	}
	if o.mcp {
		return o.runMCP(s, dir, env)
	}
	dest := o.dest
	if dest == "" {
		root := dir
		if o.global {
			home, err := env.home()
			if err != nil {
				return failf(2, "find the home directory: %v", err)
			}
			root = home
		}
		dest = filepath.Join(root, skillPath(skillAgent(o.agent, dir, env.getenv)))
	}
	files, err := skillFiles(dest)
	if err != nil {
		return failf(2, "%v", err)
	}
	if _, err := os.Lstat(files[0].path); err == nil && !o.force {
		if o.format == formatJSON {
			return writeJSON(s.out, map[string]string{"skipped": files[0].path})
		}
		fmt.Fprintf(s.out, "skip: %s already exists (use --force to overwrite)\n", files[0].path)
		return nil
	}
	for _, f := range files {
		if err := writeSkillFile(f.path, f.body); err != nil {
			return failf(2, "%v", err)
		}
	}
	if o.format == formatJSON {
		return writeJSON(s.out, map[string]string{"installed": files[0].path})
	}
	fmt.Fprintf(s.out, "installed %s\n", files[0].path)
	return nil
}
