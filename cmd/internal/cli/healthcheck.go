package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/spf13/cobra"
)

// healthcheckBodyCap is how much of a response body is read and thrown away.
const healthcheckBodyCap = 64 << 10

func newHealthcheckCmd(s streams) *cobra.Command {
	target := "http://127.0.0.1:8080/readyz"
	timeout := 3 * time.Second
	cmd := &cobra.Command{
		Use:   "healthcheck",
		Short: "GET a URL and exit 0 only on 200 (the container's HEALTHCHECK)",
		Long: `healthcheck sends one GET to --url and exits 0 when the answer is 200 OK,
1 otherwise: another status, a redirect (never followed), no answer within
--timeout, or no connection. It is the container image's HEALTHCHECK, which
has no shell or curl to run; the default URL is aepgate serve's /readyz
(the database and the queue answer).

Exit codes: 0 healthy, 1 unhealthy, 2 for a bad flag.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			u, err := url.Parse(target)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
				return failf(2, "healthcheck: --url must be an http or https URL, got %q", target)
			}
			if timeout <= 0 {
				return failf(2, "healthcheck: --timeout must be positive, got %s", timeout)
			}
			if err := probe(cmd.Context(), u.String(), timeout); err != nil {
				return failf(1, "healthcheck: %v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&target, "url", target, "the URL to GET")
	cmd.Flags().DurationVar(&timeout, "timeout", timeout, "how long to wait for the whole answer")
	return cmd
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
