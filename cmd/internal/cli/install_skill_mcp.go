package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// mcpServerName is the name each agent's configuration gives aepgate's
// MCP server (aepgate mcp).
const mcpServerName = "aepgate"

// mcpJSONEntry is the server's entry in Claude Code's and Cursor's
// mcpServers object.
var mcpJSONEntry = json.RawMessage(`{"command": "aepgate", "args": ["mcp"]}`)

// mcpTOMLTable is the server's table in Codex's config.toml.
const mcpTOMLTable = "[mcp_servers.aepgate]\ncommand = \"aepgate\"\nargs = [\"mcp\"]\n"

// mcpConfigPath is where agent reads its MCP servers: Claude Code's
// project .mcp.json, Cursor's .cursor/mcp.json (in dir, or the home
// directory with global), Codex's config.toml in CODEX_HOME (default
// ~/.codex).
func mcpConfigPath(agent, dir string, global bool, env skillEnv) (string, error) {
	home := func() (string, error) {
		h, err := env.home()
		if err != nil {
			return "", fmt.Errorf("find the home directory: %w", err)
		}
		return h, nil
	}
	switch agent {
	case "codex":
		if ch := env.getenv("CODEX_HOME"); ch != "" {
			return filepath.Join(ch, "config.toml"), nil
		}
		h, err := home()
		return filepath.Join(h, ".codex", "config.toml"), err
	case "cursor":
		if global {
			h, err := home()
			return filepath.Join(h, ".cursor", "mcp.json"), err
		}
		return filepath.Join(dir, ".cursor", "mcp.json"), nil
	}
	if global {
		return "", errors.New("--global --mcp: Claude Code keeps user-wide servers in its own ~/.claude.json; run 'claude mcp add --scope user aepgate -- aepgate mcp' instead, or leave out --global for the project's .mcp.json")
	}
	return filepath.Join(dir, ".mcp.json"), nil
}

// mcpConfigText is the configuration to add at path: Codex's TOML table
// for a .toml file, the mcpServers object otherwise.
func mcpConfigText(path string) string {
	if strings.HasSuffix(path, ".toml") {
		return mcpTOMLTable
	}
	b, _ := json.MarshalIndent(map[string]map[string]json.RawMessage{"mcpServers": {mcpServerName: mcpJSONEntry}}, "", "  ")
	return string(b) + "\n"
}

// installMCP adds aepgate's server to the configuration file at path,
// keeping what else it holds. It reports false when the file already
// names an aepgate server and force is not set.
func installMCP(path string, force bool) (bool, error) {
	old, err := os.ReadFile(path)
	mode := fs.FileMode(0o644)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, writeConfigFile(path, []byte(mcpConfigText(path)), mode)
	case err != nil:
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	var body []byte
	var added bool
	if strings.HasSuffix(path, ".toml") {
		body, added, err = mcpTOMLAdd(path, old, force)
	} else {
		body, added, err = mcpJSONAdd(path, old, force)
	}
	if err != nil || !added {
		return false, err
	}
	return true, writeConfigFile(path, body, mode)
}

// mcpJSONAdd sets mcpServers.aepgate in the JSON object old, keeping every
// other key and server as it was (the keys come out sorted).
func mcpJSONAdd(path string, old []byte, force bool) ([]byte, bool, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(old, &top); err != nil || top == nil {
		return nil, false, fmt.Errorf("%s is not a JSON object (%v): fix it, or add %s by hand", path, err, strings.TrimSpace(mcpConfigText(path)))
	}
	servers := map[string]json.RawMessage{}
	if raw, ok := top["mcpServers"]; ok {
		if err := json.Unmarshal(raw, &servers); err != nil || servers == nil {
			return nil, false, fmt.Errorf("%s: mcpServers is not a JSON object: fix it, or add the aepgate server by hand", path)
		}
	}
	if _, ok := servers[mcpServerName]; ok && !force {
		return nil, false, nil
	}
	servers[mcpServerName] = mcpJSONEntry
	raw, err := json.Marshal(servers)
	if err != nil {
		return nil, false, err
	}
	top["mcpServers"] = raw
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(top); err != nil {
		return nil, false, err
	}
	return b.Bytes(), true, nil
}

// mcpTOMLAdd appends Codex's [mcp_servers.aepgate] table to old unless it
// already defines the server; a defined server is never rewritten (that
// would need a TOML editor), so force refuses.
func mcpTOMLAdd(path string, old []byte, force bool) ([]byte, bool, error) {
	if strings.Contains(string(old), "mcp_servers.aepgate") || strings.Contains(string(old), "mcp_servers.\"aepgate\"") {
		if force {
			return nil, false, fmt.Errorf("%s already defines mcp_servers.aepgate; --force does not rewrite TOML: edit it to read\n%s", path, mcpTOMLTable)
		}
		return nil, false, nil
	}
	body := append([]byte{}, old...)
	if len(body) > 0 && !bytes.HasSuffix(body, []byte("\n")) {
		body = append(body, '\n')
	}
	if len(body) > 0 {
		body = append(body, '\n')
	}
	return append(body, mcpTOMLTable...), true, nil
}

// writeConfigFile writes body to p with mode (an existing file's own, so
// that a private config stays private).
func writeConfigFile(p string, body []byte, mode fs.FileMode) error {
	if err := writeFileMode(p, body, mode); err != nil {
		return fmt.Errorf("install mcp: %w", err)
	}
	return nil
}

// runMCP is install-skill --mcp: the agent's MCP configuration written to
// its file (or --dest), or printed with --dest -.
func (o *skillOptions) runMCP(s streams, dir string, env skillEnv) error {
	agent := skillAgent(o.agent, dir, env.getenv)
	path := o.dest
	if path == "" {
		p, err := mcpConfigPath(agent, dir, o.global, env)
		if err != nil {
			return failf(2, "%v", err)
		}
		path = p
	}
	if path == "-" {
		if o.format == formatJSON {
			return writeJSON(s.out, map[string]string{"agent": agent, "config": mcpConfigText(mcpPrintedName(agent))})
		}
		fmt.Fprint(s.out, mcpConfigText(mcpPrintedName(agent)))
		return nil
	}
	added, err := installMCP(path, o.force)
	if err != nil {
		return failf(2, "%v", err)
	}
	key, line := "installed", fmt.Sprintf("installed the aepgate MCP server in %s\n", path)
	if !added {
		key, line = "skipped", fmt.Sprintf("skip: %s already has an aepgate MCP server (use --force to replace it)\n", path)
	}
	if o.format == formatJSON {
		return writeJSON(s.out, map[string]string{key: path})
	}
	fmt.Fprint(s.out, line)
	return nil
}

// mcpPrintedName is a file name of agent's configuration format, for
// --dest -.
func mcpPrintedName(agent string) string {
	if agent == "codex" {
		return "config.toml"
	}
	return "mcp.json"
}
