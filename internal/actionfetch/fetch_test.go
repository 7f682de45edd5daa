package actionfetch

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

const tag = "v1.2.3"

// fakeBinary is a script standing in for aepgate that prints its version.
func fakeBinary(version string) []byte {
	return []byte("#!/bin/sh\necho \"aepgate " + version + "\"\n")
}

func tarGz(t *testing.T, name string, body []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body))}); err != nil {
		t.Fatal(err)
	}
	tw.Write(body)
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// release serves a fake release of tag: one linux/amd64 archive and a
// checksums.txt whose line for it says listed; it counts requests.
func release(t *testing.T, listed func(real string) string) (url string, hits *atomic.Int32) {
	t.Helper()
	archive := tarGz(t, "aepgate", fakeBinary(tag))
	name := "aepgate_1.2.3_linux_amd64.tar.gz"
	files := map[string][]byte{
		"/" + tag + "/" + name:       archive,
		"/" + tag + "/checksums.txt": []byte(listed(sum(archive)) + "  " + name + "\n"),
	}
	hits = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, hits
}

type result struct {
	code   int
	output string // stdout and stderr
	bin    string // "bin=" from GITHUB_OUTPUT
}

// run runs fetch.sh with env, a PATH holding pathBin (when not nil) and the
// system's tools.
func run(t *testing.T, env map[string]string, pathBin []byte) result {
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
	cmd := exec.Command("bash", "fetch.sh")
	cmd.Env = []string{"PATH=" + pathDir + ":" + os.Getenv("PATH"), "GITHUB_OUTPUT=" + out, "DEST=" + filepath.Join(dir, "dest"), "HOME=" + dir}
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

func TestFetch(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	right := func(real string) string { return real }
	wrong := func(string) string { return strings.Repeat("0", 64) }
	linux := func(url, ref string) map[string]string {
		return map[string]string{"RELEASES_URL": url, "ACTION_REF": ref, "RUNNER_OS": "Linux", "RUNNER_ARCH": "X64"}
	}

	t.Run("right checksum runs", func(t *testing.T) {
		url, _ := release(t, right)
		r := run(t, linux(url, tag), nil)
		if r.code != 0 || r.bin == "" {
			t.Fatalf("exit %d, bin %q:\n%s", r.code, r.bin, r.output)
		}
		if got := version(t, r.bin); got != "aepgate "+tag {
			t.Errorf("fetched binary says %q", got)
		}
	})
	t.Run("wrong checksum fails with both hashes", func(t *testing.T) {
		url, _ := release(t, wrong)
		r := run(t, linux(url, tag), nil)
		real := sum(tarGz(t, "aepgate", fakeBinary(tag)))
		want := fmt.Sprintf("checksums.txt says %s, the downloaded file hashes to %s", strings.Repeat("0", 64), real)
		if r.code != 1 || r.bin != "" || !strings.Contains(r.output, want) {
			t.Errorf("exit %d, bin %q, output:\n%s\nwant exit 1, no bin, %q", r.code, r.bin, r.output, want)
		}
	})
	t.Run("a release without the runner's archive fails", func(t *testing.T) {
		url, _ := release(t, right)
		r := run(t, map[string]string{"RELEASES_URL": url, "ACTION_REF": tag, "RUNNER_OS": "Linux", "RUNNER_ARCH": "ARM64"}, nil)
		if r.code == 0 || r.bin != "" || !strings.Contains(r.output, "404") {
			t.Errorf("linux/arm64 (not in the release): exit %d, bin %q:\n%s", r.code, r.bin, r.output)
		}
	})
	t.Run("unknown OS or arch falls back to building", func(t *testing.T) {
		url, hits := release(t, right)
		for _, env := range []map[string]string{
			{"RELEASES_URL": url, "ACTION_REF": tag, "RUNNER_OS": "Linux", "RUNNER_ARCH": "ARM"},
			{"RELEASES_URL": url, "ACTION_REF": tag, "RUNNER_OS": "Plan9", "RUNNER_ARCH": "X64"},
		} {
			r := run(t, env, nil)
			if r.code != 0 || r.bin != "" || !strings.Contains(r.output, "building the action's source") {
				t.Errorf("%v: exit %d, bin %q:\n%s", env, r.code, r.bin, r.output)
			}
		}
		if n := hits.Load(); n != 0 {
			t.Errorf("%d downloads, want none", n)
		}
	})
	t.Run("PATH binary of another version is ignored", func(t *testing.T) {
		url, _ := release(t, right)
		r := run(t, linux(url, tag), fakeBinary("v1.2.2"))
		if r.code != 0 || r.bin == "" || strings.Contains(r.bin, "/path/") {
			t.Fatalf("exit %d, bin %q:\n%s", r.code, r.bin, r.output)
		}
		if got := version(t, r.bin); got != "aepgate "+tag {
			t.Errorf("binary says %q", got)
		}
	})
	t.Run("PATH binary of the action's version is used", func(t *testing.T) {
		url, hits := release(t, right)
		r := run(t, linux(url, tag), fakeBinary(tag))
		if r.code != 0 || !strings.HasSuffix(r.bin, "/path/aepgate") || hits.Load() != 0 {
			t.Errorf("exit %d, bin %q, %d downloads:\n%s", r.code, r.bin, hits.Load(), r.output)
		}
	})
	t.Run("a branch or SHA builds", func(t *testing.T) {
		url, hits := release(t, right)
		for _, ref := range []string{"main", "0123456789abcdef0123456789abcdef01234567", "v1", ""} {
			r := run(t, linux(url, ref), fakeBinary(tag))
			if r.code != 0 || r.bin != "" || hits.Load() != 0 {
				t.Errorf("ref %q: exit %d, bin %q, %d downloads:\n%s", ref, r.code, r.bin, hits.Load(), r.output)
			}
		}
	})
}
