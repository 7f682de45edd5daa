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
	keyFile, publicKeysFile string
}

func (f *SigningFlags) Register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.keyFile, "signing-key-file", "", "file holding aepgate's attestation signing key (PEM, Ed25519 or ECDSA P-256; not the App's key); or set "+signingEnv+" to the PEM itself")
	cmd.Flags().StringVar(&f.publicKeysFile, "public-keys-file", "", "JWKS or PEM PUBLIC KEY blocks: earlier keys still valid, and keys marked \"revoked\", published beside the signing key")
}

// load reads the signing key (file first, then $AEPGATE_SIGNING_KEY; none:
// nil) and the keyring to publish: the signer's public key, then the
// --public-keys-file keys.
func (f SigningFlags) Load(ctx context.Context, log *slog.Logger, lookup func(string) (string, bool)) (*attest.Signer, attest.Keyring, error) {
	var pem []byte
	switch v, ok := lookup(signingEnv); {
	case f.keyFile != "":
		var err error
		if pem, err = readSecretFile(ctx, log, "--signing-key-file", f.keyFile); err != nil {
			return nil, nil, err
		}
	case ok && v != "":
		pem = []byte(v)
	}
	var signer *attest.Signer
	if pem != nil {
		var err error
		if signer, err = signkey.ParseSigner(pem); err != nil {
			return nil, nil, fmt.Errorf("aepgate's signing key: %w", err)
		}
	}
	var others attest.Keyring
	if f.publicKeysFile != "" {
		raw, err := readfile.File(ctx, f.publicKeysFile, readfile.Config)
		if err != nil {
			return nil, nil, fmt.Errorf("--public-keys-file: %w", err)
		}
		if others, err = signkey.ParseKeyring(raw); err != nil {
			return nil, nil, fmt.Errorf("--public-keys-file %s: %w", shown(f.publicKeysFile), err)
		}
	}
	return signer, signkey.Merge(signer, others), nil
}

func newKeysCmd(s streams) *cobra.Command {
	var f SigningFlags
	var asPEM bool
	var format string
	cmd := &cobra.Command{
		Use:   "keys [--signing-key-file FILE] [--public-keys-file FILE] [--format json|text]",
		Short: "Print the public keys that verify aepgate's signed certificates (JWKS)",
		Long: `Prints the public keys the App publishes at GET /.well-known/aepgate/keys: the
signing key's (from --signing-key-file or ` + signingEnv + `), then those of
--public-keys-file (earlier keys still valid during a rotation, and revoked
ones, marked "revoked"). Each key's kid is its RFC 7638 thumbprint, the
keyid its signatures carry. That JWKS is --format json, the default;
--format text (or --pem, its alias) prints PEM PUBLIC KEY blocks instead
(revoked keys left out), for 'aepgate certificate verify --key'.

'aepgate keys generate --out FILE' writes a new Ed25519 signing key.

Exit codes: 0 printed; 2 no key given, or a key file unreadable.`,
		Example: `  aepgate keys --signing-key-file /etc/aepgate/signing.pem > keys.jwks
  aepgate keys --signing-key-file /etc/aepgate/signing.pem --public-keys-file old-keys.jwks
  aepgate keys --signing-key-file /etc/aepgate/signing.pem --format text > signing.pub
  aepgate certificate verify certificate.dsse.json --key signing.pub`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			_, ring, err := f.Load(c.Context(), slog.New(slog.NewTextHandler(s.err, nil)), os.LookupEnv)
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
	cmd.AddCommand(newKeysGenerateCmd(s))
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
	for _, k := range ring {
		if k.Revoked {
			continue
		}
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
