package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func skillRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestInstallSkillProject(t *testing.T) {
	for _, tc := range []struct {
		agent string
		main  string
		refs  bool
	}{
		{"claude", ".claude/skills/aepgate/SKILL.md", true},
		{"codex", ".codex/skills/aepgate/SKILL.md", true},
		{"cursor", ".cursor/rules/aepgate.mdc", false},
	} {
		t.Run(tc.agent, func(t *testing.T) {
			dir := t.TempDir()
			code, out, errOut := runCLI(t, "install-skill", dir, "--agent", tc.agent)
			want := filepath.Join(dir, tc.main)
			if code != 0 || out != "installed "+want+"\n" {
				t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
			}
			body := skillRead(t, want)
			_, err := os.Stat(filepath.Join(filepath.Dir(want), "references", "auditor.md"))
			if got := err == nil; got != tc.refs {
				t.Errorf("references/ beside it: %v, want %v", got, tc.refs)
			}
			if !tc.refs && (!strings.Contains(body, "<!-- references/executor.md -->") || !strings.Contains(body, "alwaysApply: false")) {
				t.Errorf("bundled rule lacks a reference or Cursor front matter:\n%s", body[:200])
			}
		})
	}
}

func TestInstallSkillNeverOverwritesWithoutForce(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, ".claude/skills/aepgate/SKILL.md")
	if code, _, _ := runCLI(t, "install-skill", dir, "--agent", "claude"); code != 0 {
		t.Fatal("first install failed")
	}
	if err := os.WriteFile(dest, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "install-skill", dir, "--agent", "claude")
	if code != 0 || out != "skip: "+dest+" already exists (use --force to overwrite)\n" || skillRead(t, dest) != "mine\n" {
		t.Errorf("second install: exit %d, stdout %q, file %q", code, out, skillRead(t, dest))
	}
	code, out, _ = runCLI(t, "install-skill", dir, "--agent", "claude", "--force")
	if code != 0 || out != "installed "+dest+"\n" || skillRead(t, dest) == "mine\n" {
		t.Errorf("--force: exit %d, stdout %q", code, out)
	}
}

func TestInstallSkillDest(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		dest, main string
		refs       bool
	}{
		{dir + "/a/", dir + "/a/SKILL.md", true},
		{dir + "/b/SKILL.md", dir + "/b/SKILL.md", true},
		{dir + "/c/AGENTS.md", dir + "/c/AGENTS.md", false},
	} {
		code, out, errOut := runCLI(t, "install-skill", "--dest", tc.dest)
		if code != 0 || out != "installed "+filepath.Clean(tc.main)+"\n" && out != "installed "+tc.main+"\n" {
			t.Errorf("--dest %s: exit %d, stdout %q, stderr %q", tc.dest, code, out, errOut)
			continue
		}
		_, err := os.Stat(filepath.Join(filepath.Dir(tc.main), "references", "coordinator.md"))
		if (err == nil) != tc.refs {
			t.Errorf("--dest %s: references/ present %v, want %v", tc.dest, err == nil, tc.refs)
		}
	}
}

func TestInstallSkillGlobal(t *testing.T) {
	home := t.TempDir()
	var out bytes.Buffer
	o := skillOptions{agent: "codex", global: true}
	env := skillEnv{getenv: func(string) string { return "" }, home: func() (string, error) { return home, nil }}
	if err := o.run(streams{out: &out}, t.TempDir(), env); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, ".codex/skills/aepgate/SKILL.md")); err != nil {
		t.Errorf("not installed under home: %v (%s)", err, out.String())
	}
	env.home = func() (string, error) { return "", errors.New("no home") }
	if err := o.run(streams{out: &out}, t.TempDir(), env); err == nil {
		t.Error("no home directory: want an error")
	}
}

func TestSkillAgentAuto(t *testing.T) {
	for _, tc := range []struct {
		name   string
		marker string
		env    map[string]string
		want   string
	}{
		{"nothing", "", nil, "claude"},
		{"cursor folder", ".cursor", nil, "cursor"},
		{"codex folder wins over env", ".codex", map[string]string{"CLAUDECODE": "1"}, "codex"},
		{"claude env", "", map[string]string{"CLAUDECODE": "1"}, "claude"},
		{"cursor env", "", map[string]string{"CURSOR_TRACE_ID": "x"}, "cursor"},
		{"codex env", "", map[string]string{"CODEX_HOME": "/x"}, "codex"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.marker != "" {
				os.Mkdir(filepath.Join(dir, tc.marker), 0o755)
			}
			if got := skillAgent("auto", dir, func(k string) string { return tc.env[k] }); got != tc.want {
				t.Errorf("skillAgent = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestInstallSkillUsage(t *testing.T) {
	for _, args := range [][]string{
		{"install-skill", "--agent", "vim"},
		{"install-skill", "--global", "--dest", "x"},
		{"install-skill", "a", "b"},
	} {
		if code, _, errOut := runCLI(t, args...); code != 2 || !strings.HasPrefix(errOut, "error: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2", args, code, errOut)
		}
	}
}

// TestSkillNamesRealCommands: every "aepgate <command>" the skill names is
// a command of this binary, and it names the plan files and check runs.
func TestSkillNamesRealCommands(t *testing.T) {
	root := NewRoot("", TestApp, nil, &bytes.Buffer{}, &bytes.Buffer{})
	var all strings.Builder
	for _, p := range []string{"SKILL.md", "references/executor.md", "references/auditor.md", "references/coordinator.md"} {
		b, err := skillFS.ReadFile("skill/" + p)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	for _, m := range regexp.MustCompile("`aepgate ([a-z-]+)").FindAllStringSubmatch(all.String(), -1) {
		if c, _, err := root.Find([]string{m[1]}); err != nil || c == root {
			t.Errorf("the skill names aepgate %s, which is not a command", m[1])
		}
	}
	for _, w := range []string{"aep/plans", "aepgate/merge", "aepgate/gates", "aepgate/audit", "state/phase-<N>.json",
		"progress.json", "needs_review", "/aep hold", "/aep resolve", "/aep dispose", "aep-audit", "aep-gate", "--rerun"} {
		if !strings.Contains(all.String(), w) {
			t.Errorf("the skill does not mention %q", w)
		}
	}
}
