package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v62/github"
)

// ErrCredentials is wrapped by AppIdentity's error when GitHub refused the
// App's JWT (401): the private key is not the App's or the App ID is wrong.
var ErrCredentials = errors.New("GitHub refused the App's credentials")

// ErrManifestCode is wrapped by ConvertManifest's error when GitHub does not
// know the code (404): it was mistyped, already used or older than an hour.
var ErrManifestCode = errors.New("GitHub does not know this manifest code (used already, or older than an hour)")

// AppInfo is what GitHub says of an App: its ID, slug, name and page.
type AppInfo struct {
	ID      int64  `json:"id"`
	Slug    string `json:"slug"`
	Name    string `json:"name"`
	HTMLURL string `json:"html_url"`
	Owner   string `json:"owner"`
}

// AppIdentity asks GitHub who the App is (GET /app with the App's JWT). A
// 401 wraps ErrCredentials; any other failure is returned as it came (a
// network error, a 5xx).
//
// GitHub API docs: https://docs.github.com/rest/apps/apps#get-the-authenticated-app
func (a *AppAuth) AppIdentity(ctx context.Context) (AppInfo, error) {
	c, err := a.AppClient()
	if err != nil {
		return AppInfo{}, err
	}
	got, resp, err := c.Apps.Get(ctx, "")
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusUnauthorized {
			return AppInfo{}, fmt.Errorf("get /app as App %d: %w: %v", a.appID, ErrCredentials, err)
		}
		return AppInfo{}, fmt.Errorf("get /app: %w", err)
	}
	if got.GetID() != a.appID {
		return AppInfo{}, fmt.Errorf("get /app: GitHub answered for App %d, not %d: %w", got.GetID(), a.appID, ErrCredentials)
	}
	return AppInfo{ID: got.GetID(), Slug: got.GetSlug(), Name: got.GetName(), HTMLURL: got.GetHTMLURL(), Owner: got.GetOwner().GetLogin()}, nil
}

// ManifestApp is an App just registered from a manifest, with the secrets
// GitHub hands out once: the PEM private key, the webhook secret and the
// OAuth client secret.
type ManifestApp struct {
	AppInfo
	ClientID      string
	ClientSecret  string
	WebhookSecret string
	PEM           string
}

// ConvertManifest exchanges the one-time code GitHub gave the manifest's
// redirect URL for the new App and its secrets (POST
// /app-manifests/{code}/conversions, no authentication). baseURL is the
// REST root (see NewClient); hc may be nil. A 404 wraps ErrManifestCode.
//
// GitHub API docs: https://docs.github.com/rest/apps/apps#create-a-github-app-from-a-manifest
func ConvertManifest(ctx context.Context, baseURL string, hc *http.Client, code string) (ManifestApp, error) {
	if hc == nil {
		hc = &http.Client{}
	}
	c, err := NewClient(baseURL, hc)
	if err != nil {
		return ManifestApp{}, err
	}
	cfg, resp, err := c.Apps.CompleteAppManifest(ctx, code)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return ManifestApp{}, fmt.Errorf("convert manifest code: %w", ErrManifestCode)
		}
		return ManifestApp{}, fmt.Errorf("convert manifest code: %w", err)
	}
	return manifestApp(cfg)
}

// manifestApp checks that GitHub's answer carries everything serve needs.
func manifestApp(cfg *github.AppConfig) (ManifestApp, error) {
	m := ManifestApp{
		AppInfo: AppInfo{
			ID: cfg.GetID(), Slug: cfg.GetSlug(), Name: cfg.GetName(), HTMLURL: cfg.GetHTMLURL(), Owner: cfg.GetOwner().GetLogin(),
		},
		ClientID: cfg.GetClientID(), ClientSecret: cfg.GetClientSecret(), WebhookSecret: cfg.GetWebhookSecret(), PEM: cfg.GetPEM(),
	}
	switch {
	case m.ID <= 0:
		return ManifestApp{}, errors.New("convert manifest code: GitHub's answer has no App id")
	case m.PEM == "":
		return ManifestApp{}, errors.New("convert manifest code: GitHub's answer has no pem (private key)")
	case m.WebhookSecret == "":
		return ManifestApp{}, errors.New("convert manifest code: GitHub's answer has no webhook_secret")
	}
	return m, nil
}

// Identity is AppIdentity through the client factory: the App's login
// (<slug>[bot]) is kept for AppLogin, so a process reads GET /app once
// when the check at start succeeded.
func (c *Clients) Identity(ctx context.Context) (AppInfo, error) {
	info, err := c.auth.AppIdentity(ctx)
	if err != nil {
		return AppInfo{}, err
	}
	if info.Slug != "" {
		c.mu.Lock()
		c.appLogin = info.Slug + "[bot]"
		c.mu.Unlock()
	}
	return info, nil
}
