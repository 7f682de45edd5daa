// Package redeliver brings back the webhook deliveries GitHub could not
// make: GitHub never retries a failed delivery by itself and keeps its log
// three days (github-facts §3.2). A run reads the App's delivery log back
// to where the last complete run ended, finds the deliveries whose every
// attempt failed and that the edge never recorded, and asks GitHub to
// deliver each of them again, once, within a bounded number of requests;
// the edge then admits the redelivery (same GUID) as any other delivery,
// exactly once (docs/app.md, "Redelivery").
package redeliver

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

// Log is GitHub's webhook delivery log of the App (gh.Clients).
type Log interface {
	// HookDeliveries reads one page, newest first, from cursor ("": the
	// newest); it returns the next page's cursor, "" after the last.
	HookDeliveries(ctx context.Context, cursor string, perPage int) ([]gh.HookDelivery, string, error)
	// RedeliverHook asks GitHub to deliver the log's entry id again.
	RedeliverHook(ctx context.Context, id int64) error
}

// Recorded is the edge's record of the deliveries it admitted (store.DB).
type Recorded interface {
	// RecordedDeliveries returns which of ids are recorded.
	RecordedDeliveries(ctx context.Context, ids []string) (map[string]bool, error)
}

// Defaults (docs/app.md, "Redelivery").
const (
	// DefaultEvery is the period of the runs after the one at start.
	DefaultEvery = 5 * time.Minute
	// DefaultMaxRequests bounds the redeliveries asked in one run.
	DefaultMaxRequests = 100
	// DefaultPause separates two redelivery requests (github-facts §3.4:
	// pause at least a second between writes).
	DefaultPause = time.Second
	// DefaultMaxPages bounds the pages of the log read in one run.
	DefaultMaxPages = 50
	// DefaultGrace leaves the newest deliveries to the next run: GitHub
	// gives a receiver 10 s, so an attempt younger than this may still be
	// under way.
	DefaultGrace = time.Minute
	// Window is how far back a run looks at most: GitHub keeps the log
	// and redelivers for three days; an hour is kept as a margin.
	Window = 3*24*time.Hour - time.Hour
	// perPage is GitHub's largest page of the log.
	perPage = 100
)

// Config bounds the runs. Zero values take the defaults.
type Config struct {
	// Every is the period of the runs after the one at start; negative:
	// no run at all (Loop returns at once).
	Every       time.Duration
	MaxRequests int
	// Pause between two redelivery requests; negative: none.
	Pause    time.Duration
	MaxPages int
	// Grace; negative: none.
	Grace time.Duration
}

func (c Config) withDefaults() Config {
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		} else if *d < 0 {
			*d = 0
		}
	}
	if c.Every == 0 {
		c.Every = DefaultEvery
	}
	def(&c.Pause, DefaultPause)
	def(&c.Grace, DefaultGrace)
	if c.MaxRequests <= 0 {
		c.MaxRequests = DefaultMaxRequests
	}
	if c.MaxPages <= 0 {
		c.MaxPages = DefaultMaxPages
	}
	return c
}

// Result is what one run found and did.
type Result struct {
	// Missing are the failed deliveries never recorded nor asked for
	// before; Requested of them were asked for in this run (the rest wait
	// for the next run: the bound, or a rate limit).
	Missing, Requested int
	// Refused were asked for and refused by GitHub (not a rate limit):
	// they are not asked again.
	Refused int
	// Recovered are the deliveries asked for by this process that the
	// edge has recorded since.
	Recovered int
	// Pages of the log were read; Complete says the run reached where the
	// last complete run ended (or GitHub's window) and the log's end.
	Pages    int
	Complete bool
	// Limited is set when GitHub rate-limited the run; no run starts
	// before Retry (gh.RetryWait).
	Limited bool
	Retry   time.Time
	// Skipped is set when the run did not start: a rate limit's wait was
	// not over.
	Skipped bool
}

// Redeliverer runs the redelivery of missed deliveries. One per process.
type Redeliverer struct {
	log      Log
	recorded Recorded
	now      func() time.Time
	cfg      Config
	logger   *slog.Logger
	observe  Observer

	mu sync.Mutex
	// since is where the last complete run's scan ended (zero: none yet).
	since time.Time
	// asked are the GUIDs this process asked GitHub to redeliver, with
	// when; those not yet recorded count as recovered once they are.
	asked map[string]time.Time
	// notBefore is when a rate limit's wait ends.
	notBefore time.Time
}

// Observer is told of every run: its result (Outcome) and the deliveries
// it found missing, asked for, saw refused and saw recovered (Result).
type Observer func(result string, missing, requested, refused, recovered int)

// New returns a Redeliverer reading log, checking recorded, on the clock
// now (nil: time.Now), telling observe (nil: nobody) of every run.
func New(log Log, recorded Recorded, cfg Config, now func() time.Time, logger *slog.Logger, observe Observer) *Redeliverer {
	if now == nil {
		now = time.Now
	}
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	if observe == nil {
		observe = func(string, int, int, int, int) {}
	}
	return &Redeliverer{log: log, recorded: recorded, now: now, cfg: cfg.withDefaults(), logger: logger,
		observe: observe, asked: map[string]time.Time{}}
}

// Loop runs a Redeliverer on the App's log and record under c until ctx
// ends (see Redeliverer.Loop).
func (c Config) Loop(ctx context.Context, log Log, recorded Recorded, logger *slog.Logger, observe Observer) {
	New(log, recorded, c, nil, logger, observe).Loop(ctx)
}

// Loop runs at once, then every Config.Every, until ctx ends; it returns
// at once when Every is negative (redelivery off).
func (r *Redeliverer) Loop(ctx context.Context) {
	if r.cfg.Every < 0 {
		return
	}
	t := time.NewTicker(r.cfg.Every)
	defer t.Stop()
	for {
		r.Run(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
