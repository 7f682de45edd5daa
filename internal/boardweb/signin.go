package boardweb

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"time"
)

// Cookie names. Both are scoped to /board.
const (
	sessionCookie = "aepgate_board"
	stateCookie   = "aepgate_board_state"
)

// login starts a sign-in: a fresh random state, bound to this browser by a
// short-lived signed cookie, and a redirect to GitHub's sign-in page.
func (p *Page) login(w http.ResponseWriter, r *http.Request) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		p.fail(w, http.StatusInternalServerError, "Sign-in failed", "No random state could be made.")
		return
	}
	state := hex.EncodeToString(b)
	exp := p.opts.Now().Add(stateTTL)
	p.setCookie(w, stateCookie, sealState(p.opts.sign, state, exp), stateTTL)
	http.Redirect(w, r, p.opts.GitHub.AuthorizeURL(p.callback, state), http.StatusFound)
}

// finish is GitHub's callback: the state must be the one this browser's
// state cookie holds (a login started elsewhere, e.g. an attacker's code,
// is refused); then the code becomes a token, the token the person's
// access, and the access a session cookie. The token is dropped.
func (p *Page) finish(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	c, err := r.Cookie(stateCookie)
	if err != nil {
		p.fail(w, http.StatusForbidden, "Sign-in refused", "This browser did not start this sign-in (no state cookie). Start again from the board.")
		return
	}
	p.clearCookie(w, stateCookie)
	want, err := openState(p.opts.sign, c.Value, p.opts.Now())
	if err != nil || !p.opts.sameState(want, q.Get("state")) {
		p.opts.Logger.Warn("board sign-in refused: state does not match", "err", err)
		p.fail(w, http.StatusForbidden, "Sign-in refused", "The sign-in's state does not match the one this browser started with, or it expired. Start again from the board.")
		return
	}
	if e := q.Get("error"); e != "" {
		p.fail(w, http.StatusForbidden, "Sign-in cancelled", "GitHub answered: "+e+".")
		return
	}
	s, err := p.signIn(r.Context(), q.Get("code"))
	if err != nil {
		p.opts.Logger.Warn("board sign-in failed", "err", err)
		p.fail(w, http.StatusBadGateway, "Sign-in failed", "GitHub did not confirm the sign-in: "+err.Error())
		return
	}
	v, err := encodeSession(p.opts.sign, s)
	if err != nil {
		p.fail(w, http.StatusInternalServerError, "Sign-in failed", "You can read more repositories than one session cookie holds ("+strconv.Itoa(len(s.Repos))+").")
		return
	}
	p.setCookie(w, sessionCookie, v, p.opts.SessionTTL)
	http.Redirect(w, r, p.base+"/board", http.StatusSeeOther)
}

// signIn turns the callback's code into a session.
func (p *Page) signIn(ctx context.Context, code string) (session, error) {
	if code == "" {
		return session{}, errors.New("the callback carried no code")
	}
	tok, err := p.opts.GitHub.Exchange(ctx, code, p.callback)
	if err != nil {
		return session{}, err
	}
	// The token is used for this one read and revoked: the session keeps
	// what it read, never the token, and a token left valid for its eight
	// hours would be worth stealing from a log or a memory dump.
	ua, err := p.opts.GitHub.UserAccess(ctx, tok)
	if rerr := p.opts.GitHub.Revoke(context.WithoutCancel(ctx), tok); rerr != nil {
		p.opts.Logger.Warn("board sign-in: the user token was not revoked", "err", rerr)
	}
	if err != nil {
		return session{}, err
	}
	repos, err := p.repos(ctx, ua)
	if err != nil {
		return session{}, err
	}
	return session{Login: ua.Login, Repos: repos, Expires: p.opts.Now().Add(p.opts.SessionTTL).Unix()}, nil
}

// logout ends the session.
func (p *Page) logout(w http.ResponseWriter, r *http.Request) {
	p.clearCookie(w, sessionCookie)
	http.Redirect(w, r, p.base+"/board", http.StatusSeeOther)
}

// equalState compares two states in constant time.
func equalState(cookie, query string) bool {
	return query != "" && subtle.ConstantTimeCompare([]byte(cookie), []byte(query)) == 1
}

// setCookie sets a cookie of the page: path /board, HttpOnly, SameSite=Lax
// (sent on GitHub's redirect back, not on other sites' requests), Secure
// when the public URL is https.
func (p *Page) setCookie(w http.ResponseWriter, name, value string, ttl time.Duration) {
	http.SetCookie(w, &http.Cookie{
		Name: name, Value: value, Path: "/board", MaxAge: int(ttl.Seconds()),
		HttpOnly: true, Secure: p.secure, SameSite: http.SameSiteLaxMode,
	})
}

func (p *Page) clearCookie(w http.ResponseWriter, name string) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: "/board", MaxAge: -1, HttpOnly: true, Secure: p.secure, SameSite: http.SameSiteLaxMode})
}
