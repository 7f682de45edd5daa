package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/gh"
)

// registerFlags are app register's settings: the manifest's and where the
// local page listens, where GitHub is and where the secrets go.
type registerFlags struct {
	manifestFlags
	listen, dir, githubURL, format string
	timeout                        time.Duration
}

func newAppRegisterCmd(s streams, events func() []string) *cobra.Command {
	f := registerFlags{manifestFlags: manifestFlags{events: events}}
	cmd := &cobra.Command{
		Use:   "register --url https://HOST",
		Short: "Register the GitHub App from your browser and write its key and secrets for serve",
		Long: `register serves a page on --listen (loopback) with one button that posts the
App manifest ('aepgate app manifest' prints the same one, redirected to this
page) to GitHub's new-App page, of your account or of --org's organisation,
with a random state. GitHub registers the App and sends the browser back to
this page with a one-time code; the state must be the one sent, or the code
is refused. The code is exchanged (POST /app-manifests/{code}/conversions)
for the App's ID, private key, webhook secret and client secret.

Into --dir it writes, each mode 0600 and never over an existing file:
private-key.pem, webhook-secret, client-secret, and aepgate.env, the
AEPGATE_* settings 'aepgate serve --env-file aepgate.env' reads (App ID,
the three files, client ID and public URL). Then it prints the App's page
and where to install it.

The command waits at most --timeout for the button and GitHub's answer.
--format json prints {id, slug, name, html_url, owner, client_id,
install_url, files} instead of the lines.

Exit codes: 0 registered; 1 not registered (GitHub refused the code, or
--timeout passed); 2 a bad flag, an existing file in --dir or a --listen that
is not loopback; 3 GitHub unreachable; 130 interrupted (Ctrl-C).`,
		Example: `  aepgate app register --url https://aepgate.example.com
  aepgate app register --url https://aepgate.example.com --org acme --name acme-aepgate --dir /etc/aepgate
  aepgate serve --env-file aepgate.env`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error { return runRegister(c.Context(), s, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.url, "url", "", "the https URL aepgate serve is reached at (required)")
	fl.StringVar(&f.name, "name", "aepgate", "the App's name (unique on GitHub)")
	fl.StringVar(&f.org, "org", "", "register the App for this organisation instead of your account")
	fl.StringVar(&f.listen, "listen", "127.0.0.1:0", "loopback address of the local page (port 0: any free port)")
	fl.StringVar(&f.dir, "dir", ".", "folder the key, the secrets and aepgate.env are written to")
	fl.StringVar(&f.githubURL, "github-url", gh.DefaultBaseURL, "GitHub REST API root (GHES: https://HOST/api/v3/)")
	fl.DurationVar(&f.timeout, "timeout", 15*time.Minute, "how long to wait for the registration")
	addFormat(cmd, &f.format)
	return cmd
}

// runRegister checks everything that can be checked before the page opens,
// then serves it until the App is registered, refused or the time is up.
func runRegister(ctx context.Context, s streams, f registerFlags) error {
	files, err := newSecretFiles(f.dir)
	if err != nil {
		return failf(exitUsage, "app register: %v", err)
	}
	ln, err := loopbackListener(f.listen, loopbackOnly)
	if err != nil {
		return failf(exitUsage, "app register: %v", err)
	}
	defer ln.Close()
	r, err := newRegistrar(f, "http://"+ln.Addr().String(), files)
	if err != nil {
		return failf(exitUsage, "app register: %v", err)
	}
	srv := &http.Server{Handler: r.handler(), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	defer shutdownPage(srv)
	fmt.Fprintf(s.err, "open %s/ in your browser and press the button (waiting %s)\n", r.local, f.timeout)
	wait, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	select {
	case res := <-r.done:
		if res.err != nil {
			return failf(networkCode(res.err, exitFindings), "app register: %v", res.err)
		}
		return printRegistered(s, f.format, res.reg)
	case <-wait.Done():
		if ctx.Err() != nil {
			return failf(exitInterrupted, "app register: interrupted; no App registered")
		}
		return failf(exitFindings, "app register: no App registered within %s (%v)", f.timeout, context.Cause(wait))
	}
}

// shutdownPage stops the page once the answers being written are out.
func shutdownPage(srv *http.Server) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if srv.Shutdown(ctx) != nil {
		srv.Close()
	}
}

// loopbackListener listens on addr once hostRule accepts its host
// (loopbackOnly in the command: the page hands out the App's secrets to
// whoever loads it).
func loopbackListener(addr string, hostRule func(host string) error) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--listen %q: %v", addr, err)
	}
	if err := hostRule(host); err != nil {
		return nil, fmt.Errorf("--listen %q: %w", addr, err)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--listen: %w", err)
	}
	return ln, nil
}

// loopbackOnly accepts localhost and loopback addresses only.
func loopbackOnly(host string) error {
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return errors.New("use a loopback address such as 127.0.0.1:3000")
	}
	return nil
}

// newState is the random state the callback must bring back.
func newState() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("random state: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// printRegistered reports the registration on stdout.
func printRegistered(s streams, format string, reg registration) error {
	if format == formatJSON {
		return writeJSON(s.out, reg)
	}
	fmt.Fprintf(s.out, "registered App %s (ID %d): %s\n", reg.Slug, reg.ID, reg.HTMLURL)
	for _, p := range []string{reg.Files.PrivateKey, reg.Files.WebhookSecret, reg.Files.ClientSecret, reg.Files.Env} {
		fmt.Fprintf(s.out, "wrote %s\n", p)
	}
	fmt.Fprintf(s.out, "next: aepgate serve --env-file %s, then install the App: %s\n", reg.Files.Env, reg.InstallURL)
	return nil
}

// errAlreadyRegistered answers a callback after the App was registered.
var errAlreadyRegistered = errors.New("this page has registered its App already")
