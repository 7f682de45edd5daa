package app

import (
	"crypto/rsa"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"time"

	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/heldwork"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/redeliver"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/deployrules"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/review"
)

// Options configure the App. Zero durations take the defaults below.
type Options struct {
	// Addr is the HTTP listen address (":8080"); Database "sqlite:PATH" or
	// "postgres://…"; AppID, PrivateKey the App's identity (its JWTs).
	Addr, Database string
	AppID          int64
	PrivateKey     *rsa.PrivateKey
	// WebhookSecrets are the accepted secrets: the current one and, during
	// a rotation, the previous one.
	WebhookSecrets [][]byte
	// GitHubURL is the REST API root (github.com, GHES or a test server);
	// Transport carries its requests (nil: http.DefaultTransport).
	GitHubURL string
	Transport http.RoundTripper
	// Version is logged at start; Logger receives the App's logs.
	Version string
	Logger  *slog.Logger
	// Board configures the signed-in /board page (zero: off).
	Board BoardPage
	// Signer signs every completion and increment certificate as an in-toto
	// statement in a DSSE envelope (docs/evidence.md; nil: unsigned).
	// PublicKeys are served at KeysPath as a JWKS (the signer's key and
	// earlier ones still valid, never a revoked one), Revocations at
	// jwks.RevocationsPath, signed by Signer.
	Signer      *attest.Signer
	PublicKeys  attest.Keyring
	Revocations attest.Revocations

	// WritePause separates two GitHub writes of one installation; GitHubBudget tunes each installation's budget.
	WritePause   time.Duration
	GitHubBudget gh.BudgetOptions
	// Tuning is the queue's: retries, the sweep's period, job timeouts,
	// workers, polling and yielding to webhooks (queue.Tuning).
	queue.Tuning
	// ShutdownGrace is how long in-flight jobs get to finish at shutdown
	// before they are cancelled and returned to the queue.
	ShutdownGrace time.Duration
	// BoardDelay is how long after a burst's first evaluation the board is
	// updated (docs/board.md); FanoutWindow how long one repository's
	// control-issue changes are gathered before its open pull requests are
	// judged once for them.
	BoardDelay, FanoutWindow time.Duration
	// TrustedProxies are the proxies in front of the App: behind one, a
	// webhook's client is the rightmost X-Forwarded-For hop not trusted
	// (docs/app.md, "Endpoints"). GitHubHookAddresses are GitHub's senders
	// beside GET /meta's hook ranges, which GHES leaves empty.
	TrustedProxies, GitHubHookAddresses []netip.Prefix
	// MaxConns bounds the connections held at once (0: DefaultMaxConns).
	MaxConns int
	// Redeliver bounds the redelivery of missed deliveries (zero: its
	// defaults; Every < 0: off).
	Redeliver redeliver.Config

	// BatchSize caps the deliveries committed together (0:
	// webhook.DefaultBatchSize); BatchWait is how long a batch stays open
	// after its first (0: webhook.DefaultBatchWait, negative: none).
	BatchSize int
	BatchWait time.Duration
	// CoalesceDelay is how long the requests to judge a pull request again
	// must pause before it is judged once for them all (pull.Jobs);
	// CoalesceMaxWait bounds a request's wait while others keep coming.
	CoalesceDelay, CoalesceMaxWait time.Duration
	// BusySweep is how long after the edge's busy refusal the sweep runs.
	BusySweep time.Duration
	// AuthRecheck is how often GitHub is asked again whether the App's
	// credentials work (0: ready.DefaultRecheck; negative: never).
	AuthRecheck time.Duration
	// Seams replace parts of the App (zero: the App's own).
	Seams Seams
}

// Seams replace parts of the App: each is nil or zero for the App's own.
// Tests add a feature or a check here, and inject broken variants here: a
// negative control removes one rule or protection through a seam and
// shows the attack it stops then succeeds.
type Seams struct {
	// Features replace the App's features (Features): a test adds one.
	Features []Feature
	// Checks replace the App's checks (verdict.DefaultChecks).
	Checks []verdict.Check
	// The features' rules, each replacing its package's defaults: which
	// reviews are audits (review), what counts in the gate log (gatelog),
	// config ← its base (config), when a unit is done (closurerules), held
	// work, increments, deployments, contracts, who is one owner (approval).
	AuditRules     []review.Rule
	GateRules      []gatelog.Rule
	MergeRules     []config.MergeRule
	ClosureRules   *closurerules.Rules
	HeldWorkRules  *heldwork.Rules
	IncrementRules *incrementrules.Rules
	DeployRules    []deployrules.Rule
	ContractRules  contract.Rules
	Approvals      approval.Rules
	// Snapshots wraps the reader of snapshots (GitHub's, base policy read in),
	// Teams the reader of team members (read live), Keeper the store of kept
	// decisions (the database); People replaces the resolver (owners.People).
	Snapshots func(Snapshotter) Snapshotter
	Teams     func(owners.Teams) owners.Teams
	Keeper    func(Keeper) Keeper
	People    owners.Resolver
	// OpenMilestonesOnly makes the sweep read open milestones only, so it
	// misses lost milestone closures.
	OpenMilestonesOnly bool
	// Readback replaces readback's clock, audit record and reads.
	Readback readback.Seams
	// Edge, Batch and Server replace parts of the webhook edge, its
	// batcher and the HTTP server's bounds; NoBusySweep leaves the edge's
	// busy refusals unswept.
	Edge        webhook.Options
	Batch       webhook.BatchOptions
	Server      webhook.ServerLimits
	NoBusySweep bool
	// Coalesce, when set, is whether a delivery's work that its family
	// coalesces (route.Family.Coalesce) may be (nil: all of it); a
	// negative control coalesces none.
	Coalesce func(event string, x route.Work) bool
	// NoReplays remembers no webhook bodies: the queue then admits a
	// replayed body under each new delivery ID.
	NoReplays bool
}

// ReadbackSeams replace parts of the readback path (readback.Seams).
type ReadbackSeams = readback.Seams

// Defaults.
const (
	DefaultWritePause      = time.Second
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
	if o.WritePause < 0 {
		o.WritePause = 0
	} else if o.WritePause == 0 {
		o.WritePause = DefaultWritePause
	}
	o.Tuning.SetDefaults()
	defaults := map[*time.Duration]time.Duration{&o.ShutdownGrace: DefaultShutdownGrace, &o.BoardDelay: DefaultBoardDelay,
		&o.FanoutWindow: DefaultFanoutWindow, &o.BusySweep: DefaultBusySweep, &o.CoalesceDelay: DefaultCoalesceDelay,
		&o.CoalesceMaxWait: DefaultCoalesceMaxWait}
	for d, v := range defaults {
		if *d == 0 {
			*d = v
		}
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
