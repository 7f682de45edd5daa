package appcmd

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/redeliver"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/cmd/internal/cli"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// serveFlags are serve's settings; each flag also reads AEPGATE_<NAME>.
type serveFlags struct {
	addr, database, privateKeyFile, secretFile, previousSecretFile string
	githubURL, logFormat, logLevel, envFile                        string
	clientID, clientSecretFile, publicURL                          string
	appID                                                          int64
	workers, maxConns, batchSize, busyRate, busyJobRate            int
	batchWait, coalesceDelay                                       time.Duration
	trustedProxies, hookAddresses                                  []string
	writePause, retryBase, reconcile, rescueAfter, pollInterval    time.Duration
	shutdownGrace, databaseWait                                    time.Duration
	redeliverEvery                                                 time.Duration
	redeliverMax                                                   int
	signing                                                        cli.SigningFlags
}

// serveInputs are what reading the settings needs besides the flags: the
// logger for warnings and the environment (with --env-file's lines).
type serveInputs struct {
	log    *slog.Logger
	lookup cli.LookupFunc
}

// githubCheckTimeout bounds serve's start-up check of the App's
// credentials (GET /app).
const githubCheckTimeout = 5 * time.Second

const serveLong = `serve runs the aepgate GitHub App. It verifies each webhook delivery's
signature, records its delivery ID and queues it durably before answering, then
evaluates pull requests against their work units and posts check runs.

Every flag can also be set with an AEPGATE_* environment variable named after it
(--app-id is AEPGATE_APP_ID), or by a KEY=VALUE line of --env-file (the file
'aepgate app register' writes); a flag on the command line wins, then the
environment, then the file. The key and the secrets may instead be given
themselves in AEPGATE_PRIVATE_KEY, AEPGATE_WEBHOOK_SECRET and
AEPGATE_CLIENT_SECRET; a *-file flag wins over them. A key or secret file
is a regular file of at most 1 MB; one readable by group or others is
logged as a warning.

At start serve asks GitHub who the App is (GET /app with the App's JWT,
within 5 s): a key that is not the App's or a wrong App ID ends it with exit
1 and the reason; when GitHub does not answer it serves and retries, and
/readyz answers 503 until GitHub has accepted the credentials and while the
database does not answer. The start-up log line carries the version and the
App's slug. The database is embedded SQLite by default (its file is created
mode 0600, once the listen address is bound); several replicas share one
PostgreSQL database, which is retried with backoff for --database-wait when
it does not answer at start. Durations in logs are in seconds.

With --signing-key-file (or AEPGATE_SIGNING_KEY holding the PEM) every
completion certificate is also signed as an in-toto statement in a DSSE
envelope, attached to its check run and uploaded as an artifact attestation
where the App may (attestations: write); the public keys are served at
GET /.well-known/aepgate/keys ('aepgate keys' prints the same JWKS). The
keys --revocations-file names leave that JWKS and are listed at GET
/.well-known/aepgate/revocations, signed with the signing key ('aepgate keys
revocations' prints the same list).

Endpoints: POST /webhook, GET /healthz, GET /readyz, GET /metrics,
GET /.well-known/aepgate/keys, GET /.well-known/aepgate/revocations, and the
owner's board at GET /board: signed in through GitHub with the App's OAuth
client (--client-id, --client-secret-file, --public-url; set the App's
callback URL to <public URL>/board/callback). Without those flags /board
says the page is off.

Webhook limits (docs/app.md, "Endpoints"): headers of at most 64 KiB;
--max-connections connections at once, a quarter kept for GitHub's hook
addresses (GET /meta, read at start and every 6 hours); bodies held at once
at most 100 MB, one address at most a quarter of that, a quarter kept for
GitHub's hook addresses; a body must bring 64 KiB in every 2 s and end
within 60 s. Behind a proxy, give --trusted-proxies: a delivery from one is
counted against the rightmost X-Forwarded-For address that is not a trusted
proxy (other hops are the sender's word); without it the connection's
address counts and X-Forwarded-For is ignored. GitHub Enterprise Server
publishes no hook addresses: give its address with --github-hook-addresses,
or its large deliveries meet the per-address cap. GitHub's addresses never
skip the signature check.

--format json (the default) logs JSON lines, --format text key=value lines;
--log-format is the same setting.

Exit codes: 0 after a clean shutdown (SIGINT/SIGTERM: serve's normal stop); 1
the App could not start (credentials refused, database, listener) or stopped
with an error; 2 a bad flag or an unreadable key, secret or env file; 3 a
PostgreSQL database that did not answer within --database-wait (GitHub not
answering at start is retried while serving, /readyz answering 503).`

func newServeCmd(s streams) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: cli.ServeShort,
		Long:  serveLong,
		Example: `  aepgate serve --app-id 12345 --private-key-file app.pem --webhook-secret-file secret
  aepgate serve --env-file aepgate.env
  AEPGATE_DATABASE=postgres://aepgate@db/aepgate aepgate serve`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			in, err := f.inputs(cmd, s)
			if err != nil {
				return cli.Fail(cli.ExitUsage, "%v", err)
			}
			return runServe(cmd, s, f, in)
		},
	}
	f.register(cmd.Flags())
	f.signing.Register(cmd)
	return cmd
}

// register adds serve's flags to fl.
func (f *serveFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&f.addr, "addr", ":8080", "HTTP listen address")
	fl.StringVar(&f.database, "database", "sqlite:aepgate.db", "database: sqlite:PATH (embedded) or postgres://USER@HOST/DB (several replicas)")
	fl.DurationVar(&f.databaseWait, "database-wait", time.Minute, "how long an unreachable PostgreSQL is retried at start")
	fl.Int64Var(&f.appID, "app-id", 0, "the GitHub App's ID (required)")
	fl.StringVar(&f.privateKeyFile, "private-key-file", "", "file holding the App's PEM private key (or AEPGATE_PRIVATE_KEY holding the key)")
	fl.StringVar(&f.secretFile, "webhook-secret-file", "", "file holding the webhook secret (or AEPGATE_WEBHOOK_SECRET holding it)")
	fl.StringVar(&f.previousSecretFile, "previous-webhook-secret-file", "", "file holding the previous webhook secret, accepted too while rotating")
	fl.StringVar(&f.githubURL, "github-url", gh.DefaultBaseURL, "GitHub REST API root (GHES: https://HOST/api/v3/)")
	fl.StringVar(&f.clientID, "client-id", "", "the GitHub App's client ID, for the signed-in /board page")
	fl.StringVar(&f.clientSecretFile, "client-secret-file", "", "file holding one of the App's client secrets, for the /board page (or AEPGATE_CLIENT_SECRET holding it)")
	fl.StringVar(&f.publicURL, "public-url", "", "where browsers reach this App, e.g. https://aepgate.example (the /board page's callback is <public URL>/board/callback)")
	fl.StringVar(&f.envFile, "env-file", "", "file of KEY=VALUE lines setting AEPGATE_* variables (what 'aepgate app register' writes)")
	fl.StringVar(&f.logFormat, "log-format", "json", "log format: json or text")
	fl.Var(cli.FormatValue(&f.logFormat, cli.FormatJSON, cli.FormatText), "format", "log format: json or text (the same as --log-format)")
	fl.StringVar(&f.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fl.IntVar(&f.workers, "workers", queue.DefaultWorkers, "jobs run at once by this process")
	fl.DurationVar(&f.writePause, "write-pause", app.DefaultWritePause, "pause between two GitHub writes of one installation (GitHub asks for ≥1s)")
	fl.DurationVar(&f.retryBase, "retry-base", queue.DefaultRetryBase, "first retry delay of a failed job; doubles per attempt (rate limits wait as GitHub says)")
	fl.DurationVar(&f.reconcile, "reconcile-interval", queue.DefaultReconcileEvery, "period of the sweep that re-evaluates every open pull request")
	fl.DurationVar(&f.rescueAfter, "rescue-after", queue.DefaultRescueAfter, "when a job left running by a dead process is run again (at least "+queue.DefaultJobTimeout.String()+", a job's timeout); also bounds one reconcile sweep")
	fl.DurationVar(&f.pollInterval, "poll-interval", queue.DefaultPollInterval, "how often an idle worker looks for new jobs")
	fl.IntVar(&f.batchSize, "webhook-batch-size", webhook.DefaultBatchSize, "most verified deliveries committed in one transaction (group commit)")
	fl.DurationVar(&f.batchWait, "webhook-batch-wait", webhook.DefaultBatchWait, "how long a batch of deliveries stays open after its first (negative: not at all)")
	fl.IntVar(&f.busyRate, "webhook-busy-rate", queue.DefaultBusyRate, "verified deliveries a second from which the webhook edge goes first: jobs then start at most --busy-job-rate a second (negative: never)")
	fl.IntVar(&f.busyJobRate, "busy-job-rate", queue.DefaultBusyJobRate, "jobs started a second while the webhook edge is busy (see --webhook-busy-rate)")
	fl.DurationVar(&f.coalesceDelay, "coalesce-delay", app.DefaultCoalesceDelay, "how long requests to judge a pull request again must pause before it is judged once for them all")
	fl.DurationVar(&f.shutdownGrace, "shutdown-grace", app.DefaultShutdownGrace, "how long running jobs may finish on shutdown before they are returned to the queue")
	fl.StringSliceVar(&f.trustedProxies, "trusted-proxies", nil, "CIDR ranges (or addresses) of the proxies in front of the App, comma-separated or repeated: a webhook from one is counted against the rightmost X-Forwarded-For address that is not a trusted proxy")
	fl.StringSliceVar(&f.hookAddresses, "github-hook-addresses", nil, "CIDR ranges (or addresses) GitHub sends webhooks from, beside those GET /meta lists (GitHub Enterprise Server lists none): they get GitHub's reserved share of the connections and bytes and no per-address byte cap, never a pass on the signature")
	fl.DurationVar(&f.redeliverEvery, "redeliver-interval", redeliver.DefaultEvery, "period of the redelivery of the webhook deliveries GitHub could not make, also run at start (0: off)")
	fl.IntVar(&f.redeliverMax, "redeliver-max", redeliver.DefaultMaxRequests, "most redeliveries asked of GitHub in one run of the redelivery")
	fl.IntVar(&f.maxConns, "max-connections", app.DefaultMaxConns, "connections held at once; a quarter are kept for GitHub's published hook addresses")
}

// inputs reads the environment (and --env-file, or AEPGATE_ENV_FILE) into
// the flags not given on the command line, and makes the logger.
func (f *serveFlags) inputs(cmd *cobra.Command, s streams) (serveInputs, error) {
	if v, ok := os.LookupEnv("AEPGATE_ENV_FILE"); ok && !cmd.Flags().Changed("env-file") {
		f.envFile = v
	}
	lookup, err := cli.WithEnvFile(cmd.Context(), os.LookupEnv, f.envFile)
	if err != nil {
		return serveInputs{}, err
	}
	if err := applyEnv(cmd.Flags(), lookup); err != nil {
		return serveInputs{}, err
	}
	logger, err := newLogger(s.err, f.logFormat, f.logLevel)
	return serveInputs{log: logger, lookup: lookup}, err
}

// applyEnv sets every flag not given on the command line from
// AEPGATE_<FLAG_NAME> when that variable is set (--format and --env-file
// excepted: AEPGATE_LOG_FORMAT and AEPGATE_ENV_FILE name them).
func applyEnv(fs *pflag.FlagSet, lookup func(string) (string, bool)) error {
	var err error
	fs.VisitAll(func(fl *pflag.Flag) {
		if err != nil || fl.Changed || fl.Name == "help" || fl.Name == "format" || fl.Name == "env-file" {
			return
		}
		name := "AEPGATE_" + strings.ToUpper(strings.ReplaceAll(fl.Name, "-", "_"))
		if v, ok := lookup(name); ok {
			if serr := fs.Set(fl.Name, v); serr != nil {
				err = fmt.Errorf("%s=%q: %v", name, v, serr)
			}
		}
	})
	return err
}

func runServe(cmd *cobra.Command, s streams, f serveFlags, in serveInputs) error {
	ctx := cmd.Context()
	opts, err := f.options(ctx, in)
	if err != nil {
		return cli.Fail(cli.ExitUsage, "%v", err)
	}
	opts.Logger, opts.Version = in.log, s.version
	// Listen first: a port already taken fails before the database file is
	// created.
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return cli.Fail(cli.ExitFindings, "listen on %s: %v", opts.Addr, err)
	}
	a, err := openApp(ctx, opts, f.databaseWait)
	if err != nil {
		ln.Close()
		return cli.Fail(cli.NetworkCode(err, cli.ExitFindings), "%v", err)
	}
	defer a.Close()
	if err := checkCredentials(ctx, a, opts); err != nil {
		ln.Close()
		return cli.Fail(cli.ExitFindings, "%v", err)
	}
	if err := a.Run(ctx, ln); err != nil {
		return cli.Fail(cli.ExitFindings, "%v", err)
	}
	return nil
}

// options turns the flags into app.Options, reading the key and secrets
// from their files or variables.
func (f serveFlags) options(ctx context.Context, in serveInputs) (app.Options, error) {
	o := app.Options{
		Addr: f.addr, Database: f.database, AppID: f.appID, GitHubURL: f.githubURL,
		Tuning: queue.Tuning{Workers: f.workers, RetryBase: f.retryBase, ReconcileEvery: f.reconcile, RescueAfter: f.rescueAfter,
			PollInterval: f.pollInterval, BusyRate: f.busyRate, BusyJobRate: f.busyJobRate},
		WritePause: f.writePause, ShutdownGrace: f.shutdownGrace, MaxConns: f.maxConns,
		BatchSize: f.batchSize, BatchWait: f.batchWait, CoalesceDelay: f.coalesceDelay,
		Redeliver: redeliver.Config{Every: f.redeliverEvery, MaxRequests: f.redeliverMax},
	}
	if o.Redeliver.Every == 0 {
		o.Redeliver.Every = -1 // explicit zero: off
	}
	var err error
	if o.TrustedProxies, err = parsePrefixes("--trusted-proxies", f.trustedProxies); err != nil {
		return o, err
	}
	if o.GitHubHookAddresses, err = parsePrefixes("--github-hook-addresses", f.hookAddresses); err != nil {
		return o, err
	}
	if o.WritePause == 0 {
		o.WritePause = -1 // explicit zero: no pause
	}
	if err := f.check(); err != nil {
		return o, err
	}
	pem, err := secretSource{"--private-key-file", f.privateKeyFile, envPrivateKey}.read(ctx, in)
	if err != nil {
		return o, err
	}
	if o.PrivateKey, err = gh.ParsePrivateKey(pem); err != nil {
		return o, fmt.Errorf("%s: not an RSA private key in PEM form: %v", keyOrigin(f.privateKeyFile), err)
	}
	secret, err := secretSource{"--webhook-secret-file", f.secretFile, envWebhookSecret}.read(ctx, in)
	if err != nil {
		return o, err
	}
	o.WebhookSecrets = [][]byte{secret}
	if f.previousSecretFile != "" {
		prev, err := cli.ReadSecretFile(ctx, in.log, "--previous-webhook-secret-file", f.previousSecretFile)
		if err != nil {
			return o, err
		}
		o.WebhookSecrets = append(o.WebhookSecrets, prev)
	}
	if o.Signer, o.PublicKeys, o.Revocations, err = f.signing.Load(ctx, in.log, in.lookup); err != nil {
		return o, err
	}
	o.Board, err = f.boardPage(ctx, in)
	return o, err
}

// check refuses settings that cannot work, before any file is read.
func (f serveFlags) check() error {
	switch {
	case !strings.HasPrefix(f.database, "sqlite:") && !strings.HasPrefix(f.database, "postgres://") && !strings.HasPrefix(f.database, "postgresql://"):
		return fmt.Errorf("--database %q: use sqlite:PATH or postgres://USER@HOST/DB", store.Redact(f.database))
	case f.appID <= 0:
		return fmt.Errorf("--app-id (AEPGATE_APP_ID) is required: the GitHub App's numeric ID")
	case f.rescueAfter < queue.DefaultJobTimeout:
		return fmt.Errorf("--rescue-after %s: must be at least %s, a job's timeout (River rescues a job only after it could have timed out)", f.rescueAfter, queue.DefaultJobTimeout)
	case f.databaseWait < 0:
		return fmt.Errorf("--database-wait %s: must be 0 or more", f.databaseWait)
	case f.maxConns < 16:
		return fmt.Errorf("--max-connections %d: must be at least 16", f.maxConns)
	case f.redeliverEvery < 0:
		return fmt.Errorf("--redeliver-interval %s: must be 0 (off) or more", f.redeliverEvery)
	case f.redeliverMax < 1:
		return fmt.Errorf("--redeliver-max %d: must be at least 1", f.redeliverMax)
	}
	return nil
}

// keyOrigin names where the private key came from, for its error.
func keyOrigin(path string) string {
	if path == "" {
		return envPrivateKey
	}
	return "--private-key-file " + cli.Shown(path)
}

// boardPage reads the /board page's flags: none (the page is off) or all
// three (the client secret from its file or AEPGATE_CLIENT_SECRET).
func (f serveFlags) boardPage(ctx context.Context, in serveInputs) (app.BoardPage, error) {
	_, envSecret := in.lookup(envClientSecret)
	hasSecret := f.clientSecretFile != "" || envSecret
	if f.clientID == "" && !hasSecret && f.publicURL == "" {
		return app.BoardPage{}, nil
	}
	if f.clientID == "" || !hasSecret || f.publicURL == "" {
		return app.BoardPage{}, fmt.Errorf("the /board page needs --client-id, --client-secret-file and --public-url together (%s may hold the secret instead of the file)", envClientSecret)
	}
	if !appAddress(f.publicURL) {
		return app.BoardPage{}, fmt.Errorf("--public-url %q: give the App's address as https://HOST[:PORT], without a path", f.publicURL)
	}
	secret, err := secretSource{"--client-secret-file", f.clientSecretFile, envClientSecret}.read(ctx, in)
	if err != nil {
		return app.BoardPage{}, err
	}
	return app.BoardPage{ClientID: f.clientID, ClientSecret: secret, PublicURL: strings.TrimSuffix(f.publicURL, "/")}, nil
}

// appAddress reports whether s is an http(s) address with a host and no
// path (but "/") or query: the App's public URL.
func appAddress(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && (u.Path == "" || u.Path == "/") && u.RawQuery == ""
}

func newLogger(w io.Writer, format, level string) (*slog.Logger, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level %q: use debug, info, warn or error", level)
	}
	o := &slog.HandlerOptions{Level: lv}
	switch format {
	case "json":
		return slog.New(slog.NewJSONHandler(w, o)), nil
	case "text":
		return slog.New(slog.NewTextHandler(w, o)), nil
	default:
		return nil, fmt.Errorf("--log-format %q: use json or text", format)
	}
}
