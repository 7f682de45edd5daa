package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/jwks"
	"github.com/aepgate/aepgate/app/metrics"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/ready"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// App is a running GitHub App: database, queue, GitHub clients and the
// HTTP edge.
type App struct {
	opts    Options
	db      *store.DB
	queue   *queue.Queue
	clients *gh.Clients
	metrics *metrics.Set
	log     *slog.Logger
	webhook http.Handler
	// batcher commits the edge's verified deliveries in batches.
	batcher *webhook.Batcher
	// checks are the App's checks, verdict.DefaultChecks unless a test set others.
	checks []verdict.Check
	// families is the table of event families the App handles,
	// Families unless a test added one.
	families route.Table
	// ancestry remembers which commit contains which, for readback.
	ancestry readback.Ancestry
	// audits remembers briefly the audits judged for merged heads.
	audits readback.AuditMemory
	// stopping is closed when Run starts shutting down, which ends the
	// wait of board jobs (board.Boards.Run) at once.
	stopping chan struct{}
	// hooks are GitHub's hook ranges, read by Run (edge.go).
	hooks *webhook.HookCache
	// sweeper sweeps after the edge's busy refusals (edge.go).
	sweeper *webhook.BusySweep
	// github is whether GitHub accepted the App's credentials (/readyz).
	github *ready.GitHub
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
	a := &App{opts: opts, db: db, metrics: metrics.New(), log: opts.Logger, checks: opts.Seams.Checks, stopping: make(chan struct{})}
	if a.checks == nil {
		a.checks = verdict.DefaultChecks()
	}
	if a.families = opts.Seams.Families; a.families == nil {
		a.families = Families()
	}
	auth := gh.NewAppAuth(opts.AppID, opts.PrivateKey, opts.GitHubURL, opts.Transport)
	a.clients = gh.NewClients(auth, opts.GitHubURL)
	a.clients.WritePause = opts.WritePause
	a.clients.Budget.Observer = a.metrics
	a.metrics.WatchBudget(a.clients)
	a.clients.Observe = a.metrics.GitHubCall
	qc := a.opts.queueConfig()
	a.metrics.WatchQueue(db, qc.Yield, a.log, board.Queue)
	if a.queue, err = queue.New(ctx, db, qc, a.runners()); err != nil {
		db.Close()
		return nil, err
	}
	a.batcher = webhook.NewBatcher(a.queue, webhook.BatchConfig{Size: opts.BatchSize, Wait: opts.BatchWait,
		Observe: qc.Yield.Observe(a.metrics.Batch), Options: opts.Seams.Batch})
	if err := a.newEdge(); err != nil {
		a.batcher.Close()
		db.Close()
		return nil, err
	}
	return a, nil
}

// Close commits the deliveries handed to the batcher, then releases the
// database.
func (a *App) Close() {
	a.batcher.Close()
	a.db.Close()
}

// Handler is the App's HTTP surface: /webhook, /healthz, /readyz, /metrics,
// the signing keys' JWKS at KeysPath and the signed revocation list at
// jwks.RevocationsPath.
func (a *App) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/webhook", a.webhook)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("ok\n"))
	})
	mux.Handle("GET /readyz", ready.Handler(a.queue.Ping, a.github, a.log))
	mux.Handle("GET /metrics", a.metrics.Handler())
	mux.Handle("GET "+KeysPath, jwks.Handler(a.opts.PublicKeys, a.opts.Signer))
	mux.Handle("GET "+jwks.RevocationsPath, jwks.RevocationsHandler(a.opts.Revocations, a.opts.Signer))
	a.mountBoard(mux)
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
	info, _ := a.github.Verified()
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
	a.batcher.Close()
	if err := a.queue.Stop(sctx); err != nil {
		a.log.Warn("queue shutdown", "err", err)
	}
	if serveErr != nil && !errors.Is(serveErr, http.ErrServerClosed) {
		return fmt.Errorf("serve: %w", serveErr)
	}
	return nil
}

// runDelivery does one delivery's work. Rate limits snooze the job for as
// long as GitHub asked; other errors are retried with backoff.
func (a *App) runDelivery(ctx context.Context, d queue.Delivery, attempt int) error {
	start := time.Now()
	log := a.log.With("delivery", d.DeliveryID, "event", d.Event, "attempt", attempt)
	err := a.handleDelivery(ctx, d, log)
	result := "ok"
	if err != nil {
		result = "retry"
		if wait, ok := gh.RetryWait(err, time.Now()); ok {
			result = "snoozed"
			log.Warn("rate limited; snoozing", "wait_seconds", wait.Seconds(), "err", err)
			err = river.JobSnooze(max(wait, 0))
		} else if errors.Is(ctx.Err(), context.Canceled) {
			// Shutdown: hand the job back untouched for the next process.
			result = "returned"
			err = river.JobSnooze(0)
		} else {
			log.Warn("delivery failed; will retry", "err", err)
		}
	}
	a.metrics.Job(queue.Delivery{}.Kind(), result, time.Since(start))
	log.Info("delivery processed", "result", result, "duration_seconds", time.Since(start).Seconds())
	return err
}

func (a *App) handleDelivery(ctx context.Context, d queue.Delivery, log *slog.Logger) error {
	w, ws, err := a.families.Route(d.Event, d.Payload, a.opts.AppID)
	if err != nil {
		log.Error("unusable payload; dropped", "err", err)
		return river.JobCancel(err)
	}
	if len(ws) == 0 {
		return nil
	}
	w.Delivery = d.DeliveryID
	log = log.With("installation", w.Installation, "repo", w.FullName())
	j, err := a.judges(w.Installation, log)
	if err != nil {
		return err
	}
	return a.handlers(j).Run(ctx, w, a.coalesce(w.Event, ws))
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
