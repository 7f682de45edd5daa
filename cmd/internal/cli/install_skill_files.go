package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// skillAgent resolves --agent auto from marker folders in dir, then the
// environment; claude when nothing matches.
func skillAgent(agent, dir string, getenv func(string) string) string {
	if agent != "auto" {
		return agent
	}
	for _, a := range []string{"claude", "cursor", "codex"} {
		if fi, err := os.Stat(filepath.Join(dir, "."+a)); err == nil && fi.IsDir() {
			return a
		}
	}
	for _, v := range []struct{ name, agent string }{
		{"CLAUDECODE", "claude"}, {"CLAUDE_CODE", "claude"}, {"CLAUDE_PROJECT_DIR", "claude"},
		{"CURSOR_PROJECT_DIR", "cursor"}, {"CURSOR_TRACE_ID", "cursor"}, {"CODEX_HOME", "codex"},
	} {
		if getenv(v.name) != "" {
			return v.agent
		}
	}
	return "claude"
}

// skillPath is the agent's destination relative to the project or home.
func skillPath(agent string) string {
	switch agent {
	case "cursor":
		return filepath.Join(".cursor", "rules", skillName+".mdc")
	case "codex":
		return filepath.Join(".codex", "skills", skillName, "SKILL.md")
	}
	return filepath.Join(".claude", "skills", skillName, "SKILL.md")
}

// skillFile is one file to write; the first of a list is the one whose
// existence means "installed".
type skillFile struct {
	path string
	body []byte
}

// skillFiles lays the skill out for dest: SKILL.md with references/ beside
// it, or one bundled file.
func skillFiles(dest string) ([]skillFile, error) {
	if fi, err := os.Stat(dest); (err == nil && fi.IsDir()) || strings.HasSuffix(dest, "/") || strings.HasSuffix(dest, string(filepath.Separator)) {
		dest = filepath.Join(dest, "SKILL.md")
	}
	main, err := skillFS.ReadFile("skill/SKILL.md")
	if err != nil {
		return nil, fmt.Errorf("read the embedded skill: %w", err)
	}
	refs, err := fs.Glob(skillFS, "skill/references/*.md")
	if err != nil {
		return nil, fmt.Errorf("read the embedded skill: %w", err)
	}
	if filepath.Base(dest) == "SKILL.md" {
		files := []skillFile{{dest, main}}
		for _, r := range refs {
			b, _ := skillFS.ReadFile(r)
			files = append(files, skillFile{filepath.Join(filepath.Dir(dest), "references", path.Base(r)), b})
		}
		return files, nil
	}
	var b strings.Builder
	if filepath.Ext(dest) == ".mdc" {
		main = cursorRule(main)
	}
	b.Write(main)
	for _, r := range refs {
		body, _ := skillFS.ReadFile(r)
		fmt.Fprintf(&b, "\n\n---\n\n<!-- references/%s -->\n\n%s", path.Base(r), strings.TrimRight(string(body), "\n"))
	}
	b.WriteString("\n")
	return []skillFile{{dest, []byte(b.String())}}, nil
}

// writeSkillFile writes body to p through a temporary file in the same
// folder, so that a failed write leaves no half-written file.
func writeSkillFile(p string, body []byte) error {
	if err := writeFileMode(p, body, 0o644); err != nil {
		return fmt.Errorf("install skill: %w", err)
	}
	return nil
}

// writeFileMode writes body to p with mode through a temporary file in
// the same folder renamed into place.
func writeFileMode(p string, body []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(p), ".aepgate-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(body); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", p, err)
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), p)
}

// cursorRule swaps SKILL.md's front matter (name, description) for a
// Cursor rule's (description, alwaysApply).
func cursorRule(skill []byte) []byte {
	s := string(skill)
	rest, ok := strings.CutPrefix(s, "---\n")
	end := strings.Index(rest, "\n---\n")
	if !ok || end < 0 {
		return skill
	}
	var desc string
	for _, line := range strings.Split(rest[:end], "\n") {
		if d, ok := strings.CutPrefix(line, "description: "); ok {
			desc = d
		}
	}
	return []byte("---\ndescription: " + desc + "\nalwaysApply: false\n---\n" + rest[end+len("\n---\n"):])
}
