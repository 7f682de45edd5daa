package ghfake

import (
	"crypto/subtle"
	"net/http"
	"net/url"
	"time"
)

// oauthState is the fake's OAuth web flow for GitHub Apps: the user the
// browser is signed in to GitHub as, the Apps' client secrets and the codes
// handed out. Callers hold mu.
type oauthState struct {
	signedIn string
	secrets  map[int64]string      // App ID → client secret
	codes    map[string]*oauthCode // code → what it was issued for
}

// oauthCode is one authorization code: single use, ten minutes, bound to
// the App, the user and the redirect URI it was issued with.
type oauthCode struct {
	app      *App
	user     *user
	redirect string
	expires  time.Time
}

// userTokenLife is how long a GitHub App user access token lives (GitHub
// docs: "Refreshing user access tokens": eight hours).
const userTokenLife = 8 * time.Hour

// SignIn makes login the user signed in to the fake's web pages, the one
// GET /login/oauth/authorize signs in to an App ("" signs out).
func (f *Fake) SignIn(login string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if login != "" {
		f.ensureUser(login)
	}
	f.oauth.signedIn = login
}

// ClientSecret is the App's OAuth client secret, made on first use.
func (a *App) ClientSecret() string {
	a.f.mu.Lock()
	defer a.f.mu.Unlock()
	return a.f.clientSecret(a)
}

// clientSecret returns a's secret, creating it; callers hold mu.
func (f *Fake) clientSecret(a *App) string {
	if f.oauth.secrets == nil {
		f.oauth.secrets = map[int64]string{}
	}
	if f.oauth.secrets[a.ID] == "" {
		f.oauth.secrets[a.ID] = randomToken("")
	}
	return f.oauth.secrets[a.ID]
}

// clientSecretOK reports whether secret is a's client secret (a nil a
// never matches); callers hold mu.
func (f *Fake) clientSecretOK(a *App, secret string) bool {
	return a != nil && subtle.ConstantTimeCompare([]byte(secret), []byte(f.clientSecret(a))) == 1
}

// appByClientID is the App whose client ID is id, or nil; callers hold mu.
func (f *Fake) appByClientID(id string) *App {
	for _, a := range f.apps {
		if id != "" && a.ClientID == id {
			return a
		}
	}
	return nil
}

func (f *Fake) oauthRoutes() {
	f.handle("GET /login/oauth/authorize", access{scope: scopePublic}, authorizeApp)
	f.handle("POST /login/oauth/access_token", access{scope: scopePublic}, exchangeCode)
	f.handle("GET /user", read("metadata"), func(c *call) (int, any) {
		if c.tok.kind != userToken {
			return apiError(http.StatusForbidden, "Resource not accessible by integration")
		}
		return http.StatusOK, c.f.userJSON(c.tok.user)
	})
	f.handle("GET /user/installations", read("metadata"), userInstallations)
	f.handle("GET /user/installations/{installation_id}/repositories", read("metadata"), userInstallationRepos)
	f.handle("DELETE /applications/{client_id}/token", access{scope: scopePublic}, revokeToken)
}

// authorizeApp serves the authorize page: the signed-in user (SignIn)
// authorises the App at once and is redirected to redirect_uri with a code
// and the state given. No user signed in → 401; an unknown client ID or a
// missing redirect_uri → 404, where GitHub shows an error page.
func authorizeApp(c *call) (int, any) {
	q := c.r.URL.Query()
	a := c.f.appByClientID(q.Get("client_id"))
	back, err := url.Parse(q.Get("redirect_uri"))
	switch {
	case a == nil:
		return apiError(http.StatusNotFound, "ghfake: no App has client_id "+q.Get("client_id"))
	case err != nil || back.Scheme == "" || back.Host == "":
		return apiError(http.StatusNotFound, "ghfake: redirect_uri must be an absolute URL (the fake has no default callback)")
	case c.f.oauth.signedIn == "":
		return apiError(http.StatusUnauthorized, "ghfake: no user is signed in (Fake.SignIn)")
	}
	if c.f.oauth.codes == nil {
		c.f.oauth.codes = map[string]*oauthCode{}
	}
	code := randomToken("")[:20]
	c.f.oauth.codes[code] = &oauthCode{
		app: a, user: c.f.ensureUser(c.f.oauth.signedIn), redirect: q.Get("redirect_uri"), expires: c.f.clock().Add(10 * time.Minute),
	}
	bq := back.Query()
	bq.Set("code", code)
	if s := q.Get("state"); s != "" {
		bq.Set("state", s)
	}
	back.RawQuery = bq.Encode()
	http.Redirect(c.w, c.r, back.String(), http.StatusFound)
	return 0, nil
}
