package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/jwks"
	"github.com/aepgate/aepgate/app/metrics"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/ready"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/boardview"
)

// App is a running GitHub App: database, queue, GitHub clients, the
// HTTP edge and the features.
type App struct {
	opts     Options
	db       *store.DB
	queue    *queue.Queue
	clients  *gh.Clients
	metrics  *metrics.Set
	log      *slog.Logger
	edge     edge
	features features
	memory   readback.Memory
	// stopping is closed when Run starts shutting down, which ends the
	// wait of board jobs (board.Boards.Run) at once.
	stopping chan struct{}
}

// features are the App's features (Features unless a test set others
// in Seams.Features), the families they own and the checks
// (verdict.DefaultChecks unless a test set others in Seams.Checks).
type features struct {
	list     []Feature
	families route.Table
	checks   []verdict.Check
}

// New opens the database, applies the App's and River's migrations and
// builds the queue and the GitHub clients. Close releases the database.
func New(ctx context.Context, opts Options) (*App, error) {
	if err := opts.setDefaults(); err != nil {
		return nil, err
	}
	db, err := store.Open(ctx, opts.Database)
	if err != nil {
		return nil, err
	}
	db.HeadSigner = opts.Signer // the ledger's head is signed after every append batch
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	a := &App{opts: opts, db: db, metrics: metrics.New(), log: opts.Logger, stopping: make(chan struct{}),
		features: features{list: opts.Seams.Features, checks: opts.Seams.Checks}}
	if a.features.checks == nil {
		a.features.checks = verdict.DefaultChecks()
	}
	if a.features.list == nil {
		a.features.list = Features()
	}
	a.features.families = families(a.features.list)
	a.clients = gh.NewClients(gh.NewAppAuth(opts.AppID, opts.PrivateKey, opts.GitHubURL, opts.Transport), opts.GitHubURL)
	a.clients.WritePause, a.clients.Budget = opts.WritePause, opts.GitHubBudget
	a.metrics.WatchGitHub(a.clients)
	qc := opts.Tuning.Config(opts.replayMemory(), opts.Logger)
	a.metrics.WatchQueue(db, qc.Yield, a.log, board.Queue)
	jobs := &pull.Jobs{Run: a.run, Store: db, Delay: opts.CoalesceDelay, MaxWait: opts.CoalesceMaxWait, Job: a.metrics.Job, Log: a.log}
	run := queue.Runners{Delivery: queue.Retrying(a.handleDelivery, a.metrics.Job, a.log), Reconcile: a.runReconcile, Handles: a.features.families.Handles,
		Kinds: append(jobs.Kinds(), board.Job(a.boards().Run, opts.BoardDelay, opts.JobTimeout))}
	if a.queue, err = queue.New(ctx, db, qc, run); err != nil {
		db.Close()
		return nil, err
	}
	if err := a.newEdge(qc.Yield); err != nil {
		db.Close()
		return nil, err
	}
	return a, nil
}

// Close commits the deliveries handed to the batcher, then releases the
// database.
func (a *App) Close() {
	a.edge.Batcher.Close()
	a.db.Close()
}

// KeysPath is where the App publishes, as a JWKS, the public keys that
// verify its signed certificates (app/jwks).
const KeysPath = "/.well-known/aepgate/keys"

// Handler is the App's HTTP surface: /webhook, /healthz, /readyz, /metrics,
// the signing keys' JWKS at KeysPath and the signed revocation list at
// jwks.RevocationsPath.
func (a *App) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/webhook", a.edge.Handler)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("ok\n"))
	})
	mux.Handle("GET /readyz", ready.Handler(a.queue.Ping, a.edge.github, a.log))
	mux.Handle("GET /metrics", a.metrics.Handler())
	mux.Handle("GET "+KeysPath, jwks.Handler(a.opts.PublicKeys, a.opts.Signer))
	mux.Handle("GET "+jwks.RevocationsPath, jwks.RevocationsHandler(a.opts.Revocations, a.opts.Signer))
	board.Web{Page: a.opts.Board, GitHubURL: a.opts.GitHubURL, Transport: a.opts.Transport, Repos: board.Repos(a.clients),
		Boards: a.boards(), Log: a.log}.Mount(mux)
	return mux
}

// Run starts the queue's workers and serves HTTP on ln (nil: listen on
// Options.Addr) until ctx ends, then shuts down gracefully: HTTP stops
// taking requests, running jobs get ShutdownGrace to finish, and the rest
// are cancelled and returned to the queue for the next process.
func (a *App) Run(ctx context.Context, ln net.Listener) error {
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", a.opts.Addr); err != nil {
			return fmt.Errorf("listen on %s: %w", a.opts.Addr, err)
		}
	}
	// The queue runs on its own context: cancelling ctx starts a graceful
	// stop below rather than cancelling the running jobs at once.
	if err := a.queue.Start(context.WithoutCancel(ctx)); err != nil {
		return fmt.Errorf("start queue: %w", err)
	}
	srv, ln := a.serveEdge(ctx, ln)
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	info, _ := a.edge.github.Verified()
	a.log.Info("aepgate serving", "version", a.opts.Version, "addr", ln.Addr().String(), "database", a.db.Where,
		"app_id", a.opts.AppID, "app_slug", info.Slug)
	var serveErr error
	select {
	case <-ctx.Done():
	case serveErr = <-served:
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), a.opts.ShutdownGrace)
	defer cancel()
	a.log.Info("shutting down")
	close(a.stopping)
	if err := srv.Shutdown(sctx); err != nil {
		a.log.Warn("http shutdown", "err", err)
	}
	a.edge.Batcher.Close()
	if err := a.queue.Stop(sctx); err != nil {
		a.log.Warn("queue shutdown", "err", err)
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", serveErr)
	}
	return nil
}

// handleDelivery does one delivery's work (queue.Retrying runs it).
func (a *App) handleDelivery(ctx context.Context, d queue.Delivery, log *slog.Logger) error {
	w, ws, err := a.features.families.Route(d.Event, d.Payload, a.opts.AppID)
	if err != nil {
		log.Error("unusable payload; dropped", "err", err)
		return river.JobCancel(err)
	}
	if len(ws) == 0 {
		return nil
	}
	w.Delivery = d.DeliveryID
	log = log.With("installation", w.Installation, "repo", w.FullName())
	return a.run(ctx, w, a.coalesce(w.Event, ws), log)
}

// coalesce replaces each piece of a delivery's work that its family
// coalesces (route.Family.Coalesce) by its coalesced form, unless
// Seams.Coalesce (a negative control) keeps it.
func (a *App) coalesce(event string, ws []route.Work) []route.Work {
	return a.features.families.Coalesce(event, ws, func(x route.Work) bool { return a.opts.Seams.Coalesce == nil || a.opts.Seams.Coalesce(event, x) })
}

// Sweep runs the reconcile sweep once, now, as its schedule does every
// ReconcileEvery.
func (a *App) Sweep(ctx context.Context) error { return a.runReconcile(ctx) }

// Store is the App's database: its ledger, kept decisions and queue.
func (a *App) Store() *store.DB { return a.db }

// GitHub is the App's GitHub clients (its installations, its login).
func (a *App) GitHub() *gh.Clients { return a.clients }

// Boards is the App's boards (package app/board) on its database, queue
// and GitHub clients.
func (a *App) Boards() *board.Boards { return a.boards() }

// boards is the App's boards on its database, queue and GitHub clients.
func (a *App) boards() *board.Boards {
	return &board.Boards{DB: a.db, Ledger: writer.DBLedger{DB: a.db}, GitHub: board.Installations(a.clients), AppLogin: a.clients.AppLogin,
		Queue: func(ctx context.Context, args board.Args) error { return board.Insert(ctx, a.queue, args) }, Delay: a.opts.BoardDelay,
		Stopping: a.stopping, Job: a.metrics.Job, ClosureRules: a.opts.Seams.ClosureRules, Log: a.log}
}

// Board returns the latest board the App kept for repo ("owner/name"), and false when it has none yet.
func (a *App) Board(ctx context.Context, repo string) (boardview.Board, bool, error) {
	return a.boards().Load(ctx, repo)
}

// BoardPage configures the signed-in /board page (board.Page).
type BoardPage = board.Page
