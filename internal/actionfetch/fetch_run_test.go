package actionfetch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

type result struct {
	code   int
	output string // stdout and stderr
	bin    string // "bin=" from GITHUB_OUTPUT
}

// run runs the fetch.sh at path with env, a PATH holding pathBin (when not
// nil) and the system's tools.
func run(t *testing.T, path string, env map[string]string, pathBin []byte) result {
	t.Helper()
	dir := t.TempDir()
	pathDir := filepath.Join(dir, "path")
	os.Mkdir(pathDir, 0o755)
	if pathBin != nil {
		if err := os.WriteFile(filepath.Join(pathDir, "aepgate"), pathBin, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "github-output")
	cmd := exec.Command("bash", path)
	cmd.Env = []string{"PATH=" + pathDir + ":" + os.Getenv("PATH"), "GITHUB_OUTPUT=" + out, "DEST=" + filepath.Join(dir, "dest"), "HOME=" + dir,
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	b, err := cmd.CombinedOutput()
	r := result{output: string(b)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	o, _ := os.ReadFile(out)
	for _, line := range strings.Split(string(o), "\n") {
		if v, ok := strings.CutPrefix(line, "bin="); ok {
			r.bin = v
		}
	}
	return r
}

func version(t *testing.T, bin string) string {
	t.Helper()
	b, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", bin, err)
	}
	return strings.TrimSpace(string(b))
}

// needTools fails the test when a tool fetch.sh runs is missing: every
// runner GitHub hosts has them, and so does this project's CI.
func needTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"bash", "git", "curl", "openssl", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("fetch.sh needs %s: %v", tool, err)
		}
	}
}

// without replaces check, a line of the fetch.sh at path, with "if false;
// then" (a negative control's broken variant).
func without(t *testing.T, path, check string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), check) {
		t.Fatalf("fetch.sh no longer holds the check this control removes: %s", check)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(b), check, "if false; then", 1)), 0o755); err != nil {
		t.Fatal(err)
	}
}
