package action

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sethvargo/go-githubactions"
)

func TestReadInputs(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		want    Inputs
		wantErr bool
	}{
		{"defaults", nil, Inputs{Config: ".github/aepgate.yml", FailOn: "error", Manifest: "manifest.sha256"}, false},
		{"lists", map[string]string{
			"INPUT_DIR": "docs/a\ndocs/b, docs/c/*\r\n", "INPUT_CHECKS": "Lint, status,lint", "INPUT_FAIL-ON": "NEVER",
			"INPUT_CONFIG": "ci/aep.yml", "INPUT_TOKEN": "t", "INPUT_MEMBERS-TOKEN": "m", "INPUT_TAG": "v1.0.0", "INPUT_ASSETS": "a.tgz\nb.zip", "INPUT_MANIFEST": "SHA256SUMS",
		}, Inputs{Dirs: []string{"docs/a", "docs/b", "docs/c/*"}, Checks: []string{"lint", "status"}, Config: "ci/aep.yml", Token: "t", MembersToken: "m", FailOn: "never",
			Tag: "v1.0.0", Assets: []string{"a.tgz", "b.zip"}, Manifest: "SHA256SUMS"}, false},
		{"all", map[string]string{"INPUT_CHECKS": "all"}, Inputs{Config: ".github/aepgate.yml", FailOn: "error", Manifest: "manifest.sha256"}, false},
		{"unknown check", map[string]string{"INPUT_CHECKS": "lint,coverage"}, Inputs{}, true},
		{"unknown fail-on", map[string]string{"INPUT_FAIL-ON": "warning"}, Inputs{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := githubactions.New(githubactions.WithGetenv(func(k string) string { return tt.env[k] }), githubactions.WithWriter(&bytes.Buffer{}))
			got, err := readInputs(a)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("inputs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWants(t *testing.T) {
	lint, _ := namedCheck(CheckLint)
	release, _ := namedCheck(CheckRelease)
	all := Inputs{}
	if !all.wants(lint) || all.wants(release) {
		t.Error("default: every check but release")
	}
	some := Inputs{Checks: []string{CheckRelease}}
	if some.wants(lint) || !some.wants(release) || !some.explicit(CheckRelease) {
		t.Error("explicit list not honoured")
	}
}

func TestExpandFolders(t *testing.T) {
	ws := t.TempDir()
	for _, d := range []string{"docs/a", "docs/b", "docs/deep/x/c", "docs/empty"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"docs/a/compliance-log.md", "docs/b/execution-guide.md", "docs/deep/x/c/compliance-log.md"} {
		if err := os.WriteFile(filepath.Join(ws, f), []byte("# x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name     string
		patterns []string
		want     []folder
	}{
		{"literal", []string{"./docs/a/"}, []folder{{rel: "docs/a"}}},
		{"glob keeps run folders", []string{"docs/*"}, []folder{{rel: "docs/a"}, {rel: "docs/b"}}},
		{"doublestar", []string{"docs/**"}, []folder{{rel: "docs/a"}, {rel: "docs/b"}, {rel: "docs/deep/x/c"}}},
		{"dedup", []string{"docs/a", "docs/a"}, []folder{{rel: "docs/a"}}},
		{"escape", []string{"../etc"}, []folder{{rel: "../etc", err: "../etc is outside the workspace; give a path relative to the repository root"}}},
		{"absolute", []string{"/etc"}, []folder{{rel: "/etc", err: "/etc is outside the workspace; give a path relative to the repository root"}}},
		{"no match", []string{"nothing/*"}, []folder{{rel: "nothing/*", err: "no run folder (a folder holding execution-guide.md or compliance-log.md) matches nothing/*"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := expandFolders(ws, tt.patterns)
			if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(folder{})); diff != "" {
				t.Errorf("folders (-want +got):\n%s", diff)
			}
		})
	}
}

func TestEventForkAndPush(t *testing.T) {
	pr := &PullRequest{HeadRepo: "fork/widgets", BaseRepo: "acme/widgets"}
	if !pr.Fork() {
		t.Error("a head in another repository is a fork")
	}
	env := map[string]string{"GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": "push", "GITHUB_SHA": "abc"}
	a := githubactions.New(githubactions.WithGetenv(func(k string) string { return env[k] }), githubactions.WithWriter(&bytes.Buffer{}))
	ev, err := readEvent(a)
	if err != nil || ev.PR != nil || ev.SHA != "abc" {
		t.Errorf("push event: %+v, %v", ev, err)
	}
}

// A pull_request event whose payload is missing, or lacks the pull request,
// fails closed: otherwise the checks would attach to GITHUB_SHA, skip the
// report and read the pull request's own policy.
func TestEventFailsClosedWithoutPullRequest(t *testing.T) {
	dir := t.TempDir()
	noPR := filepath.Join(dir, "push-shaped.json")
	if err := os.WriteFile(noPR, []byte(`{"ref":"refs/heads/main"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	noHead := filepath.Join(dir, "no-head.json")
	if err := os.WriteFile(noHead, []byte(`{"pull_request":{"number":7,"body":"x"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, event, path, want string }{
		{"missing event file", "push", filepath.Join(dir, "nope.json"), "does not exist"},
		{"pull_request without one", "pull_request", noPR, "needs its payload's pull_request"},
		{"pull_request without head", "pull_request_target", noHead, "needs its payload's pull_request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{"GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": tt.event, "GITHUB_SHA": strings.Repeat("a", 40), "GITHUB_EVENT_PATH": tt.path}
			a := githubactions.New(githubactions.WithGetenv(func(k string) string { return env[k] }), githubactions.WithWriter(&bytes.Buffer{}))
			_, err := readEvent(a)
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want an InputError containing %q", err, tt.want)
			}
		})
	}
}
