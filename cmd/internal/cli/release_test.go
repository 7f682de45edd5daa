package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func hexSum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// releaseRepo publishes octo/demo v1.2.3 so that it closes, and returns the
// fake and the manifest.
func releaseRepo(t *testing.T) (*ghfake.Fake, *ghfake.Repo, string) {
	t.Helper()
	f := ghfake.New(t)
	repo := f.CreateRepo("octo/demo")
	install := "#!/bin/sh\necho v1.2.3\n"
	manifest := hexSum(install) + "  install.sh\n"
	commit := repo.Commit("main", "release", map[string]string{"install.sh": install, "manifest.sha256": manifest})
	repo.Tag("v1.2.3", "main", "v1.2.3")
	receipt, err := os.ReadFile("testdata/evidence/release-receipt.json")
	if err != nil {
		t.Fatal(err)
	}
	body := "Release v1.2.3\n\n```json\n" + strings.ReplaceAll(string(receipt), "COMMIT", commit) + "```\n"
	repo.PublishRelease("v1.2.3", ghfake.ReleaseOptions{Body: body, Assets: map[string][]byte{
		"install.sh": []byte(install), "manifest.sha256": []byte(manifest),
	}})
	return f, repo, manifest
}

// workdir is a release checkout: the local manifest and a token file.
func workdir(t *testing.T, manifest string, tokenMode os.FileMode, token string) string {
	t.Helper()
	dir := t.TempDir()
	if manifest != "" {
		if err := os.WriteFile(filepath.Join(dir, "manifest.sha256"), []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tok := filepath.Join(dir, "token")
	if err := os.WriteFile(tok, []byte(token+"\n"), tokenMode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tok, tokenMode); err != nil {
		t.Fatal(err)
	}
	return dir
}

type releaseOut struct {
	Closed        bool     `json:"closed"`
	Version       string   `json:"version"`
	Tag           string   `json:"tag"`
	Repository    string   `json:"repository"`
	RemoteMainSha *string  `json:"remoteMainSha"`
	TagSha        *string  `json:"tagSha"`
	Errors        []string `json:"errors"`
}

func TestReleaseVerifyEndToEnd(t *testing.T) {
	f, repo, manifest := releaseRepo(t)
	dir := workdir(t, manifest, 0o600, f.UserToken("octo"))
	t.Chdir(dir)
	args := []string{"release", "verify", "--repo", "octo/demo", "--tag", "v1.2.3", "--assets", "manifest.sha256,install.sh",
		"--token-file", "token", "--github-url", f.URL()}
	code, out, errOut := runCLI(t, args...)
	var got releaseOut
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("stdout: %v\n%s", err, out)
	}
	if code != 0 || !got.Closed || got.TagSha == nil || *got.TagSha != repo.Head("main") || got.Version != "1.2.3" {
		t.Fatalf("exit %d, %+v\nstderr: %s", code, got, errOut)
	}
	if strings.Contains(out+errOut, "ghp_") {
		t.Error("the token appears in the output")
	}

	if err := os.WriteFile("manifest.sha256", []byte(hexSum("x")+"  install.sh\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, args...)
	_ = json.Unmarshal([]byte(out), &got)
	if code != 1 || !cmp.Equal(got.Errors, []string{"remote-manifest-coverage-mismatch"}) || !strings.Contains(errOut, "remote-manifest-coverage-mismatch: expected") {
		t.Errorf("changed local manifest: exit %d, %v\n%s", code, got.Errors, errOut)
	}
}

func TestReleaseVerifyRefusesBeforeAnyRequest(t *testing.T) {
	f, _, manifest := releaseRepo(t)
	tests := []struct {
		name string
		mode os.FileMode
		args []string
		want []string
	}{
		{"attacker env var, no token file", 0o600, []string{"--repo", "octo/demo", "--tag", "v1.2.3"}, []string{"github-auth-token-file-unavailable"}},
		{"foreign identity and mode 0644", 0o644, []string{"--repo", "https://example.invalid/octo/demo", "--tag", "v1.2.3", "--token-file", "token"},
			[]string{"github-auth-token-file-unavailable", "github-origin-identity-unreadable"}},
		{"version 3.4", 0o600, []string{"--repo", "octo/demo", "--tag", "v3.4", "--token-file", "token"}, []string{"version-invalid"}},
		{"no v", 0o600, []string{"--repo", "octo/demo", "--tag", "3.4.41", "--token-file", "token"}, []string{"version-invalid"}},
	}
	t.Setenv("GITHUB_TOKEN", f.UserToken("octo"))
	t.Setenv("GH_TOKEN", f.UserToken("octo"))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(workdir(t, manifest, tt.mode, f.UserToken("octo")))
			f.ResetLog()
			code, out, _ := runCLI(t, append([]string{"release", "verify", "--github-url", f.URL()}, tt.args...)...)
			var got releaseOut
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("stdout: %v\n%s", err, out)
			}
			if code != 1 || got.Closed || got.RemoteMainSha != nil || got.TagSha != nil {
				t.Errorf("exit %d, %+v", code, got)
			}
			if diff := cmp.Diff(tt.want, got.Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if n := f.Stats().Total; n != 0 {
				t.Errorf("%d requests made, want none", n)
			}
		})
	}
}

func TestReleaseVerifyUsage(t *testing.T) {
	for name, args := range map[string][]string{
		"no repo":         {"release", "verify", "--tag", "v1.2.3"},
		"unsafe manifest": {"release", "verify", "--repo", "o/r", "--tag", "v1.2.3", "--manifest", "../m"},
		"unsafe asset":    {"release", "verify", "--repo", "o/r", "--tag", "v1.2.3", "--assets", "/etc/passwd"},
	} {
		if code, _, errOut := runCLI(t, args...); code != 2 || !strings.Contains(errOut, "error:") {
			t.Errorf("%s: exit %d, stderr %q", name, code, errOut)
		}
	}
}
