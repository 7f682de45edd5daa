package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/internal/signkey"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/sourceverify"
)

// verifyReport is what certificate verify prints for a verified envelope.
type verifyReport struct {
	Verified      bool            `json:"verified"`
	PredicateType string          `json:"predicateType"`
	KeyID         string          `json:"keyId"`
	Subject       attest.Subject  `json:"subject"`
	Repository    string          `json:"repository"`
	Fingerprint   string          `json:"sha256"`
	Certificate   json.RawMessage `json:"certificate"`
	// Unchecked names what was not checked for want of a flag:
	// "repository" without --repo, "revocations" without --revocations.
	Unchecked []string `json:"unchecked"`
}

// verifyWant is what certificate verify was asked to require beyond a
// valid signature: the commit, the repository, and whether a revocation
// list was given.
type verifyWant struct {
	attest.Want
	revocations bool
	// levels are --level: what a VSA's verifiedLevels must name.
	levels []string
}

// unchecked lists (in order) what w did not ask to check, and says so on
// stderr: the repository the certificate is about, the revocation list.
func (w verifyWant) unchecked(s streams, repository string) []string {
	out := []string{}
	if w.Repository == "" {
		out = append(out, "repository")
		fmt.Fprintf(s.err, "certificate verify: the repository was not checked: the certificate is about %s; give --repo OWNER/NAME to require the repository you expect (a fork holds the same commits)\n", repository)
	}
	if !w.revocations {
		out = append(out, "revocations")
		fmt.Fprintln(s.err, "certificate verify: no revocation list was checked: give --revocations FILE (GET /.well-known/aepgate/revocations) to refuse keys the App revoked")
	}
	return out
}

// certificateVerifyLong is certificate verify's --help.
var certificateVerifyLong = `Verifies a signed completion certificate with no network: a DSSE envelope (or a
Sigstore bundle holding one) whose payload is an in-toto Statement v1 with
predicate type ` + attest.PredicateType + `. It checks, in order: a
signature over the exact payload by a trusted key that is not revoked; the
statement's type and predicate type; that its one subject is the commit the
certificate names (mergeSha) and, with --sha, that commit; that the
subject's name (https://github.com/OWNER/NAME/commit/SHA) names the
repository the certificate's repository field names and, with --repo, that
repository (a fork holds the same commits, so a SHA alone does not say
which repository was certified); and that the certificate passes every rule
'aepgate certificate validate' applies.

The trusted keys come from --key (PEM PUBLIC KEY blocks, or a JWKS) or
--jwks (the JWKS the App serves at /.well-known/aepgate/keys, or 'aepgate
keys' prints). A revoked key has left that JWKS; --revocations FILE is the
App's signed revocation list (GET /.well-known/aepgate/revocations), which
must verify with those keys: a signature by a key it names is refused with
the revocation's date and reason, also when the key is still among --key's.
A list that does not verify is refused (exit 1), never ignored.

An increment certificate (predicate type ` + attest.IncrementPredicateType + `)
is verified the same way, its subject being the certificate's integratedSha
and the certificate checked by the increment rules; then every story whose
signed unit envelope it names by digest (envelopeSha256) must be given with
--story FILE (repeat the flag; an envelope or a bundle, as 'aepgate
certificate fetch --sha <the story's mergeSha> --attestation' prints it),
verify as that unit's certificate about the story's merge commit with the
same keys, and carry the certificateSha256 the increment names. A story
envelope missing, or given but not named, is refused.

The standard statements the App signs beside a unit certificate are told
apart by their predicate type and verified as in-toto statements (read as
plain JSON, unknown and repeated fields refused): a
source-review coverage statement (` + sourceverify.CoveragePredicateType + `)
must be of class identity or replay and name the repository (its
repository field); an SLSA Source VSA (` + sourceverify.VSAPredicateType + `)
must say PASSED, name the repository (resourceUri git+https://github.com/
OWNER/NAME), a verifier, a policy with a digest and its input attestations,
and, with --level (repeated), every level given. Both need one subject, the
commit (https://github.com/OWNER/NAME/commit/SHA with its gitCommit
digest), checked against --sha and --repo as for a certificate. Verified, it
prints {verified, predicateType, keyId, subject, repository, predicate,
unchecked}; refused, the reason goes to stderr (exit 1). --story with a
statement, or --level with anything but a VSA, is bad usage.

Verified: prints {verified, predicateType, keyId, subject, repository,
sha256, certificate, unchecked} as JSON (sha256 is the certificate's
fingerprint, the check run's external_id; unchecked lists "repository"
without --repo and "revocations" without --revocations, each also said on
stderr; an increment adds stories: {unit, mergeSha, envelopeSha256, keyId}
for each story envelope checked, each required to be of the same
repository) and exits 0.
Refused: the reason goes to stderr as "token: expected …, saw …".

Its output is JSON whatever --format says (json is its only format).

Exit codes: 0 verified; 1 refused (not verified); 2 an unreadable file or key
file, or bad usage; 130 interrupted.`

func newCertificateVerifyCmd(s streams) *cobra.Command {
	var keyFile, jwksFile, revocations, format string
	var want attest.Want
	var stories, levels []string
	cmd := &cobra.Command{
		Use:   "verify FILE|- (--key KEY.pub | --jwks FILE) [--revocations FILE] [--repo OWNER/NAME] [--sha SHA] [--story FILE]... [--level LEVEL]...",
		Short: "Verify a signed certificate (DSSE envelope or Sigstore bundle) offline",
		Long:  certificateVerifyLong,
		Example: `  aepgate certificate verify certificate.dsse.json --jwks keys.jwks --repo acme/widgets --sha "$MERGE_SHA"
  curl -s https://aepgate.example/.well-known/aepgate/keys > keys.jwks && curl -s https://aepgate.example/.well-known/aepgate/revocations > revocations.json
  aepgate certificate verify - --jwks keys.jwks --revocations revocations.json --repo acme/widgets < bundle.json
  aepgate certificate verify vsa.dsse.json --jwks keys.jwks --repo acme/widgets --sha "$MERGE_SHA" --level SLSA_SOURCE_TWO_PARTY_REVIEWED
  aepgate certificate verify increment.dsse.json --jwks keys.jwks --sha "$INTEGRATED_SHA" --story unit-7.dsse.json --story unit-9.dsse.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ring, err := readKeyring(c.Context(), keyFile, jwksFile)
			if err != nil {
				return readFailed("certificate verify", err)
			}
			if ring, err = withRevocations(c.Context(), ring, revocations); err != nil {
				return trustFailed("certificate verify", err)
			}
			raw, err := readInput(c.Context(), s.in, args[0], readfile.Certificate)
			if err != nil {
				return readFailed("certificate verify", err)
			}
			storyRaw, err := readStories(c.Context(), stories)
			if err != nil {
				return readFailed("certificate verify", err)
			}
			return certificateVerify(s, raw, ring, verifyWant{Want: want, revocations: revocations != "", levels: levels}, storyRaw)
		},
	}
	f := cmd.Flags()
	f.StringVar(&keyFile, "key", "", "trusted public key(s): PEM PUBLIC KEY blocks or a JWKS")
	f.StringVar(&jwksFile, "jwks", "", "trusted keys as a JWKS document")
	f.StringVar(&revocations, "revocations", "", revocationsFlagUsage)
	f.StringVar(&want.Repository, "repo", "", "the repository the certificate must be about, as owner/name (without it the output says the repository was not checked)")
	f.StringVar(&want.SHA, "sha", "", "the commit the certificate must be about (40 hex)")
	f.StringArrayVar(&stories, "story", nil, "for an increment certificate: a story's signed unit envelope or bundle (repeat for each story)")
	f.StringArrayVar(&levels, "level", nil, "for a VSA: a level its verifiedLevels must name, e.g. SLSA_SOURCE_TWO_PARTY_REVIEWED (repeat for each)")
	addFormatJSONFirst(cmd, &format)
	cmd.MarkFlagsOneRequired("key", "jwks")
	cmd.MarkFlagsMutuallyExclusive("key", "jwks")
	return cmd
}

func certificateVerify(s streams, raw []byte, ring attest.Keyring, want verifyWant, stories [][]byte) error {
	if want.SHA != "" && !commitSHA().MatchString(want.SHA) {
		return failf(2, "certificate verify: --sha %q is not 40 lowercase hex characters (a full commit SHA)", want.SHA)
	}
	if want.Repository != "" && !ownerName().MatchString(want.Repository) {
		return failf(2, "certificate verify: --repo %q is not a repository as owner/name", want.Repository)
	}
	env := attest.Unbundle(raw)
	pt := attest.StatementPredicateType(env)
	if len(want.levels) > 0 && pt != sourceverify.VSAPredicateType {
		return failf(2, "certificate verify: --level applies to a VSA (predicate type %s) only", sourceverify.VSAPredicateType)
	}
	if isStatement(pt) && len(stories) == 0 {
		return statementVerify(s, env, ring, want)
	}
	if pt == attest.IncrementPredicateType {
		return incrementVerify(s, env, ring, want, stories)
	}
	if len(stories) > 0 {
		return failf(2, "certificate verify: --story applies to an increment certificate (predicate type %s) only", attest.IncrementPredicateType)
	}
	v, err := attest.Verify(env, ring, want.Want)
	if err != nil {
		return verifyRefused(s, err)
	}
	rep := verifyReport{Verified: true, PredicateType: attest.PredicateType, KeyID: v.KeyID, Subject: v.Subject, Repository: v.Repository,
		Fingerprint: v.Fingerprint, Certificate: v.Certificate, Unchecked: want.unchecked(s, v.Repository)}
	if err := writeEvidenceJSON(s.out, rep); err != nil {
		return failf(2, "certificate verify: %w", err)
	}
	return nil
}

// verifyRefused explains a refusal on stderr and exits 1.
func verifyRefused(s streams, err error) error {
	var r *attest.Refused
	if errors.As(err, &r) {
		fmt.Fprintf(s.err, "certificate verify: %s\n", r)
		return failf(exitFindings, "certificate verify: refused: %s", r.Token)
	}
	return failf(exitFindings, "certificate verify: not verified: %w", err)
}

// readKeyring reads the trusted keys from whichever of the two files is
// given.
func readKeyring(ctx context.Context, keyFile, jwksFile string) (attest.Keyring, error) {
	path, flag := keyFile, "--key"
	if jwksFile != "" {
		path, flag = jwksFile, "--jwks"
	}
	raw, err := readfile.File(ctx, path, readfile.Config)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	var ring attest.Keyring
	if flag == "--jwks" {
		ring, err = attest.ParseJWKS(raw)
	} else {
		ring, err = signkey.ParseKeyring(raw)
	}
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, shown(path), err)
	}
	return ring, nil
}
