package gh

import (
	"context"
	"crypto/rsa"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/google/go-github/v62/github"
)

// JWT timing (GitHub docs: Generating a JSON Web Token (JWT) for a GitHub
// App): issued a minute in the past for clock drift, expiring well inside
// GitHub's ten-minute cap.
const (
	jwtBackdate = 60 * time.Second
	jwtLifetime = 9 * time.Minute
	// tokenRefreshMargin is how long before expiry a cached installation
	// token is replaced.
	tokenRefreshMargin = 5 * time.Minute
	// jwtReuse is how long one signed JWT is reused: well inside its
	// lifetime, so every request carries one valid for minutes yet. Reuse
	// saves an RSA signature per request, and keeps conditional requests
	// on /app routes answerable with 304 (GitHub folds the Authorization
	// header into the ETag).
	jwtReuse = 5 * time.Minute
)

// ParsePrivateKey reads an App's PEM-encoded RSA private key (PKCS#1 as
// GitHub issues it, or PKCS#8).
func ParsePrivateKey(pem []byte) (*rsa.PrivateKey, error) {
	key, err := jwt.ParseRSAPrivateKeyFromPEM(pem)
	if err != nil {
		return nil, fmt.Errorf("app private key: %w", err)
	}
	return key, nil
}

// AppAuth authenticates as a GitHub App: it signs JWTs and obtains, caches
// and refreshes installation tokens, one refresh per installation at a time.
type AppAuth struct {
	appID   int64
	key     *rsa.PrivateKey
	baseURL string
	base    http.RoundTripper
	// now is the clock; tests replace it.
	now func() time.Time

	mu     sync.Mutex
	tokens map[int64]*installToken
	// jwt is the last signed JWT and when it was signed (jwtReuse).
	jwt      string
	jwtAt    time.Time
	jwtMutex sync.Mutex
}

// installToken is one installation's cached token; mu serialises refreshes.
type installToken struct {
	mu      sync.Mutex
	token   string
	expires time.Time
}

// NewAppAuth returns an authenticator for App appID with key, calling
// GitHub at baseURL (see NewClient for the URL rules) over base (nil means
// http.DefaultTransport).
func NewAppAuth(appID int64, key *rsa.PrivateKey, baseURL string, base http.RoundTripper) *AppAuth {
	if base == nil {
		base = http.DefaultTransport
	}
	return &AppAuth{appID: appID, key: key, baseURL: baseURL, base: base, now: time.Now, tokens: map[int64]*installToken{}}
}

// AppID is the App's ID.
func (a *AppAuth) AppID() int64 { return a.appID }

// JWT returns an App JWT: RS256, iss = the App ID, iat one minute before it
// was signed, exp nine minutes after. One is signed at most every jwtReuse
// (a clock that moves back signs anew).
func (a *AppAuth) JWT() (string, error) {
	now := a.now()
	a.jwtMutex.Lock()
	defer a.jwtMutex.Unlock()
	if a.jwt != "" && !now.Before(a.jwtAt) && now.Sub(a.jwtAt) < jwtReuse {
		return a.jwt, nil
	}
	claims := jwt.RegisteredClaims{
		Issuer:    strconv.FormatInt(a.appID, 10),
		IssuedAt:  jwt.NewNumericDate(now.Add(-jwtBackdate)),
		ExpiresAt: jwt.NewNumericDate(now.Add(jwtLifetime)),
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodRS256, claims).SignedString(a.key)
	if err != nil {
		return "", fmt.Errorf("sign app jwt: %w", err)
	}
	a.jwt, a.jwtAt = s, now
	return s, nil
}

// AppClient returns a go-github client authenticated as the App itself
// (JWT), for the /app endpoints.
func (a *AppAuth) AppClient() (*github.Client, error) {
	return NewClient(a.baseURL, &http.Client{Transport: &jwtTransport{auth: a, base: a.base}})
}

// Token returns a valid installation token for installation id, from the
// cache while it has more than five minutes left, otherwise newly created
// (POST /app/installations/{id}/access_tokens). Concurrent callers for the
// same installation wait for one refresh. The token's length and shape are
// never checked: GitHub's token format changes.
func (a *AppAuth) Token(ctx context.Context, id int64) (string, error) {
	t := a.entry(id)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.token != "" && a.now().Add(tokenRefreshMargin).Before(t.expires) {
		return t.token, nil
	}
	c, err := a.AppClient()
	if err != nil {
		return "", err
	}
	tok, _, err := c.Apps.CreateInstallationToken(ctx, id, nil)
	if err != nil {
		return "", fmt.Errorf("installation %d token: %w", id, err)
	}
	if tok.GetToken() == "" {
		return "", fmt.Errorf("installation %d token: GitHub returned no token", id)
	}
	t.token, t.expires = tok.GetToken(), tok.GetExpiresAt().Time
	if t.expires.IsZero() {
		t.expires = a.now().Add(time.Hour)
	}
	return t.token, nil
}

// Forget drops installation id's cached token (after GitHub rejected it).
func (a *AppAuth) Forget(id int64, token string) {
	t := a.entry(id)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.token == token {
		t.token = ""
	}
}

func (a *AppAuth) entry(id int64) *installToken {
	a.mu.Lock()
	defer a.mu.Unlock()
	t, ok := a.tokens[id]
	if !ok {
		t = &installToken{}
		a.tokens[id] = t
	}
	return t
}

// jwtTransport signs each request with a fresh App JWT.
type jwtTransport struct {
	auth *AppAuth
	base http.RoundTripper
}

func (t *jwtTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	s, err := t.auth.JWT()
	if err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+s)
	return t.base.RoundTrip(r)
}

// installationTransport adds installation id's token to each request and
// forgets the token when GitHub answers 401, so the next request refreshes.
type installationTransport struct {
	auth *AppAuth
	id   int64
	base http.RoundTripper
}

// ErrNoInstallation is returned for a request made without an installation.
var ErrNoInstallation = errors.New("no installation id")

func (t *installationTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.id == 0 {
		return nil, ErrNoInstallation
	}
	tok, err := t.auth.Token(req.Context(), t.id)
	if err != nil {
		return nil, err
	}
	r := req.Clone(req.Context())
	r.Header.Set("Authorization", "Bearer "+tok)
	resp, err := t.base.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		t.auth.Forget(t.id, tok)
	}
	return resp, err
}
