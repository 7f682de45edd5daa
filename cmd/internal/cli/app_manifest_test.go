package cli

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/manifest"
	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/google/go-cmp/cmp"
)

// manifestFields are the fields of GitHub's App manifest, as "Registering a
// GitHub App from a manifest" in GitHub's docs lists them.
var manifestFields = []string{"name", "url", "hook_attributes", "redirect_url", "callback_urls", "setup_url",
	"description", "public", "default_events", "default_permissions", "request_oauth_on_install", "setup_on_update"}

func TestAppManifestGolden(t *testing.T) {
	for _, tc := range []struct {
		name, golden, register string
		args                   []string
	}{
		{"account", "manifest.golden", "https://github.com/settings/apps/new",
			[]string{"--url", "https://aepgate.example.com/"}},
		{"org", "manifest-org.golden", "https://github.com/organizations/acme/settings/apps/new",
			[]string{"--url", "https://example.com/aepgate", "--name", "acme-aepgate", "--org", "acme", "--redirect-url", "https://example.com/done"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"app", "manifest"}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			golden.CheckString(t, filepath.Join("testdata", "app", tc.golden), out)
			if want := "post it as the form field \"manifest\" to " + tc.register + "\n"; errOut != want {
				t.Errorf("stderr %q, want %q", errOut, want)
			}
		})
	}
}

// The manifest uses only GitHub's documented fields, asks for every
// permission and event of manifest.Features, and holds no secret.
func TestAppManifestFields(t *testing.T) {
	_, out, _ := runCLI(t, "app", "manifest", "--url", "https://aepgate.example.com")
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for k := range m {
		if !slices.Contains(manifestFields, k) {
			t.Errorf("field %q is not one of GitHub's manifest fields", k)
		}
		if strings.Contains(k, "secret") || strings.Contains(k, "key") {
			t.Errorf("field %q looks like a secret", k)
		}
	}
	var got appManifest
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(manifest.Permissions(), got.DefaultPermissions); diff != "" {
		t.Errorf("default_permissions (-manifest.Permissions +manifest):\n%s", diff)
	}
	if diff := cmp.Diff(app.Events(), got.DefaultEvents); diff != "" {
		t.Errorf("default_events (-app.Events +manifest):\n%s", diff)
	}
	if want := (hookAttributes{URL: "https://aepgate.example.com/webhook", Active: true}); got.HookAttributes != want {
		t.Errorf("hook_attributes %+v, want %+v", got.HookAttributes, want)
	}
}

func TestAppManifestRefuses(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"--url", "http://aepgate.example.com"},
		{"--url", "aepgate.example.com"},
		{"--url", "https://aepgate.example.com/?x=1"},
		{"--url", "https://aepgate.example.com/?"},
		{"--url", "https://user@aepgate.example.com"},
		{"--url", "https://aepgate.example.com", "--name", ""},
		{"--url", "https://aepgate.example.com", "--name", strings.Repeat("a", 35)},
		{"--url", "https://aepgate.example.com", "--org", "no/such"},
		{"--url", "https://aepgate.example.com", "--redirect-url", "ftp://x"},
		{"--url", "https://aepgate.example.com", "extra"},
	} {
		code, out, errOut := runCLI(t, append([]string{"app", "manifest"}, args...)...)
		if code != 2 || out != "" || !strings.HasPrefix(errOut, "error: ") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2, no stdout, an error", args, code, out, errOut)
		}
	}
}

func TestAppNeedsSubcommand(t *testing.T) {
	if code, _, _ := runCLI(t, "app"); code != 2 {
		t.Errorf("app: exit %d, want 2", code)
	}
}
