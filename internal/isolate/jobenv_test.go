package isolate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/aepgate/aepgate/protocol/config"
)

// TestStartedCommandsGetNothingOfTheJob plants, channel by channel, what a
// GitHub Actions job leaves a step: the files through which it sets later
// steps' environment, PATH, outputs, state and summary, and the token
// actions/checkout persists in the repository's git config as an extra
// HTTP header. A recorded command (Commands) and a control (RunAll) each
// try to use the channel: write the file, or run git ls-remote against a
// local server that records the Authorization header. With Options.Env nil
// (what the CLI and the Action pass) nothing reaches the job; the negative
// control passes the whole process environment and every channel leaks.
func TestStartedCommandsGetNothingOfTheJob(t *testing.T) {
	var mu sync.Mutex
	var auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		http.NotFound(w, r)
	}))
	defer srv.Close()
	type channel struct {
		name, command string
		leaked        func(t *testing.T, files map[string]string) bool
	}
	wrote := func(name string) func(*testing.T, map[string]string) bool {
		return func(t *testing.T, files map[string]string) bool {
			b, err := os.ReadFile(files[name])
			if err != nil {
				t.Fatal(err)
			}
			return len(b) > 0
		}
	}
	channels := []channel{
		{"env file", `echo LEAK=1 >> "$GITHUB_ENV"`, wrote("GITHUB_ENV")},
		{"path file", `echo /tmp/evil >> "$GITHUB_PATH"`, wrote("GITHUB_PATH")},
		{"output file", `echo conclusion=success >> "$GITHUB_OUTPUT"`, wrote("GITHUB_OUTPUT")},
		{"state file", `echo s=1 >> "$GITHUB_STATE"`, wrote("GITHUB_STATE")},
		{"summary file", `echo all green >> "$GITHUB_STEP_SUMMARY"`, wrote("GITHUB_STEP_SUMMARY")},
		{"git credentials", "git ls-remote " + srv.URL + "/repo.git", func(*testing.T, map[string]string) bool {
			mu.Lock()
			defer mu.Unlock()
			for _, a := range auths {
				if a == "basic c2VjcmV0" {
					return true
				}
			}
			return false
		}},
	}
	for _, ch := range channels {
		for _, tt := range []struct {
			name string
			env  func() []string
			want bool
		}{
			{"default environment", func() []string { return nil }, false},
			{"negative control: unscrubbed environment", os.Environ, true},
		} {
			t.Run(ch.name+"/"+tt.name, func(t *testing.T) {
				files := map[string]string{}
				for _, n := range []string{"GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE", "GITHUB_STEP_SUMMARY"} {
					files[n] = filepath.Join(t.TempDir(), n)
					writeFiles(t, filepath.Dir(files[n]), map[string]string{n: ""})
					t.Setenv(n, files[n])
				}
				mu.Lock()
				auths = nil
				mu.Unlock()
				dir := gitRepo(t)
				run(t, dir, "git", "config", "http."+srv.URL+"/.extraheader", "AUTHORIZATION: basic c2VjcmV0")
				opts := Options{TempDir: t.TempDir(), Env: tt.env()}
				if _, err := Commands(context.Background(), dir, []string{ch.command}, opts); err != nil {
					t.Fatal(err)
				}
				if got := ch.leaked(t, files); got != tt.want {
					t.Errorf("Commands: leaked %v, want %v", got, tt.want)
				}
				mu.Lock()
				auths = nil
				mu.Unlock()
				for n := range files {
					writeFiles(t, filepath.Dir(files[n]), map[string]string{n: ""})
				}
				ctl := config.NegativeControl{Name: "job", Break: ch.command, Restore: "true", Test: "false"}
				if _, err := RunAll(context.Background(), dir, []config.NegativeControl{ctl}, opts); err != nil {
					t.Fatal(err)
				}
				if got := ch.leaked(t, files); got != tt.want {
					t.Errorf("RunAll: leaked %v, want %v", got, tt.want)
				}
			})
		}
	}
}

// TestEnvClearsRepositoryHeaders: git run with Env (what `aepgate
// negcontrol` gives a control run in place) sends none of the extra
// headers the repository's config holds; the negative control runs the
// same git with the process's environment and sends the token.
func TestEnvClearsRepositoryHeaders(t *testing.T) {
	var mu sync.Mutex
	var auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auths = append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		http.NotFound(w, r)
	}))
	defer srv.Close()
	dir := gitRepo(t)
	run(t, dir, "git", "config", "http."+srv.URL+"/.extraheader", "AUTHORIZATION: basic c2VjcmV0")
	for _, tt := range []struct {
		name string
		env  []string
		want string
	}{
		{"Env", Env(context.Background(), dir), ""},
		{"negative control: the process's environment", os.Environ(), "basic c2VjcmV0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			auths = nil
			mu.Unlock()
			cmd := exec.Command("git", "ls-remote", srv.URL+"/repo.git")
			cmd.Dir, cmd.Env = dir, tt.env
			_ = cmd.Run() // the server answers 404
			mu.Lock()
			defer mu.Unlock()
			if len(auths) == 0 || auths[0] != tt.want {
				t.Errorf("Authorization headers sent: %q, want %q", auths, tt.want)
			}
		})
	}
}
