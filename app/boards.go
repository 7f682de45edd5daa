package app

import (
	"context"
	"fmt"
	"net/http"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/protocol/boardview"
)

// BoardPage configures the signed-in /board page (board.Page).
type BoardPage = board.Page

// boards is the App's boards (package app/board) on its database, queue
// and GitHub clients.
func (a *App) boards() *board.Boards {
	return &board.Boards{DB: a.db, Ledger: writer.DBLedger{DB: a.db},
		GitHub: func(id int64) (board.GitHub, error) {
			in, err := a.clients.Installation(id)
			if err != nil {
				return nil, err
			}
			return in, nil
		},
		AppLogin: a.clients.AppLogin, Queue: func(ctx context.Context, args board.Args) error { return board.Insert(ctx, a.queue, args) }, Delay: a.opts.BoardDelay,
		Stopping: a.stopping, Job: a.metrics.Job, ClosureRules: a.opts.Seams.ClosureRules, Log: a.log}
}

// Board returns the latest board the App kept for repo ("owner/name"), and false when it has none yet.
func (a *App) Board(ctx context.Context, repo string) (boardview.Board, bool, error) {
	return a.boards().Load(ctx, repo)
}

// runBoard runs a board job (board.Boards.Run).
func (a *App) runBoard(ctx context.Context, args board.Args) error { return a.boards().Run(ctx, args) }

// mountBoard serves /board and everything under it on mux (board.Web).
func (a *App) mountBoard(mux *http.ServeMux) {
	board.Web{Page: a.opts.Board, GitHubURL: a.opts.GitHubURL, Transport: a.opts.Transport, Repos: a.installationRepos,
		Boards: a.boards(), Log: a.log}.Mount(mux)
}

// installationRepos lists the repositories installation id covers, as the
// App's installation token lists them.
func (a *App) installationRepos(ctx context.Context, id int64) ([]string, error) {
	in, err := a.clients.Installation(id)
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

// boardJobs is the pull judge's boards (pull.Boards): an installation's
// board facts in the App's database, updates on the queue after
// Options.BoardDelay.
type boardJobs struct {
	b            *board.Boards
	installation int64
}

func (j boardJobs) SaveFact(ctx context.Context, repo string, f boardview.Fact) (bool, error) {
	return j.b.SaveFact(ctx, repo, f)
}

func (j boardJobs) Schedule(ctx context.Context, owner, repo string) error {
	return j.b.Schedule(ctx, j.installation, owner, repo)
}
