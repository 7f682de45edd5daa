package isolate

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/creds"
	"github.com/aepgate/aepgate/protocol/config"
)

// TestStartedCommandsSeeNoCredentials plants the credentials and runs a
// control (RunAll) and a recorded command (Commands) that write their
// environment to a file. With Options.Env nil (what the CLI and the Action
// pass) none is seen; the negative control passes the whole process
// environment and sees every one.
func TestStartedCommandsSeeNoCredentials(t *testing.T) {
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
			dir, out := gitRepo(t), filepath.Join(t.TempDir(), "env.txt")
			opts := Options{TempDir: t.TempDir(), Env: tt.env}
			ctl := config.NegativeControl{Name: "env", Break: "env >> " + out, Restore: "true", Test: "env >> " + out + "; false"}
			if _, err := RunAll(context.Background(), dir, []config.NegativeControl{ctl}, opts); err != nil {
				t.Fatal(err)
			}
			if _, err := Commands(context.Background(), dir, []string{"env >> " + out}, opts); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(regexp.MustCompile(`(?m)^PWD=`).FindAllIndex(b, -1)); n != 4 {
				t.Fatalf("%d environments written, want 4 (break, two tests, the command)", n)
			}
			want := []string(nil)
			if tt.wantSeen {
				want = creds.Names
			}
			if got := creds.Seen(string(b)); !slices.Equal(got, want) {
				t.Errorf("credentials seen by the started commands: %v, want %v", got, want)
			}
		})
	}
}
