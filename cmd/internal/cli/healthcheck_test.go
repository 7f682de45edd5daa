package cli

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestHealthcheck(t *testing.T) {
	slow := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("/down", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ok", http.StatusFound) })
	mux.HandleFunc("/slow", func(http.ResponseWriter, *http.Request) { <-slow })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(slow) }) // runs first: the slow handler returns before Close waits
	closed := httptest.NewServer(mux)
	closed.Close()

	for _, tc := range []struct {
		name, url string
		args      []string
		code      int
		stderr    string
	}{
		{"200", srv.URL + "/ok", nil, 0, ""},
		{"503", srv.URL + "/down", nil, 1, "503 Service Unavailable, want 200 OK"},
		{"redirect not followed", srv.URL + "/moved", nil, 1, "302 Found, want 200 OK"},
		{"timeout", srv.URL + "/slow", []string{"--timeout", "100ms"}, 1, "Client.Timeout"},
		{"no connection", closed.URL + "/ok", nil, 1, "connection refused"},
		{"bad url", "ftp://x", nil, 2, "--url must be an http or https URL"},
		{"bad timeout", srv.URL + "/ok", []string{"--timeout", "0s"}, 2, "--timeout must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			code, out, errOut := runCLI(t, append([]string{"healthcheck", "--url", tc.url}, tc.args...)...)
			if code != tc.code || out != "" || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d, no stdout, stderr containing %q", code, out, errOut, tc.code, tc.stderr)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
}
