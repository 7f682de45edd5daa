// Package boardweb serves the owner's board as a signed-in web page
// (docs/board.md): GET /board shows, for every repository of the App's
// installations that the signed-in person can read, the board the App
// keeps. Sign-in is GitHub's OAuth web flow with the App's client ID and
// secret; the session is a signed cookie holding the person's login and
// the repositories GitHub said their token can access, trusted for a few
// minutes. No token is kept: after the session ends, the page signs the
// person in again.
package boardweb

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/boardview"
)

// DefaultSessionTTL is how long a session, and the repository list in it,
// is trusted before the page signs the person in again.
const DefaultSessionTTL = 5 * time.Minute

// stateTTL bounds a sign-in: the state cookie lasts this long.
const stateTTL = 10 * time.Minute

// GitHub is GitHub's side of sign-in (gh.OAuth).
type GitHub interface {
	// AuthorizeURL is GitHub's sign-in page, which returns to redirect
	// with a code and state.
	AuthorizeURL(redirect, state string) string
	// Exchange trades a code for a user access token.
	Exchange(ctx context.Context, code, redirect string) (string, error)
	// UserAccess reads the login and the installations and repositories
	// the token can access.
	UserAccess(ctx context.Context, token string) (gh.UserAccess, error)
	// Revoke deletes the token once the page is done with it.
	Revoke(ctx context.Context, token string) error
}

// Source is what the App knows (app.App).
type Source interface {
	// InstallationRepos lists every repository ("owner/name") the App's
	// installation id covers.
	InstallationRepos(ctx context.Context, id int64) ([]string, error)
	// Board is the latest board kept for repo, false when none yet.
	Board(ctx context.Context, repo string) (boardview.Board, bool, error)
}

// Options configure the page. PublicURL, Secret, GitHub and Source are
// required.
type Options struct {
	// PublicURL is where people reach the App, e.g.
	// https://aepgate.example; the OAuth callback is PublicURL +
	// /board/callback, and cookies are Secure when it is https.
	PublicURL string
	// Secret is the App's client secret; the cookie key is derived from it.
	Secret []byte
	GitHub GitHub
	Source Source
	// Logger receives sign-in failures (never a token or a code).
	Logger *slog.Logger
	// SessionTTL is how long a session is trusted (zero:
	// DefaultSessionTTL).
	SessionTTL time.Duration
	// Now is the clock (nil: time.Now).
	Now func() time.Time

	// filter keeps the repositories the person may see (zero:
	// readableOnly); a negative-control test removes it.
	filter accessFilter
	// sign seals and opens cookies (zero: HMAC-SHA256 with the key derived
	// from Secret); a negative-control test stops it checking.
	sign signer
	// sameState compares the callback's state with the state cookie's
	// (zero: constant-time equality); a negative-control test removes it.
	sameState func(cookie, query string) bool
}

// Page is the board page's handler.
type Page struct {
	opts     Options
	base     string // PublicURL without a trailing slash
	secure   bool
	callback string
	mux      *http.ServeMux
}

// New checks opts and returns the page.
func New(opts Options) (*Page, error) {
	u, err := url.Parse(strings.TrimSuffix(opts.PublicURL, "/"))
	switch {
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "":
		return nil, errors.New("board page: the public URL must be an absolute http(s) URL")
	case len(opts.Secret) == 0:
		return nil, errors.New("board page: the client secret is empty")
	case opts.GitHub == nil || opts.Source == nil:
		return nil, errors.New("board page: GitHub and the board source are required")
	}
	opts.setDefaults()
	base := u.String()
	p := &Page{opts: opts, base: base, secure: u.Scheme == "https", callback: base + "/board/callback", mux: http.NewServeMux()}
	p.mux.HandleFunc("GET /board", p.board)
	p.mux.HandleFunc("GET /board/login", p.login)
	p.mux.HandleFunc("GET /board/callback", p.finish)
	p.mux.HandleFunc("POST /board/logout", p.logout)
	return p, nil
}

func (o *Options) setDefaults() {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.SessionTTL <= 0 {
		o.SessionTTL = DefaultSessionTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.filter == nil {
		o.filter = readableOnly
	}
	if o.sign == nil {
		o.sign = newHMACSigner(o.Secret)
	}
	if o.sameState == nil {
		o.sameState = equalState
	}
}

// ServeHTTP serves GET /board, GET /board/login, GET /board/callback and
// POST /board/logout.
func (p *Page) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	securityHeaders(w.Header())
	p.mux.ServeHTTP(w, r)
}

// securityHeaders forbid scripts, framing, outside resources and caching,
// and keep the callback's code out of any Referer.
func securityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Cache-Control", "no-store")
}
