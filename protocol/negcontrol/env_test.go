package negcontrol

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/creds"
)

// TestRunScrubsCredentials plants the credentials and has every step of a
// control write its environment to a file. With Env nil (what the CLI and
// isolate pass) none is seen; the negative control passes the process's
// whole environment as Env and sees every one, so the test can fail.
func TestRunScrubsCredentials(t *testing.T) {
	creds.Plant(t)
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
			want := []string(nil)
			if tt.wantSeen {
				want = creds.Names
			}
			if got := creds.Seen(string(b)); !slices.Equal(got, want) {
				t.Errorf("credentials seen by the started commands: %v, want %v", got, want)
			}
			if !strings.Contains(string(b), "PATH=") {
				t.Errorf("the commands lost the rest of the environment:\n%s", b)
			}
		})
	}
}
