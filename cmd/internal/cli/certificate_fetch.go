package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// certificateFetchFlags are certificate fetch's options.
type certificateFetchFlags struct {
	repo, sha, tokenFile, githubURL, appSlug, format string
	appID                                            int64
	// increment, when set, reads milestone increment's aepgate/increment.
	increment int
	// attestation, keyFile and jwksFile: --attestation verifies the signed
	// envelope on the run against the keys of --key or --jwks.
	attestation       bool
	keyFile, jwksFile string
	// revocations is --revocations: the App's signed revocation list.
	revocations string
	// statement is --statement: coverage or vsa, the standard statement
	// to verify and print instead of the certificate.
	statement string
	ring      attest.Keyring
}

var (
	ownerName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+$`) })
	commitSHA = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}$`) })
)

// fetchKeyring reads the keys an --attestation fetch trusts (none
// without --attestation).
func fetchKeyring(ctx context.Context, fl certificateFetchFlags) (attest.Keyring, error) {
	if !fl.attestation && fl.statement == "" {
		if fl.revocations != "" {
			return nil, errors.New("--revocations applies with --attestation or --statement: without them no signature is verified")
		}
		return nil, nil
	}
	if fl.keyFile == "" && fl.jwksFile == "" {
		flag := "--attestation"
		if fl.statement != "" {
			flag = "--statement"
		}
		return nil, fmt.Errorf("%s needs the trusted keys: --key or --jwks", flag)
	}
	ring, err := readKeyring(ctx, fl.keyFile, fl.jwksFile)
	if err != nil {
		return nil, err
	}
	return withRevocations(ctx, ring, fl.revocations)
}

// refusedCertificate explains why the fetched certificate is refused and
// exits 1 (with {certified: false, errors} under --format json).
func refusedCertificate(s streams, fl certificateFetchFlags, got judgement) error {
	where := "certificate on " + fl.sha
	if got.run != nil {
		where = fmt.Sprintf("check run %d", got.run.ID)
	}
	explainRefusals(s.err, where, got.refusals)
	if fl.format == formatJSON {
		writeJSON(s.out, map[string]any{"certified": false, "errors": refusal.Tokens(got.refusals)})
	}
	return failf(exitFindings, "certificate fetch: refused: %s", strings.Join(refusal.Tokens(got.refusals), ", "))
}

// certificateFetchLong is the command's --help.
var certificateFetchLong = `Reads the check runs named aepgate/certificate on --sha (GitHub's "list check
runs for a Git reference"; nothing is written) and trusts only those the
aepgate App wrote. GitHub records the App behind every check run; a run counts
only when that App's numeric ID is --app-id and/or its slug is --app-slug
(both must match when both are given). There is no default App: name the one
installed on the repository (its slug ends https://github.com/apps/<slug>,
its ID is on its settings page). A run of the same name written by another
App or by GitHub Actions is never trusted.

From the newest run the App wrote it reads the canonical JSON in the
summary's fenced json block, recomputes its SHA-256 and requires the title
and the external_id (sha256:<hex>) to carry it, the run to be completed with
success and the certificate's mergeSha to be --sha; then it validates the
certificate as 'aepgate certificate validate' does.

Certified: prints the canonical JSON byte for byte as the run holds it (no
trailing newline, so its SHA-256 is the run's) and exits 0. Otherwise nothing
is printed on stdout and every reason goes to stderr as "token: expected …,
saw …" (craft-protocol's tokens for the certificate's content).

The token comes from --token-file (a regular file you own with no group or
other permission bits, chmod 600, 1-4096 characters), else from GH_TOKEN,
else from GITHUB_TOKEN, as gh and other GitHub tools read them. With none the
request is anonymous, which GitHub answers for public repositories only.

With --attestation (and --key or --jwks, and optionally --revocations, as
for 'aepgate certificate verify') it also reads the signed DSSE envelope from
the run's output text and verifies it offline against those keys, for --sha
and for --repo (the statement's subject and the certificate must both name
that repository), requiring its certificate to be the summary's byte for
byte; it then prints the envelope
(one JSON line, to archive and verify again later) instead of the
certificate. A run without an envelope is refused.

With --statement coverage or --statement vsa (and --key or --jwks, and
optionally --revocations) it reads instead the standard statement the App
signed beside the certificate, in the same run's output text: the
source-review coverage statement or the SLSA Source VSA
(https://slsa.dev/verification_summary/v1) of the merged commit. It verifies
it offline as 'aepgate certificate verify' does, for --sha and --repo, and
requires the run's certificate envelope to verify too and the statement to
name that envelope by its SHA-256 (the coverage statement's reviews, the
VSA's inputAttestations); then it prints the statement's envelope (one JSON
line). A run without the statement (a certificate issued unsigned, or for a
merge whose coverage is not identity or replay) is refused.

--format json prints {certified, check_run_id, sha256, certificate} when
certified and {certified: false, errors} when refused.

Exit codes: 0 certified; 1 not certified (refused); 2 bad usage or an
unreadable token file; 3 GitHub unreachable; 130 interrupted.`

func newCertificateFetchCmd(s streams) *cobra.Command {
	var fl certificateFetchFlags
	cmd := &cobra.Command{
		Use:   "fetch --repo owner/name --sha SHA (--app-id N | --app-slug S) [flags]",
		Short: "Read the App's certificate check run on a commit and re-check it (read-only)",
		Long:  certificateFetchLong + certificateFetchIncrementHelp,
		Example: `  aepgate certificate fetch --repo acme/app --sha 0123456789abcdef0123456789abcdef01234567 --app-slug acme-aepgate
  GH_TOKEN=$(gh auth token) aepgate certificate fetch --repo acme/private --sha "$SHA" --app-id 12345 --format json
  aepgate certificate fetch --repo acme/app --sha "$INTEGRATED_SHA" --increment 3 --app-slug acme-aepgate
  aepgate certificate fetch --repo acme/app --sha "$SHA" --app-slug acme-aepgate --statement vsa --jwks keys.jwks > vsa.dsse.json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			return certificateFetch(c, s, fl, os.LookupEnv)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.repo, "repo", "", "repository as owner/name (required)")
	f.StringVar(&fl.sha, "sha", "", "the merge commit: 40 lowercase hex characters (required)")
	f.Int64Var(&fl.appID, "app-id", 0, "numeric ID of the aepgate App whose runs are trusted (no default; this or --app-slug is required)")
	f.StringVar(&fl.appSlug, "app-slug", "", "slug of the aepgate App whose runs are trusted (no default; this or --app-id is required)")
	f.StringVar(&fl.tokenFile, "token-file", "", "file holding a GitHub token (mode 0600, owned by you); default GH_TOKEN, then GITHUB_TOKEN; none: anonymous, public repositories only")
	f.StringVar(&fl.githubURL, "github-url", "", "GitHub API root for GitHub Enterprise Server (default https://api.github.com/)")
	f.IntVar(&fl.increment, "increment", 0, "read milestone N's increment certificate (aepgate/increment) on --sha, its integrated commit")
	f.BoolVar(&fl.attestation, "attestation", false, "also verify the run's signed envelope (needs --key or --jwks) and print it")
	f.StringVar(&fl.keyFile, "key", "", "with --attestation: trusted public key(s), PEM PUBLIC KEY blocks or a JWKS")
	f.StringVar(&fl.jwksFile, "jwks", "", "with --attestation: trusted keys as a JWKS document")
	f.StringVar(&fl.revocations, "revocations", "", "with --attestation or --statement: "+revocationsFlagUsage)
	f.StringVar(&fl.statement, "statement", "", "verify and print the run's standard statement instead: coverage or vsa (needs --key or --jwks)")
	cmd.MarkFlagsMutuallyExclusive("key", "jwks")
	cmd.MarkFlagsMutuallyExclusive("attestation", "statement")
	addFormat(cmd, &fl.format)
	_ = cmd.MarkFlagRequired("repo")
	_ = cmd.MarkFlagRequired("sha")
	return cmd
}

func certificateFetch(c *cobra.Command, s streams, fl certificateFetchFlags, lookup lookupFunc) error {
	ring, err := fetchKeyring(c.Context(), fl)
	var rr *revocationsRefused
	if errors.As(err, &rr) {
		return failf(exitFindings, "certificate fetch: refused: %w", err)
	}
	if err != nil {
		return failf(exitUsage, "certificate fetch: %w", err)
	}
	fl.ring = ring
	owner, name, err := fetchUsage(fl)
	if err != nil {
		return failf(exitUsage, "certificate fetch: %w", err)
	}
	check := checks.NameCertificate
	if fl.increment != 0 {
		check = checks.NameIncrement
	}
	runs, err := fetchRuns(c.Context(), fl, lookup, owner, name, check)
	if err != nil {
		var tf *tokenFileError
		if errors.As(err, &tf) {
			return failf(exitUsage, "certificate fetch: %w", err)
		}
		return failf(networkCode(err, exitFindings), "certificate fetch: %w", err)
	}
	if fl.increment != 0 {
		return incrementFetch(c.Context(), s, fl, runs, lookup)
	}
	app := appIdentity{id: fl.appID, slug: fl.appSlug}
	got := judgeCertificate(runs, app.wrote)
	if len(got.refusals) > 0 {
		return refusedCertificate(s, fl, got)
	}
	sum := certificate.FileFingerprint(got.canonical)
	fmt.Fprintf(s.err, "certificate: check run %d by %s, sha256 %s\n", got.run.ID, writer(*got.run), sum)
	if fl.attestation || fl.statement != "" {
		return fetchedSigned(c, s, fl, got)
	}
	if fl.format == formatJSON {
		err = writeJSON(s.out, map[string]any{"certified": true, "check_run_id": got.run.ID, "sha256": sum, "certificate": json.RawMessage(got.canonical)})
	} else {
		_, err = s.out.Write(got.canonical)
	}
	if err != nil {
		return failf(exitUsage, "certificate fetch: %w", err)
	}
	return nil
}

// tokenFileError is a --token-file that cannot be used: usage, not GitHub.
type tokenFileError struct{ err error }

func (e *tokenFileError) Error() string { return e.err.Error() }
func (e *tokenFileError) Unwrap() error { return e.err }

// fetchToken is the token from --token-file, else GH_TOKEN, else
// GITHUB_TOKEN, else "" (anonymous); from says where it came from.
func fetchToken(fl certificateFetchFlags, lookup lookupFunc) (token, from string, err error) {
	if fl.tokenFile != "" {
		if token, err = gh.ReadTokenFile(fl.tokenFile); err != nil {
			return "", "", &tokenFileError{err}
		}
		return token, "--token-file", nil
	}
	for _, name := range []string{"GH_TOKEN", "GITHUB_TOKEN"} {
		if v, ok := lookup(name); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v), name, nil
		}
	}
	return "", "", nil
}

// fetchUsage checks the flags before any request and splits --repo.
func fetchUsage(fl certificateFetchFlags) (owner, name string, err error) {
	switch {
	case !ownerName().MatchString(fl.repo):
		return "", "", fmt.Errorf("--repo %q is not owner/name", fl.repo)
	case !commitSHA().MatchString(fl.sha):
		return "", "", fmt.Errorf("--sha %q is not 40 lowercase hex characters (a full commit SHA)", fl.sha)
	case fl.appID < 0:
		return "", "", fmt.Errorf("--app-id %d is not a GitHub App ID", fl.appID)
	case fl.increment < 0:
		return "", "", fmt.Errorf("--increment %d is not a milestone number", fl.increment)
	case fl.statement != "" && fl.statement != checks.StatementCoverage && fl.statement != checks.StatementVSA:
		return "", "", fmt.Errorf("--statement %q: want %s", fl.statement, strings.Join(checks.StatementKinds, " or "))
	case fl.statement != "" && fl.increment != 0:
		return "", "", errors.New("--statement reads a unit certificate's run: it does not apply with --increment")
	case fl.appID == 0 && fl.appSlug == "":
		return "", "", fmt.Errorf("name the aepgate App whose check runs are trusted with --app-id or --app-slug; a check run's name alone proves nothing (see --help)")
	}
	owner, name, _ = strings.Cut(fl.repo, "/")
	return owner, name, nil
}

// fetchRuns reads the runs called check on --sha with the token
// fetchToken finds, or anonymously when there is none. A given token file
// that is not usable is an error and nothing is requested.
func fetchRuns(ctx context.Context, fl certificateFetchFlags, lookup lookupFunc, owner, name, check string) ([]gh.CheckRunRecord, error) {
	token, _, err := fetchToken(fl, lookup)
	if err != nil {
		return nil, err
	}
	client, err := gh.NewReadClient(fl.githubURL, token, &http.Client{Timeout: 20 * time.Second})
	if err != nil {
		return nil, &tokenFileError{err}
	}
	runs, err := gh.ListCheckRunsNamed(ctx, client, owner, name, fl.sha, check)
	if err != nil && token == "" {
		return nil, fmt.Errorf("%w (no --token-file, GH_TOKEN or GITHUB_TOKEN was given: anonymous reads see public repositories only)", err)
	}
	return runs, err
}

// fetchedAttestation verifies the signed envelope on the trusted run
// against fl.ring for fl.sha, requires its certificate to be the summary's
// bytes, and prints the envelope.
func fetchedAttestation(c *cobra.Command, s streams, fl certificateFetchFlags, got judgement) error {
	env, err := checks.AttestationFromText(got.run.Text)
	if err != nil {
		return failf(exitFindings, "certificate fetch: refused: %s: %w", attest.TokenEnvelopeMalformed, err)
	}
	v, err := attest.Verify(env, fl.ring, attest.Want{SHA: fl.sha, Repository: fl.repo})
	var r *attest.Refused
	if errors.As(err, &r) {
		fmt.Fprintf(s.err, "check run %d: %s\n", got.run.ID, r)
		return failf(exitFindings, "certificate fetch: refused: %s", r.Token)
	}
	if err != nil {
		return failf(exitFindings, "certificate fetch: refused: %w", err)
	}
	if !bytes.Equal(v.Certificate, got.canonical) {
		return failf(exitFindings, "certificate fetch: refused: the signed certificate (sha256 %s) is not the summary's (sha256 %s)", v.Fingerprint, certificate.FileFingerprint(got.canonical))
	}
	fmt.Fprintf(s.err, "attestation: signed by key %s, subject %s in %s\n", v.KeyID, v.SHA, v.Repository)
	if _, err := s.out.Write(append(env, '\n')); err != nil {
		return failf(exitUsage, "certificate fetch: %w", err)
	}
	return nil
}
