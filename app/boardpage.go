package app

import (
	"context"
	"fmt"
	"net/http"
	"time"

	"github.com/aepgate/aepgate/internal/boardweb"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/board"
)

// BoardPage configures the signed-in /board page (docs/board.md): the
// App's OAuth client and where people reach the App. Zero leaves the page
// off; GET /board then says how to turn it on.
type BoardPage struct {
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
func (b BoardPage) enabled() bool {
	return b.ClientID != "" || len(b.ClientSecret) > 0 || b.PublicURL != ""
}

// mountBoard serves /board and everything under it on mux.
func (a *App) mountBoard(mux *http.ServeMux) {
	h := a.boardHandler()
	mux.Handle("/board", h)
	mux.Handle("/board/", h)
}

// boardHandler is the handler of /board and /board/…: the page when
// configured, the page saying it is off otherwise, and a refusal naming
// the problem when the configuration is incomplete.
func (a *App) boardHandler() http.Handler {
	if !a.opts.Board.enabled() {
		return boardweb.Off()
	}
	page, err := a.newBoardPage()
	if err != nil {
		a.log.Error("board page off: bad configuration", "err", err)
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			http.Error(w, "the board page is misconfigured; see the App's log\n", http.StatusInternalServerError)
		})
	}
	return page
}

// newBoardPage builds the page on GitHub's OAuth flow and this App's
// installations and kept boards.
func (a *App) newBoardPage() (*boardweb.Page, error) {
	b := a.opts.Board
	hc := &http.Client{Transport: a.opts.Transport, Timeout: 30 * time.Second}
	oauth, err := gh.NewOAuth(a.opts.GitHubURL, b.ClientID, string(b.ClientSecret), hc)
	if err != nil {
		return nil, err
	}
	return boardweb.New(boardweb.Options{
		PublicURL: b.PublicURL, Secret: b.ClientSecret, GitHub: oauth, Source: boardSource{a}, Logger: a.log,
	})
}

// boardSource is the App as the board page reads it.
type boardSource struct{ a *App }

var _ boardweb.Source = boardSource{}

// InstallationRepos lists the repositories installation id covers, as the
// App's installation token lists them.
func (s boardSource) InstallationRepos(ctx context.Context, id int64) ([]string, error) {
	in, err := s.a.clients.Installation(id)
	if err != nil {
		return nil, fmt.Errorf("installation %d: %w", id, err)
	}
	repos, err := in.Repositories(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(repos))
	for i, r := range repos {
		out[i] = r.FullName()
	}
	return out, nil
}

// Board is the App's latest kept board of repo.
func (s boardSource) Board(ctx context.Context, repo string) (board.Board, bool, error) {
	return s.a.Board(ctx, repo)
}
