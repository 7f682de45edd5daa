package cli

import (
	"os"
	"regexp"
	"testing"
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

// TestDockerfileHealthcheckNamesNoPort: the image's HEALTHCHECK leaves the
// URL to healthcheck's default, so that setting AEPGATE_ADDR moves both.
func TestDockerfileHealthcheckNamesNoPort(t *testing.T) {
	b, err := os.ReadFile("../../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	hc := regexp.MustCompile(`(?s)HEALTHCHECK .*?CMD \[([^\]]*)\]`).FindSubmatch(b)
	if hc == nil {
		t.Fatal("Dockerfile has no HEALTHCHECK CMD")
	}
	if regexp.MustCompile(`--url|:\d+`).Match(hc[1]) {
		t.Errorf("HEALTHCHECK CMD [%s] names a URL or port; it must follow AEPGATE_ADDR", hc[1])
	}
}
