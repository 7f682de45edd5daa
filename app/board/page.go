package board

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/aepgate/aepgate/internal/boardweb"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/boardview"
)

// Page configures the signed-in /board page (docs/board.md): the App's
// OAuth client and where people reach the App. Zero leaves the page off;
// GET /board then says how to turn it on.
type Page struct {
	// ClientID is the GitHub App's client ID ("Iv1.…" or "Iv23…").
	ClientID string
	// ClientSecret is one of the App's client secrets.
	ClientSecret []byte
	// PublicURL is the App's address as browsers reach it, e.g.
	// https://aepgate.example; GitHub's callback URL for the App must be
	// PublicURL + /board/callback.
	PublicURL string
}

// enabled reports whether the page is configured at all.
func (p Page) enabled() bool {
	return p.ClientID != "" || len(p.ClientSecret) > 0 || p.PublicURL != ""
}

// Web is the /board page on the App: its configuration, GitHub's OAuth
// flow and the App's installations and kept boards.
type Web struct {
	Page Page
	// GitHubURL is the REST API root; Transport carries its requests.
	GitHubURL string
	Transport http.RoundTripper
	// Repos lists the repositories an installation covers, as the App's
	// installation token lists them.
	Repos  func(ctx context.Context, installation int64) ([]string, error)
	Boards *Boards
	Log    *slog.Logger
}

// Mount serves /board and everything under it on mux.
func (w Web) Mount(mux *http.ServeMux) {
	h := w.handler()
	mux.Handle("/board", h)
	mux.Handle("/board/", h)
}

// handler is the handler of /board and /board/…: the page when
// configured, the page saying it is off otherwise, and a refusal naming
// the problem when the configuration is incomplete.
func (w Web) handler() http.Handler {
	if !w.Page.enabled() {
		return boardweb.Off()
	}
	page, err := w.page()
	if err != nil {
		w.Log.Error("board page off: bad configuration", "err", err)
		return http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
			http.Error(rw, "the board page is misconfigured; see the App's log\n", http.StatusInternalServerError)
		})
	}
	return page
}

// page builds the page on GitHub's OAuth flow and the App's
// installations and kept boards.
func (w Web) page() (*boardweb.Page, error) {
	hc := &http.Client{Transport: w.Transport, Timeout: 30 * time.Second}
	oauth, err := gh.NewOAuth(w.GitHubURL, w.Page.ClientID, string(w.Page.ClientSecret), hc)
	if err != nil {
		return nil, err
	}
	return boardweb.New(boardweb.Options{
		PublicURL: w.Page.PublicURL, Secret: w.Page.ClientSecret, GitHub: oauth, Source: source{w}, Logger: w.Log,
	})
}

// source is the App as the board page reads it.
type source struct{ w Web }

var _ boardweb.Source = source{}

// InstallationRepos lists the repositories installation id covers.
func (s source) InstallationRepos(ctx context.Context, id int64) ([]string, error) {
	return s.w.Repos(ctx, id)
}

// Board is the App's latest kept board of repo.
func (s source) Board(ctx context.Context, repo string) (boardview.Board, bool, error) {
	return s.w.Boards.Load(ctx, repo)
}
