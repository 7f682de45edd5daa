package cli

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/spf13/cobra"
)

// healthcheckBodyCap is how much of a response body is read and thrown away.
const healthcheckBodyCap = 64 << 10

func newHealthcheckCmd(s streams) *cobra.Command {
	var target, format string
	timeout := 3 * time.Second
	cmd := &cobra.Command{
		Use:   "healthcheck",
		Short: "GET a URL and exit 0 only on 200 (the container's HEALTHCHECK)",
		Long: `healthcheck sends one GET to --url and exits 0 when the answer is 200 OK,
1 otherwise: another status, a redirect (never followed), no answer within
--timeout, or no connection. It is the container image's HEALTHCHECK, which
has no shell or curl to run. The default URL is aepgate serve's /readyz on
the port of AEPGATE_ADDR (serve's --addr, default :8080; read from the
environment, else from the file AEPGATE_ENV_FILE names, as serve reads it)
at 127.0.0.1, so the check follows the address serve listens on; /readyz answers 200 once
GitHub accepted the App's credentials and while the database and the queue
answer.

--format json prints {url, healthy, error}.

Exit codes: 0 healthy; 1 unhealthy (another status, no answer, no
connection: Docker reserves 2 in a HEALTHCHECK, so a network failure is 1
here, not 3); 2 a bad flag.`,
		Example: `  aepgate healthcheck
  AEPGATE_ADDR=:9090 aepgate healthcheck
  aepgate healthcheck --url https://aepgate.example.com/readyz --timeout 5s --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("url") {
				addr, err := serveAddr(cmd.Context(), os.LookupEnv)
				if err != nil {
					return failf(exitFindings, "healthcheck: %v", err)
				}
				target = readyzURL(addr)
			}
			return healthcheck(cmd.Context(), s, target, timeout, format)
		},
	}
	cmd.Flags().StringVar(&target, "url", "", "the URL to GET (default: /readyz on 127.0.0.1 at AEPGATE_ADDR's port, else 8080)")
	cmd.Flags().DurationVar(&timeout, "timeout", timeout, "how long to wait for the whole answer")
	addFormat(cmd, &format)
	return cmd
}

// healthcheck checks the flags, probes target and reports.
func healthcheck(ctx context.Context, s streams, target string, timeout time.Duration, format string) error {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return failf(exitUsage, "healthcheck: --url must be an http or https URL, got %q", target)
	}
	if timeout <= 0 {
		return failf(exitUsage, "healthcheck: --timeout must be positive, got %s", timeout)
	}
	err = probe(ctx, u.String(), timeout)
	if format == formatJSON {
		rep := struct {
			URL     string `json:"url"`
			Healthy bool   `json:"healthy"`
			Error   string `json:"error,omitempty"`
		}{URL: u.String(), Healthy: err == nil}
		if err != nil {
			rep.Error = err.Error()
		}
		if werr := writeJSON(s.out, rep); werr != nil {
			return failf(exitUsage, "healthcheck: %v", werr)
		}
	}
	if err != nil {
		return failf(exitFindings, "healthcheck: %v", err)
	}
	return nil
}

// serveAddr is AEPGATE_ADDR as serve reads it: from the environment, else
// from the env file AEPGATE_ENV_FILE names ("" when neither sets it).
func serveAddr(ctx context.Context, lookup lookupFunc) (string, error) {
	path, _ := lookup("AEPGATE_ENV_FILE")
	lookup, err := withEnvFile(ctx, lookup, path)
	if err != nil {
		return "", fmt.Errorf("AEPGATE_ENV_FILE: %w", err)
	}
	addr, _ := lookup("AEPGATE_ADDR")
	return addr, nil
}

// readyzURL is serve's /readyz for its listen address addr (":8080" when
// empty): the loopback address of the same family when addr names no
// host or the wildcard one.
func readyzURL(addr string) string {
	if addr == "" {
		addr = ":8080"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "http://127.0.0.1:8080/readyz"
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/readyz"
}

// probe GETs target once and wants 200 within timeout.
func probe(ctx context.Context, target string, timeout time.Duration) error {
	client := &http.Client{
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return fmt.Errorf("request: %w", err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("get %s: %w", target, err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, healthcheckBodyCap))
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("get %s: %s, want 200 OK", target, resp.Status)
	}
	return nil
}
