package app

import (
	"crypto/rsa"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	incrementrules "github.com/aepgate/aepgate/protocol/increment"

	acontract "github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/heldwork"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/redeliver"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/closure"
	"github.com/aepgate/aepgate/protocol/config"
	deployrules "github.com/aepgate/aepgate/protocol/deploy"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/review"
)

// Options configure the App. Zero durations take the defaults below.
type Options struct {
	// Addr is the HTTP listen address, e.g. ":8080".
	Addr string
	// Database is "sqlite:PATH" or "postgres://…".
	Database string
	// AppID is the GitHub App's ID.
	AppID int64
	// PrivateKey signs the App's JWTs.
	PrivateKey *rsa.PrivateKey
	// WebhookSecrets are the accepted webhook secrets: the current one and,
	// during a rotation, the previous one.
	WebhookSecrets [][]byte
	// GitHubURL is the REST API root (github.com, GHES or a test server).
	GitHubURL string
	// Version is the binary's version, logged at start.
	Version string
	// Logger receives the App's logs.
	Logger *slog.Logger
	// Transport carries GitHub requests; nil means http.DefaultTransport.
	Transport http.RoundTripper
	// Board configures the signed-in /board page (zero: off).
	Board BoardPage
	// Signer signs every completion certificate and increment certificate
	// as an in-toto statement in a DSSE envelope (docs/evidence.md,
	// docs/increment.md); nil: certificates are not signed.
	Signer *attest.Signer
	// PublicKeys are served at GET /.well-known/aepgate/keys as a JWKS: the
	// signer's key and earlier or revoked ones (signkey.Merge).
	PublicKeys attest.Keyring

	// WritePause separates two GitHub writes of one installation.
	WritePause time.Duration
	// RetryBase is the first retry delay of a failed job; it doubles per
	// attempt up to RetryMax.
	RetryBase time.Duration
	// RetryMax caps a failed job's retry delay (0: MaxRetryDelay).
	RetryMax time.Duration
	// ReconcileEvery is the period of the reconcile sweep.
	ReconcileEvery time.Duration
	// JobTimeout bounds one job's run.
	JobTimeout time.Duration
	// RescueAfter is when a job left running by a dead process is retried.
	RescueAfter time.Duration
	// Workers is how many jobs run at once in this process.
	Workers int
	// PollInterval is how often the queue looks for new jobs when idle.
	PollInterval time.Duration
	// ShutdownGrace bounds graceful shutdown: in-flight jobs get this long
	// to finish before they are cancelled and returned to the queue.
	ShutdownGrace time.Duration
	// BoardDelay is how long after the first evaluation of a burst the
	// board is updated: one update per burst (docs/board.md).
	BoardDelay time.Duration
	// FanoutWindow is how long the control-issue changes of one repository
	// are gathered before its open pull requests are judged once for them.
	FanoutWindow time.Duration
	// TrustedProxies are the proxies in front of the App: behind one, the
	// client address of a webhook is the rightmost X-Forwarded-For hop
	// that is not a trusted proxy (docs/app.md, "Endpoints").
	TrustedProxies []netip.Prefix
	// GitHubHookAddresses are GitHub's webhook senders beside the hook
	// ranges of GET /meta, which GHES leaves empty (webhook.HookCache).
	GitHubHookAddresses []netip.Prefix
	// MaxConns bounds the connections held at once (0: DefaultMaxConns).
	MaxConns int
	// Redeliver bounds the redelivery of missed deliveries (zero: its defaults; Every < 0: off).
	Redeliver redeliver.Config

	// BatchSize caps the verified deliveries committed together (group
	// commit); 0 means webhook.DefaultBatchSize.
	BatchSize int
	// BatchWait is how long a batch stays open for more deliveries after
	// its first; 0 means webhook.DefaultBatchWait, negative none.
	BatchWait time.Duration
	// BusyRate, BusyJobRate: queue.NewYield's (jobs give way to webhooks).
	BusyRate, BusyJobRate int
	// CoalesceDelay is how long the requests to judge a pull request
	// again must pause before it is judged for them all (coalesce.go); 0
	// means DefaultCoalesceDelay.
	CoalesceDelay time.Duration
	// CoalesceMaxWait bounds how long a request waits while others keep
	// coming; 0 means DefaultCoalesceMaxWait.
	CoalesceMaxWait time.Duration
	// checks replaces the App's list of checks (verdict.DefaultChecks) when set;
	// tests add a check through it.
	checks []verdict.Check
	// families replaces the App's table of event families (Families)
	// when set, and handlers registers who does more kinds of work after
	// the App's own; tests add a family and its work through them.
	families route.Table
	handlers func(*route.Handlers)
	// auditRules replace review.DefaultRules, the rules deciding which
	// reviews count as audits, when set; a negative-control test removes
	// one.
	auditRules []review.Rule
	// gateRules replace gatelog.DefaultRules, the rules deciding which
	// comments and reviews count in the gate log, when set.
	gateRules []gatelog.Rule
	// mergeRules replace config.DefaultMergeRules, how a repository's
	// config combines with the base it extends, when set; a
	// negative-control test removes one.
	mergeRules []config.MergeRule
	// snapshots wraps the reader of snapshots (nil: GitHub's, with the
	// base policy read into each); a negative control passes one that
	// falls back to the repository's file when its base is unreadable.
	snapshots func(snapshotter) snapshotter
	// closureRules replace closure.DefaultRules, the rules deciding when a
	// unit counts as done, when set; a negative-control test removes one.
	closureRules *closure.Rules
	// heldWorkRules replace heldwork.DefaultRules (a negative control).
	heldWorkRules *heldwork.Rules
	// incrementRules replace protocol/increment's DefaultRules (tests drop
	// one rule to show what it stops); openMilestonesOnly makes the sweep
	// miss lost milestone closures, a negative control.
	incrementRules     *incrementrules.Rules
	openMilestonesOnly bool
	// readback injects readback's clock, audit record and reads (zero:
	// as the App runs).
	readback readbackOptions
	// edge replaces parts of the webhook edge (zero: the App's own).
	edge webhook.Options
	// teams wraps the reader of team members (nil: GitHub's, read live);
	// a negative control passes one that remembers the first answer.
	teams func(teamReader) teamReader
	// people replaces the resolver of people (nil: owners.People); a
	// negative control passes one that reads no team nor CODEOWNERS.
	people owners.Resolver
	// batch replaces parts of the edge's batcher (zero: the App's own); a
	// negative control acknowledges before the commit.
	batch webhook.BatchOptions
	// coalesce, when set, is whether a delivery's work that its family
	// coalesces (route.Family.Coalesce) may be (nil: all of it); a
	// negative control coalesces none.
	coalesce func(event string, x route.Work) bool
	// keeper wraps the store of kept decisions (nil: the database as it
	// is); a negative control passes one that forgets.
	keeper func(keeper) keeper
	// busySweep is how long after a busy refusal the reconcile sweep runs
	// (0: DefaultBusySweep); noBusySweep leaves the edge's busy refusals
	// unswept, the negative control.
	busySweep   time.Duration
	noBusySweep bool
	// authRecheck is how often GitHub is asked again whether the App's
	// credentials work (0: ready.DefaultRecheck; negative: never, the
	// negative control).
	authRecheck time.Duration
	// server replaces the HTTP server's bounds (zero: the App's own); the
	// header-flood test's negative control passes Go's header default.
	server webhook.ServerLimits
	// noReplays remembers no webhook bodies, the negative control: the
	// queue then admits a replayed body under each new delivery ID.
	noReplays bool
	// deployRules replace protocol/deploy's DefaultRules when set; a
	// negative control removes one.
	deployRules []deployrules.Rule
	// contractRules replace acontract.DefaultRules (a negative control lets the body's contract count as it stands).
	contractRules acontract.Rules
}

// Defaults.
const (
	DefaultWritePause      = time.Second
	DefaultRetryBase       = 2 * time.Second
	MaxRetryDelay          = 10 * time.Minute
	DefaultReconcileEvery  = time.Hour
	DefaultJobTimeout      = 2 * time.Minute
	DefaultRescueAfter     = 5 * time.Minute
	DefaultWorkers         = 8
	DefaultPollInterval    = 200 * time.Millisecond
	DefaultShutdownGrace   = 20 * time.Second
	DefaultBoardDelay      = 5 * time.Second
	DefaultFanoutWindow    = 2 * time.Second
	DefaultCoalesceDelay   = time.Second
	DefaultCoalesceMaxWait = 30 * time.Second
)

func (o *Options) setDefaults() error {
	switch {
	case o.AppID <= 0:
		return errors.New("app: an App ID is required")
	case o.PrivateKey == nil:
		return errors.New("app: a private key is required")
	case len(o.WebhookSecrets) == 0:
		return errors.New("app: a webhook secret is required")
	}
	for _, s := range o.WebhookSecrets {
		if len(s) == 0 {
			return errors.New("app: a webhook secret is empty")
		}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	if o.WritePause < 0 {
		o.WritePause = 0
	} else {
		def(&o.WritePause, DefaultWritePause)
	}
	def(&o.RetryBase, DefaultRetryBase)
	def(&o.RetryMax, MaxRetryDelay)
	def(&o.ReconcileEvery, DefaultReconcileEvery)
	def(&o.JobTimeout, DefaultJobTimeout)
	def(&o.RescueAfter, DefaultRescueAfter)
	def(&o.PollInterval, DefaultPollInterval)
	def(&o.ShutdownGrace, DefaultShutdownGrace)
	def(&o.BoardDelay, DefaultBoardDelay)
	def(&o.FanoutWindow, DefaultFanoutWindow)
	def(&o.busySweep, DefaultBusySweep)
	def(&o.CoalesceDelay, DefaultCoalesceDelay)
	def(&o.CoalesceMaxWait, DefaultCoalesceMaxWait)
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	return nil
}

// replayMemory is how long the queue remembers webhook bodies:
// webhook.ReplayMemory, or not at all under noReplays.
func (o *Options) replayMemory() time.Duration {
	if o.noReplays {
		return 0
	}
	return webhook.ReplayMemory
}
