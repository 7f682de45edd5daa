package app

import (
	"crypto/rsa"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/aepgate/aepgate/protocol/incrementrules"

	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/heldwork"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/redeliver"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/deployrules"
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
	// signer's key and earlier ones still valid, never a revoked one
	// (signkey.Merge).
	PublicKeys attest.Keyring
	// Revocations are served at GET /.well-known/aepgate/revocations,
	// signed by Signer (app/jwks.RevocationsHandler).
	Revocations attest.Revocations

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
	// BusySweep is how long after a busy refusal of the edge the
	// reconcile sweep runs (0: DefaultBusySweep).
	BusySweep time.Duration
	// AuthRecheck is how often GitHub is asked again whether the App's
	// credentials work (0: ready.DefaultRecheck; negative: never).
	AuthRecheck time.Duration
	// Seams replace parts of the App (zero: the App's own).
	Seams Seams
}

// Seams replace parts of the App: each is nil or zero for the App's own.
// Tests add a check or a family here, and inject broken variants here: a
// negative control removes one rule or protection through a seam and
// shows the attack it stops then succeeds.
type Seams struct {
	// Checks replace the App's list of checks (verdict.DefaultChecks).
	Checks []verdict.Check
	// Families replace the App's table of event families (Families), and
	// Handlers registers who does more kinds of work after the App's own:
	// tests add a family and its work through them.
	Families route.Table
	Handlers func(*route.Handlers)
	// AuditRules replace review.DefaultRules (which reviews are audits).
	AuditRules []review.Rule
	// GateRules replace gatelog.DefaultRules (what counts in the gate log).
	GateRules []gatelog.Rule
	// MergeRules replace config.DefaultMergeRules (config ← its base).
	MergeRules []config.MergeRule
	// Snapshots wraps the reader of snapshots (GitHub's, base policy read in).
	Snapshots func(Snapshotter) Snapshotter
	// ClosureRules replace closure.DefaultRules (when a unit is done).
	ClosureRules *closurerules.Rules
	// HeldWorkRules replace heldwork.DefaultRules.
	HeldWorkRules *heldwork.Rules
	// IncrementRules replace protocol/incrementrules's DefaultRules.
	IncrementRules *incrementrules.Rules
	// OpenMilestonesOnly makes the sweep read open milestones only, so it
	// misses lost milestone closures.
	OpenMilestonesOnly bool
	// Readback replaces readback's clock, audit record and reads.
	Readback ReadbackSeams
	// Edge replaces parts of the webhook edge.
	Edge webhook.Options
	// Teams wraps the reader of team members (GitHub's, read live).
	Teams func(owners.Teams) owners.Teams
	// People replaces the resolver of people (owners.People).
	People owners.Resolver
	// Batch replaces parts of the edge's batcher.
	Batch webhook.BatchOptions
	// Coalesce, when set, is whether a delivery's work that its family
	// coalesces (route.Family.Coalesce) may be (nil: all of it); a
	// negative control coalesces none.
	Coalesce func(event string, x route.Work) bool
	// Keeper wraps the store of kept decisions (the database as it is).
	Keeper func(Keeper) Keeper
	// NoBusySweep leaves the edge's busy refusals unswept.
	NoBusySweep bool
	// Server replaces the HTTP server's bounds.
	Server webhook.ServerLimits
	// NoReplays remembers no webhook bodies: the queue then admits a
	// replayed body under each new delivery ID.
	NoReplays bool
	// DeployRules replace protocol/deployrules's DefaultRules.
	DeployRules []deployrules.Rule
	// ContractRules replace contract.DefaultRules.
	ContractRules contract.Rules
}

// Snapshotter reads pull-request snapshots (gh.Installation); Seams.Snapshots wraps it.
type Snapshotter = snapshotter

// Keeper keeps accepted decisions (store.DB); Seams.Keeper wraps it.
type Keeper = keeper

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
	def(&o.BusySweep, DefaultBusySweep)
	def(&o.CoalesceDelay, DefaultCoalesceDelay)
	def(&o.CoalesceMaxWait, DefaultCoalesceMaxWait)
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers
	}
	return nil
}

// replayMemory is how long the queue remembers webhook bodies:
// webhook.ReplayMemory, or not at all under Seams.NoReplays.
func (o *Options) replayMemory() time.Duration {
	if o.Seams.NoReplays {
		return 0
	}
	return webhook.ReplayMemory
}
