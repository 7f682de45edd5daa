package cli

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestHealthcheckFollowsServeAddr: the default URL is /readyz on the port
// serve listens on (AEPGATE_ADDR, as serve reads it).
func TestHealthcheckFollowsServeAddr(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"", "http://127.0.0.1:8080/readyz"},
		{":9090", "http://127.0.0.1:9090/readyz"},
		{"0.0.0.0:7000", "http://127.0.0.1:7000/readyz"},
		{"127.0.0.2:7001", "http://127.0.0.2:7001/readyz"},
		{"[::]:7002", "http://[::1]:7002/readyz"},
		{"nonsense", "http://127.0.0.1:8080/readyz"},
	} {
		if got := readyzURL(tc.addr); got != tc.want {
			t.Errorf("readyzURL(%q) = %q, want %q", tc.addr, got, tc.want)
		}
	}
}

// TestDockerfileHealthcheckNamesNoPort: both images' HEALTHCHECK (the one
// built from source and the release image GoReleaser builds) leave the
// URL to healthcheck's default, so that setting AEPGATE_ADDR moves both,
// and the two HEALTHCHECK instructions are the same.
func TestDockerfileHealthcheckNamesNoPort(t *testing.T) {
	var checks []string
	for _, name := range []string{"Dockerfile", "release.Dockerfile"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "..", name))
		if err != nil {
			t.Fatal(err)
		}
		hc := regexp.MustCompile(`(?s)HEALTHCHECK .*?CMD \[([^\]]*)\]`).FindSubmatch(b)
		if hc == nil {
			t.Fatalf("%s has no HEALTHCHECK CMD", name)
		}
		if regexp.MustCompile(`--url|:\d+`).Match(hc[1]) {
			t.Errorf("%s: HEALTHCHECK CMD [%s] names a URL or port; it must follow AEPGATE_ADDR", name, hc[1])
		}
		checks = append(checks, string(hc[0]))
	}
	if diff := cmp.Diff(checks[0], checks[1]); diff != "" {
		t.Errorf("Dockerfile and release.Dockerfile differ in HEALTHCHECK (-Dockerfile +release.Dockerfile):\n%s", diff)
	}
}

// TestHealthcheckServeAddr: AEPGATE_ADDR comes from the environment, else
// from AEPGATE_ENV_FILE's file, as serve reads it; an unreadable file is
// an error naming AEPGATE_ENV_FILE.
func TestHealthcheckServeAddr(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "aepgate.env")
	if err := os.WriteFile(file, []byte("AEPGATE_ADDR=:9191\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		env     map[string]string
		want    string
		wantErr bool
	}{
		{"neither", nil, "", false},
		{"environment", map[string]string{"AEPGATE_ADDR": ":9090"}, ":9090", false},
		{"env file", map[string]string{"AEPGATE_ENV_FILE": file}, ":9191", false},
		{"environment wins", map[string]string{"AEPGATE_ENV_FILE": file, "AEPGATE_ADDR": ":9090"}, ":9090", false},
		{"unreadable env file", map[string]string{"AEPGATE_ENV_FILE": filepath.Join(dir, "missing")}, "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			lookup := func(k string) (string, bool) { v, ok := tt.env[k]; return v, ok }
			got, err := serveAddr(context.Background(), lookup)
			if (err != nil) != tt.wantErr || (err != nil && !strings.Contains(err.Error(), "AEPGATE_ENV_FILE")) {
				t.Fatalf("error %v, want error %v naming AEPGATE_ENV_FILE", err, tt.wantErr)
			}
			if got != tt.want {
				t.Errorf("address %q, want %q", got, tt.want)
			}
		})
	}
}
