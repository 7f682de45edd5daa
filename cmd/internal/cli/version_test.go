package cli

import (
	"encoding/json"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestVersionCommandMatchesFlag(t *testing.T) {
	_, flagOut, _ := runCLI(t, "--version")
	code, out, errOut := runCLI(t, "version")
	if code != 0 || out != flagOut || errOut != "" {
		t.Errorf("version: exit %d, stdout %q, stderr %q; want exit 0, stdout %q (as --version), no stderr", code, out, errOut, flagOut)
	}
}

func TestVersionJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "version", "--json")
	if code != 0 || errOut != "" {
		t.Fatalf("version --json: exit %d, stderr %q; want exit 0, no stderr", code, errOut)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("version --json printed no JSON object: %v\n%s", err, out)
	}
	// Test binaries carry build information but no VCS stamp.
	want := map[string]any{"version": Version(""), "go_version": runtime.Version(), "module": "github.com/aepgate/aepgate"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("version --json (-want +got):\n%s", diff)
	}
}

func TestNewVersionInfo(t *testing.T) {
	yes, no := true, false
	stamped := func(modified string) *debug.BuildInfo {
		return &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/aepgate/aepgate"},
			Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123abcd"}, {Key: "vcs.modified", Value: modified}}}
	}
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want versionInfo
	}{
		{"no build information", nil, versionInfo{Version: "v1.2.3"}},
		{"no VCS stamp", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "m"}}, versionInfo{Version: "v1.2.3", GoVersion: "go1.26.8", Module: "m"}},
		{"clean tree", stamped("false"), versionInfo{"v1.2.3", "go1.26.8", "github.com/aepgate/aepgate", "0123abcd", &no}},
		{"dirty tree", stamped("true"), versionInfo{"v1.2.3", "go1.26.8", "github.com/aepgate/aepgate", "0123abcd", &yes}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, newVersionInfo("v1.2.3", tt.bi)); diff != "" {
				t.Errorf("newVersionInfo (-want +got):\n%s", diff)
			}
		})
	}
}

func TestVersionHelpAndArgs(t *testing.T) {
	_, out, _ := runCLI(t, "version", "--help")
	for _, want := range []string{"--json", "vcs_revision", "vcs_modified", "same line as --version"} {
		if !strings.Contains(out, want) {
			t.Errorf("version --help lacks %q:\n%s", want, out)
		}
	}
	if code, _, errOut := runCLI(t, "version", "extra"); code != 2 || !strings.HasPrefix(errOut, "error: ") {
		t.Errorf("version extra: exit %d, stderr %q; want exit 2 and an error", code, errOut)
	}
}
