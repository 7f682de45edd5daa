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
)

// verifyReport is what certificate verify prints for a verified envelope.
type verifyReport struct {
	Verified    bool            `json:"verified"`
	KeyID       string          `json:"keyId"`
	Subject     attest.Subject  `json:"subject"`
	Fingerprint string          `json:"sha256"`
	Certificate json.RawMessage `json:"certificate"`
}

func newCertificateVerifyCmd(s streams) *cobra.Command {
	var keyFile, jwksFile, sha, format string
	cmd := &cobra.Command{
		Use:   "verify FILE|- (--key KEY.pub | --jwks FILE) [--sha SHA]",
		Short: "Verify a signed certificate (DSSE envelope or Sigstore bundle) offline",
		Long: `Verifies a signed completion certificate with no network: a DSSE envelope (or a
Sigstore bundle holding one) whose payload is an in-toto Statement v1 with
predicate type ` + attest.PredicateType + `. It checks, in order: a
signature over the exact payload by a trusted key that is not revoked; the
statement's type and predicate type; that its one subject is the commit the
certificate names (mergeSha) and, with --sha, that commit; and that the
certificate passes every rule 'aepgate certificate validate' applies.

The trusted keys come from --key (PEM PUBLIC KEY blocks, or a JWKS) or
--jwks (the JWKS the App serves at /.well-known/aepgate/keys, or 'aepgate
keys' prints; a key marked "revoked" there is refused as revoked).

Verified: prints {verified, keyId, subject, sha256, certificate} as JSON
(sha256 is the certificate's fingerprint, the check run's external_id) and
exits 0. Refused: the reason goes to stderr as "token: expected …, saw …".

Its output is JSON whatever --format says (json is its only format).

Exit codes: 0 verified; 1 refused (not verified); 2 an unreadable file or key
file, or bad usage; 130 interrupted.`,
		Example: `  aepgate certificate verify certificate.dsse.json --jwks keys.jwks --sha "$MERGE_SHA"
  curl -s https://aepgate.example/.well-known/aepgate/keys > keys.jwks && aepgate certificate verify - --jwks keys.jwks < bundle.json`,
		Args: cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			ring, err := readKeyring(c.Context(), keyFile, jwksFile)
			if err != nil {
				return readFailed("certificate verify", err)
			}
			raw, err := readInput(c.Context(), s.in, args[0], readfile.Certificate)
			if err != nil {
				return readFailed("certificate verify", err)
			}
			return certificateVerify(s, raw, ring, sha)
		},
	}
	f := cmd.Flags()
	f.StringVar(&keyFile, "key", "", "trusted public key(s): PEM PUBLIC KEY blocks or a JWKS")
	f.StringVar(&jwksFile, "jwks", "", "trusted keys as a JWKS document")
	f.StringVar(&sha, "sha", "", "the commit the certificate must be about (40 hex)")
	addFormatJSONFirst(cmd, &format)
	cmd.MarkFlagsOneRequired("key", "jwks")
	cmd.MarkFlagsMutuallyExclusive("key", "jwks")
	return cmd
}

func certificateVerify(s streams, raw []byte, ring attest.Keyring, sha string) error {
	if sha != "" && !commitSHA().MatchString(sha) {
		return failf(2, "certificate verify: --sha %q is not 40 lowercase hex characters (a full commit SHA)", sha)
	}
	v, err := attest.Verify(attest.Unbundle(raw), ring, attest.Want{SHA: sha})
	var r *attest.Refused
	if errors.As(err, &r) {
		fmt.Fprintf(s.err, "certificate verify: %s\n", r)
		return failf(exitFindings, "certificate verify: refused: %s", r.Token)
	}
	if err != nil {
		return failf(exitFindings, "certificate verify: not verified: %w", err)
	}
	rep := verifyReport{Verified: true, KeyID: v.KeyID, Subject: v.Subject, Fingerprint: v.Fingerprint, Certificate: v.Certificate}
	if err := writeEvidenceJSON(s.out, rep); err != nil {
		return failf(2, "certificate verify: %w", err)
	}
	return nil
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
