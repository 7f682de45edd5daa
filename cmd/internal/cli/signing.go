package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/readfile"
	"github.com/aepgate/aepgate/internal/signkey"
	"github.com/aepgate/aepgate/protocol/attest"
)

// signingEnv is the environment variable that may hold the signing key's
// PEM itself, for hosts that pass secrets as variables.
const signingEnv = "AEPGATE_SIGNING_KEY"

// SigningFlags name aepgate's attestation signing key (separate from the
// GitHub App's key) and the other public keys it publishes and trusts.
type SigningFlags struct {
	keyFile, publicKeysFile, revocationsFile string
}

func (f *SigningFlags) Register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.keyFile, "signing-key-file", "", "file holding aepgate's attestation signing key (PEM, Ed25519 or ECDSA P-256; not the App's key); or set "+signingEnv+" to the PEM itself")
	cmd.Flags().StringVar(&f.publicKeysFile, "public-keys-file", "", "JWKS or PEM PUBLIC KEY blocks: earlier keys still valid, published beside the signing key (a key the revocations file names is left out)")
	cmd.Flags().StringVar(&f.revocationsFile, "revocations-file", "", `JSON {"revocations": [{keyId, revokedAt, reason}]}: the keys revoked, left out of the JWKS and published in the signed revocation list`)
}

// load reads the signing key (file first, then $AEPGATE_SIGNING_KEY; none:
// nil), the revocations of --revocations-file, and the keyring to publish:
// the signer's public key, then the --public-keys-file keys, revoked keys
// left out (signkey.Merge).
func (f SigningFlags) Load(ctx context.Context, log *slog.Logger, lookup func(string) (string, bool)) (*attest.Signer, attest.Keyring, attest.Revocations, error) {
	signer, err := f.signer(ctx, log, lookup)
	if err != nil {
		return nil, nil, nil, err
	}
	others, err := f.others(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	revs := attest.Revocations{}
	if f.revocationsFile != "" {
		raw, err := readfile.File(ctx, f.revocationsFile, readfile.Config)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("--revocations-file: %w", err)
		}
		if revs, err = attest.ParseRevocations(raw); err != nil {
			return nil, nil, nil, fmt.Errorf("--revocations-file %s: %w", shown(f.revocationsFile), err)
		}
	}
	ring, err := signkey.Merge(signer, others, revs)
	if err != nil {
		return nil, nil, nil, err
	}
	return signer, ring, revs, nil
}

// signer reads the signing key: --signing-key-file, else
// $AEPGATE_SIGNING_KEY; none: nil.
func (f SigningFlags) signer(ctx context.Context, log *slog.Logger, lookup func(string) (string, bool)) (*attest.Signer, error) {
	var pem []byte
	switch v, ok := lookup(signingEnv); {
	case f.keyFile != "":
		var err error
		if pem, err = readSecretFile(ctx, log, "--signing-key-file", f.keyFile); err != nil {
			return nil, err
		}
	case ok && v != "":
		pem = []byte(v)
	}
	if pem == nil {
		return nil, nil
	}
	signer, err := signkey.ParseSigner(pem)
	if err != nil {
		return nil, fmt.Errorf("aepgate's signing key: %w", err)
	}
	return signer, nil
}

// others reads the --public-keys-file keys (none: nil).
func (f SigningFlags) others(ctx context.Context) (attest.Keyring, error) {
	if f.publicKeysFile == "" {
		return nil, nil
	}
	raw, err := readfile.File(ctx, f.publicKeysFile, readfile.Config)
	if err != nil {
		return nil, fmt.Errorf("--public-keys-file: %w", err)
	}
	others, err := signkey.ParseKeyring(raw)
	if err != nil {
		return nil, fmt.Errorf("--public-keys-file %s: %w", shown(f.publicKeysFile), err)
	}
	return others, nil
}

func newKeysCmd(s streams) *cobra.Command {
	var f SigningFlags
	var asPEM bool
	var format string
	cmd := &cobra.Command{
		Use:   "keys [--signing-key-file FILE] [--public-keys-file FILE] [--revocations-file FILE] [--format json|text]",
		Short: "Print the public keys that verify aepgate's signed certificates (JWKS)",
		Long: `Prints the public keys the App publishes at GET /.well-known/aepgate/keys: the
signing key's (from --signing-key-file or ` + signingEnv + `), then those of
--public-keys-file (earlier keys still valid during a rotation). A key
--revocations-file names is left out: a revoked key leaves the JWKS, so a
JWKS consumer that knows nothing of revocation no longer finds it, and is
named in the signed revocation list instead ('aepgate keys revocations').
Each key's kid is its RFC 7638 thumbprint, the keyid its signatures carry.
That JWKS is --format json, the default; --format text (or --pem, its
alias) prints PEM PUBLIC KEY blocks instead, for 'aepgate certificate
verify --key'.

'aepgate keys generate --out FILE' writes a new Ed25519 signing key.

Exit codes: 0 printed; 2 no key given, a key or revocations file unreadable or
invalid, or the signing key revoked.`,
		Example: `  aepgate keys --signing-key-file /etc/aepgate/signing.pem > keys.jwks
  aepgate keys --signing-key-file /etc/aepgate/signing.pem --public-keys-file old-keys.jwks
  aepgate keys --signing-key-file /etc/aepgate/signing.pem --format text > signing.pub
  aepgate certificate verify certificate.dsse.json --key signing.pub`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			_, ring, _, err := f.Load(c.Context(), slog.New(slog.NewTextHandler(s.err, nil)), os.LookupEnv)
			if err != nil {
				return failf(2, "keys: %w", err)
			}
			if len(ring) == 0 {
				return failf(2, "keys: no key: give --signing-key-file (or %s) or --public-keys-file", signingEnv)
			}
			return printKeys(s, ring, asPEM || format == formatText)
		},
	}
	f.Register(cmd)
	addFormatJSONFirst(cmd, &format)
	cmd.Flags().BoolVar(&asPEM, "pem", false, "the same as --format text: PEM PUBLIC KEY blocks instead of a JWKS")
	cmd.MarkFlagsMutuallyExclusive("pem", "format")
	cmd.AddCommand(newKeysGenerateCmd(s), newKeysRevocationsCmd(s))
	return cmd
}

func printKeys(s streams, ring attest.Keyring, asPEM bool) error {
	if !asPEM {
		set, err := ring.JWKS()
		if err != nil {
			return failf(2, "keys: %w", err)
		}
		return writeEvidenceJSON(s.out, set)
	}
	for _, k := range ring.Trusted() {
		b, err := signkey.PublicPEM(k)
		if err != nil {
			return failf(2, "keys: %w", err)
		}
		if _, err := s.out.Write(b); err != nil {
			return failf(2, "keys: %w", err)
		}
	}
	return nil
}

func newKeysGenerateCmd(s streams) *cobra.Command {
	var out, format string
	cmd := &cobra.Command{
		Use:   "generate --out FILE",
		Short: "Write a new Ed25519 signing key (PKCS #8 PEM, mode 0600)",
		Long: `Writes a new Ed25519 attestation signing key to --out, created with mode 0600;
an existing file is never overwritten. Prints its key ID.

--format json prints {key_id, file}.

Exit codes: 0 written; 2 the file exists or cannot be written.`,
		Example: `  aepgate keys generate --out /etc/aepgate/signing.pem
  aepgate serve --signing-key-file /etc/aepgate/signing.pem ...`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			pem, err := signkey.Generate()
			if err != nil {
				return failf(2, "keys generate: %w", err)
			}
			signer, err := signkey.ParseSigner(pem)
			if err != nil {
				return failf(2, "keys generate: %w", err)
			}
			fh, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err != nil {
				return failf(2, "keys generate: %w", err)
			}
			_, werr := fh.Write(pem)
			if err := errors.Join(werr, fh.Close()); err != nil {
				return failf(2, "keys generate: %w", err)
			}
			if format == formatJSON {
				return writeJSON(s.out, map[string]string{"key_id": signer.KeyID(), "file": out})
			}
			fmt.Fprintf(s.out, "signing key %s written to %s\n", signer.KeyID(), out)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "file to create (required)")
	addFormat(cmd, &format)
	_ = cmd.MarkFlagRequired("out")
	return cmd
}
