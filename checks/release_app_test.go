package checks

import (
	"path/filepath"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/refusal"
	"github.com/aepgate/aepgate/protocol/releaserules"
)

func TestRenderAppRelease(t *testing.T) {
	sha := appSHA(7)
	closed := releaserules.Result{Closed: true, Version: "1.2.3", Tag: "v1.2.3", Repository: "acme/widgets", TagSha: ptr(sha), RemoteMainSha: ptr(sha), Errors: []string{}}
	open := releaserules.Result{Version: "1.2.3", Tag: "v1.2.3", Repository: "acme/widgets", TagSha: ptr(sha), RemoteMainSha: ptr(sha),
		Errors: []string{"github-release-asset-hash-mismatch:install.sh"},
		Refusals: []refusal.Refusal{{Token: "github-release-asset-hash-mismatch:install.sh",
			Expected: "asset install.sh identical to the file at the tag and the manifest", Seen: "file at the tag sha256:aa, downloaded sha256:bb"}}}
	tests := []struct {
		name string
		run  Run
	}{
		{"app-release-closed", AppReleaseRun(sha, closed, ReleaseInputs{Manifest: "manifest.sha256"})},
		{"app-release-open", AppReleaseRun(sha, open, ReleaseInputs{Manifest: "dist/manifest.sha256", Assets: []string{"dist/manifest.sha256", "install.sh"}, ConfigFound: true})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Validate(Fit(tt.run)); err != nil {
				t.Errorf("rendered run is invalid: %v", err)
			}
			if tt.run.Name != NameAppRelease || tt.run.ExternalID != "aepgate-release:v1.2.3" || tt.run.HeadSHA != sha {
				t.Errorf("name %q, external ID %q, head %q", tt.run.Name, tt.run.ExternalID, tt.run.HeadSHA)
			}
			golden.CheckString(t, filepath.Join("testdata", tt.name+".golden"), dump(tt.run))
		})
	}
}
