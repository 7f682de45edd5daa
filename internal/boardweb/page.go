package boardweb

import (
	"context"
	"errors"
	"fmt"
	"net/http"
)

// pageTitle heads every page.
const pageTitle = "aepgate board"

// board serves GET /board: the signed-in person's repositories with their
// kept boards (those without one yet last); without a session, a sign-in
// button; with an expired one, a new sign-in at once; with a cookie this
// server did not sign, a refusal.
func (p *Page) board(w http.ResponseWriter, r *http.Request) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		p.signInPage(w)
		return
	}
	s, err := decodeSession(p.opts.sign, c.Value, p.opts.Now())
	switch {
	case errors.Is(err, errExpired):
		http.Redirect(w, r, p.base+"/board/login", http.StatusFound)
		return
	case err != nil:
		p.clearCookie(w, sessionCookie)
		p.fail(w, http.StatusForbidden, "Session refused", "This browser's board session was not signed by this server. Sign in again.")
		return
	}
	page, err := p.boardsOf(r.Context(), s)
	if err != nil {
		p.opts.Logger.Warn("board page: read a kept board", "err", err)
		p.fail(w, http.StatusInternalServerError, "The board could not be read", "The App could not read a kept board; try again shortly.")
		return
	}
	writePage(w, http.StatusOK, page)
}

// boardsOf is the page of session s: its repositories' kept boards, those
// without one yet last.
func (p *Page) boardsOf(ctx context.Context, s session) (BoardPage, error) {
	page := BoardPage{Title: pageTitle, Login: s.Login, LogoutPath: "/board/logout", Generated: p.opts.Now()}
	var none []BoardPageRepo
	for _, repo := range s.Repos {
		b, ok, err := p.opts.Source.Board(ctx, repo)
		switch {
		case err != nil:
			return page, fmt.Errorf("board of %s: %w", repo, err)
		case ok:
			page.Repos = append(page.Repos, BoardPageRepo{Repo: repo, Kept: true, Board: b})
		default:
			none = append(none, BoardPageRepo{Repo: repo})
		}
	}
	page.Repos = append(page.Repos, none...)
	if len(page.Repos) == 0 {
		page.Notice = &BoardNotice{Heading: "No repository to show",
			Lines: []string{"GitHub lists no repository of this App's installations that " + s.Login + " can read."}}
	}
	return page, nil
}

// signInPage invites the person to sign in.
func (p *Page) signInPage(w http.ResponseWriter) {
	writePage(w, http.StatusOK, BoardPage{Title: pageTitle, Notice: &BoardNotice{
		Heading: "Sign in to see the board",
		Lines: []string{"The board shows each increment and its stories, what waits for you, what is certified and what is stuck, for every repository of this App that you can read on GitHub.",
			"Signing in asks GitHub who you are and which repositories you can read; aepgate keeps no token."},
		LinkText: "Sign in with GitHub", LinkURL: "/board/login",
	}})
}

// fail answers status with a page explaining why.
func (p *Page) fail(w http.ResponseWriter, status int, heading, line string) {
	writePage(w, status, BoardPage{Title: pageTitle, Notice: &BoardNotice{
		Heading: heading, Lines: []string{line}, LinkText: "Back to the board", LinkURL: "/board",
	}})
}

// writePage renders page and sends it with status.
func writePage(w http.ResponseWriter, status int, page BoardPage) {
	b, err := RenderBoardPage(page)
	if err != nil {
		http.Error(w, "render the board page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// Off is the page served when serve was started without the OAuth flags:
// it says the board page is off and how to turn it on.
func Off() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		securityHeaders(w.Header())
		writePage(w, http.StatusNotFound, BoardPage{Title: pageTitle, Notice: &BoardNotice{
			Heading: "The board page is off",
			Lines: []string{"aepgate serve shows the owner's board here once it has the App's OAuth client and its public address.",
				"In the App's settings on GitHub, set the callback URL to <public URL>/board/callback and generate a client secret; then start serve with:"},
			Code: "aepgate serve … --client-id <the App's client ID> --client-secret-file <file holding the client secret> --public-url https://<where people reach aepgate>",
		}})
	})
}
