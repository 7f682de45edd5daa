package negcontrol

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// planted are credentials a GitHub Actions job can hold in its
// environment; no command a control runs may see them.
var planted = []string{"INPUT_TOKEN", "GITHUB_TOKEN", "ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN",
	"GH_TOKEN", "GH_ENTERPRISE_TOKEN"}

// TestRunScrubsCredentials plants the credentials and has every step of a
// control write its environment to a file. With Env nil (what the CLI and
// isolate pass) none is seen; the negative control passes the process's
// whole environment as Env and sees every one, so the test can fail.
func TestRunScrubsCredentials(t *testing.T) {
	for _, name := range planted {
		t.Setenv(name, "secret-"+name)
	}
	tests := []struct {
		name     string
		env      []string
		wantSeen bool
	}{
		{"default environment", nil, false},
		{"negative control: unscrubbed environment", os.Environ(), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "env.txt")
			res := Run(context.Background(), Spec{Dir: dir, Env: tt.env,
				Break: "env >> " + out, Restore: "env >> " + out, Test: "env >> " + out + "; test -e restored || { touch restored; false; }"})
			if res.Err != nil {
				t.Fatal(res.Err)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range planted {
				if seen := strings.Contains(string(b), name+"=secret-"); seen != tt.wantSeen {
					t.Errorf("%s seen by the control's commands: %v, want %v", name, seen, tt.wantSeen)
				}
			}
			if !strings.Contains(string(b), "PATH=") {
				t.Errorf("the commands lost the rest of the environment:\n%s", b)
			}
		})
	}
}
