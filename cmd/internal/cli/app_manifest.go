package cli

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/app/manifest"
	"github.com/spf13/cobra"
)

// homepage is the App's homepage in every manifest.
const homepage = "https://github.com/aepgate/aepgate"

// appManifest is GitHub's App manifest ("Registering a GitHub App from a
// manifest" in GitHub's docs). It carries no secret: GitHub generates the
// webhook secret, the private key and the client secret.
type appManifest struct {
	Name                  string                                  `json:"name"`
	URL                   string                                  `json:"url"`
	HookAttributes        hookAttributes                          `json:"hook_attributes"`
	RedirectURL           string                                  `json:"redirect_url"`
	CallbackURLs          []string                                `json:"callback_urls,omitempty"`
	SetupURL              string                                  `json:"setup_url,omitempty"`
	Description           string                                  `json:"description"`
	Public                bool                                    `json:"public"`
	DefaultEvents         []string                                `json:"default_events"`
	DefaultPermissions    map[manifest.Permission]manifest.Access `json:"default_permissions"`
	RequestOAuthOnInstall bool                                    `json:"request_oauth_on_install"`
	SetupOnUpdate         bool                                    `json:"setup_on_update"`
}

type hookAttributes struct {
	URL    string `json:"url"`
	Active bool   `json:"active"`
}

// manifestFlags are app manifest's settings, and the webhook events the
// App subscribes to (App.Events).
type manifestFlags struct {
	url, name, org, redirect, format string
	events                           func() []string
}

// githubLogin is an organisation login's form, compiled on first use.
var githubLogin = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$`) })

// appShort is the app command's one line, in aepgate-app and in aepgate,
// which runs aepgate-app for it.
const appShort = "Help register the aepgate GitHub App"

// newAppCmd is the app command; events are the webhook events the App
// subscribes to.
func newAppCmd(s streams, events func() []string) *cobra.Command {
	return group(&cobra.Command{
		Use:   "app",
		Short: appShort,
	}, newAppManifestCmd(s, events), newAppRegisterCmd(s, events))
}

func newAppManifestCmd(s streams, events func() []string) *cobra.Command {
	f := manifestFlags{events: events}
	cmd := &cobra.Command{
		Use:   "manifest --url https://HOST",
		Short: "Print the GitHub App manifest for an aepgate served at a URL",
		Long: `manifest prints GitHub's App manifest for an aepgate App served at --url:
its webhook (<url>/webhook), the OAuth callback of the signed-in board page
(<url>/board/callback, used when serve runs with --public-url <url>; see
docs/board.md), the repository permissions and the webhook events every
check of the App needs (docs/app.md lists them), and no secret: GitHub
generates the webhook secret and the private key when it registers the App.
Post the JSON as the form field "manifest" to the address printed on stderr;
GitHub then redirects to --redirect-url (default: --url) with a one-time code
to exchange for the App's ID, private key and webhook secret (docs/app.md).
'aepgate app register' does all of this from a local page with one button.
--format json prints {manifest, post_to} instead, the address included.

Exit codes: 0 printed, 2 for a bad flag or URL.`,
		Example: `  aepgate app manifest --url https://aepgate.example.com --name acme-aepgate --org acme`,
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			m, err := f.manifest()
			if err != nil {
				return failf(2, "app manifest: %v", err)
			}
			if f.format == formatJSON {
				return writeJSON(s.out, map[string]any{"manifest": m, "post_to": f.registerURL()})
			}
			b, err := json.MarshalIndent(m, "", "  ")
			if err != nil {
				return failf(exitUsage, "app manifest: %v", err)
			}
			fmt.Fprintf(s.out, "%s\n", b)
			fmt.Fprintf(s.err, "post it as the form field \"manifest\" to %s\n", f.registerURL())
			return nil
		},
	}
	cmd.Flags().StringVar(&f.url, "url", "", "the https URL aepgate serve is reached at (required)")
	cmd.Flags().StringVar(&f.name, "name", "aepgate", "the App's name (unique on GitHub)")
	cmd.Flags().StringVar(&f.org, "org", "", "register the App for this organisation instead of your account")
	cmd.Flags().StringVar(&f.redirect, "redirect-url", "", "where GitHub sends the one-time code (default: --url)")
	addFormat(cmd, &f.format)
	return cmd
}

// manifest checks the flags and builds the manifest.
func (f manifestFlags) manifest() (appManifest, error) {
	base, err := serviceURL("--url", f.url)
	if err != nil {
		return appManifest{}, err
	}
	redirect := base + "/"
	if f.redirect != "" {
		if redirect, err = serviceURL("--redirect-url", f.redirect); err != nil {
			return appManifest{}, err
		}
	}
	if strings.TrimSpace(f.name) == "" || len(f.name) > 34 {
		return appManifest{}, fmt.Errorf("--name must be 1 to 34 characters (GitHub's limit), got %q", f.name)
	}
	if f.org != "" && !githubLogin().MatchString(f.org) {
		return appManifest{}, fmt.Errorf("--org %q is not a GitHub organisation login", f.org)
	}
	if f.events == nil {
		return appManifest{}, fmt.Errorf("this binary does not know the App's webhook events: run aepgate-app")
	}
	return appManifest{
		Name:               f.name,
		URL:                homepage,
		HookAttributes:     hookAttributes{URL: base + "/webhook", Active: true},
		RedirectURL:        redirect,
		CallbackURLs:       []string{base + "/board/callback"},
		Description:        "Enforces the Auditor/Executor delivery protocol: work units, audits, owner gates, merge readiness, merged-main readback, completion certificates and release closure.",
		DefaultEvents:      f.events(),
		DefaultPermissions: manifest.Permissions(),
	}, nil
}

// registerURL is where GitHub takes a manifest: the account's or the
// organisation's new-App page.
func (f manifestFlags) registerURL() string {
	if f.org != "" {
		return "https://github.com/organizations/" + f.org + "/settings/apps/new"
	}
	return "https://github.com/settings/apps/new"
}

// serviceURL checks that raw is an absolute https URL without query or
// fragment, and returns it without a trailing slash.
func serviceURL(flag, raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", fmt.Errorf("%s must be an https URL such as https://aepgate.example.com (no query, fragment or user), got %q", flag, raw)
	}
	return strings.TrimRight(u.String(), "/"), nil
}
