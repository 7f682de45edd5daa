package cli

import (
	"encoding/json"
	"log/slog"
	"os"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/protocol/attest"
)

// keysRevocationsLong is keys revocations' --help.
const keysRevocationsLong = `Prints the signed revocation list the App serves at GET
/.well-known/aepgate/revocations: the keys of --revocations-file (JSON
{"revocations": [{"keyId", "revokedAt", "reason"}]}, keyId the key's kid,
revokedAt an RFC 3339 time), signed by the signing key (--signing-key-file
or ` + signingEnv + `) as a DSSE envelope of payload type
` + attest.RevocationsPayloadType + `, one JSON line. Without
--revocations-file the list is empty (nothing revoked), still signed.

Publish it where verifiers fetch it beside the JWKS; they give it to
'aepgate certificate verify' and 'aepgate ledger verify' with --revocations.
A revoked key also leaves the JWKS that 'aepgate keys' prints and the App
serves. A list revoking the signing key itself is refused.

Its output is JSON whatever --format says (json is its only format).

Exit codes: 0 printed; 2 no signing key, a file unreadable or invalid, or
the signing key revoked by the list.`

func newKeysRevocationsCmd(s streams) *cobra.Command {
	var f SigningFlags
	var format string
	cmd := &cobra.Command{
		Use:   "revocations [--signing-key-file FILE] [--revocations-file FILE]",
		Short: "Print the signed revocation list (the revoked keys, with date and reason)",
		Long:  keysRevocationsLong,
		Example: `  aepgate keys revocations --signing-key-file /etc/aepgate/signing.pem --revocations-file revoked.json > revocations.json
  aepgate certificate verify certificate.dsse.json --jwks keys.jwks --revocations revocations.json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			signer, _, revs, err := f.Load(c.Context(), slog.New(slog.NewTextHandler(s.err, nil)), os.LookupEnv)
			if err != nil {
				return failf(exitUsage, "keys revocations: %w", err)
			}
			if signer == nil {
				return failf(exitUsage, "keys revocations: no signing key: give --signing-key-file (or %s); the list is signed with it", signingEnv)
			}
			env, err := attest.SignRevocations(signer, revs)
			if err != nil {
				return failf(exitUsage, "keys revocations: %w", err)
			}
			b, err := json.Marshal(env)
			if err != nil {
				return failf(exitUsage, "keys revocations: %w", err)
			}
			if _, err := s.out.Write(append(b, '\n')); err != nil {
				return failf(exitUsage, "keys revocations: %w", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&f.keyFile, "signing-key-file", "", "file holding aepgate's attestation signing key (PEM); or set "+signingEnv+" to the PEM itself")
	cmd.Flags().StringVar(&f.revocationsFile, "revocations-file", "", `JSON {"revocations": [{keyId, revokedAt, reason}]}: the keys revoked`)
	addFormatJSONFirst(cmd, &format)
	return cmd
}
