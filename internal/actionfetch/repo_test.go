package actionfetch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in dir with a fixed identity and no user or system config.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=r", "GIT_AUTHOR_EMAIL=r@example.com", "GIT_COMMITTER_NAME=r", "GIT_COMMITTER_EMAIL=r@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// actionRepo is a bare repository whose history has one commit per
// release tag (annotated, as a release is tagged), and the moving tags
// (lightweight, as the release workflow moves them with git tag -f) on
// the commit of the release each maps to; an empty target puts the moving
// tag on a commit of its own, which no release names.
func actionRepo(t *testing.T, releases []string, moving map[string]string) string {
	t.Helper()
	work, bare := t.TempDir(), filepath.Join(t.TempDir(), "aepgate.git")
	git(t, work, "init", "-q", "-b", "main")
	for _, tag := range releases {
		git(t, work, "commit", "-q", "--allow-empty", "-m", "release "+tag)
		git(t, work, "tag", "-a", "-m", tag, tag)
	}
	for name, target := range moving {
		if target == "" {
			git(t, work, "commit", "-q", "--allow-empty", "-m", "unreleased")
			git(t, work, "tag", name)
			continue
		}
		git(t, work, "tag", name, target+"^{}")
	}
	git(t, t.TempDir(), "clone", "-q", "--bare", work, bare)
	return bare
}
