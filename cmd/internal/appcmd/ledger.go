package appcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/cmd/internal/cli"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/attest"
)

func newLedgerCmd(s streams) *cobra.Command {
	return cli.Group(&cobra.Command{
		Use:   "ledger",
		Short: cli.LedgerShort,
	}, newLedgerVerifyCmd(s), newLedgerExportCmd(s))
}

// defaultDatabase is --database's default: $AEPGATE_DATABASE, else
// sqlite:aepgate.db.
func defaultDatabase() string {
	if v, ok := os.LookupEnv("AEPGATE_DATABASE"); ok {
		return v
	}
	return "sqlite:aepgate.db"
}

// openLedger opens the database read for the ledger commands; a SQLite
// file that does not exist is an error, never created.
func openLedger(ctx context.Context, database string) (*store.DB, error) {
	if path, ok := strings.CutPrefix(database, "sqlite:"); ok {
		path = strings.TrimPrefix(path, "//")
		if _, err := os.Stat(path); err != nil {
			return nil, fmt.Errorf("no database at %s: %v", path, err)
		}
	}
	return store.Open(ctx, database)
}

func newLedgerVerifyCmd(s streams) *cobra.Command {
	database := defaultDatabase()
	var keyFile, jwksFile, revocations, format string
	cmd := &cobra.Command{
		Use:   "verify [--key KEY.pub | --jwks FILE [--revocations FILE]]",
		Short: "Check the ledger's hash chain, and with a key its signed head",
		Long: `verify walks the ledger in order and checks that every row carries the
SHA-256 of the row before it and that its own hash matches its content.
It prints the newest row's hash (the head): keep it elsewhere, and a later
run showing a different chain up to that row, or a shorter one, reveals
rows cut off or rewritten. --format json prints {intact, rows, head,
bad_row, problem} and, with a key, signed_head {row, hash, key_id,
unsealed, problem}.

With --key or --jwks (the App's public keys, as 'aepgate keys' prints them)
it also checks the newest signed head the App stored (the App signs the
head after every append batch when it has a signing key): its signature by
a trusted key that is not revoked, and that the ledger's row of that number
has the signed hash. A revoked key has left the App's JWKS; --revocations
FILE, the App's signed revocation list (GET
/.well-known/aepgate/revocations), must verify with those keys, and a head
signed by a key it names is refused with the revocation's date and reason
(a list that does not verify is exit 1). So a chain rewritten consistently, or cut short of the
signed row, by whoever holds the database is caught; rows appended after
the newest signed head are counted as unsealed. Deleting the newest signed
heads together with the rows after an older one is not seen here: compare
with an archive ('aepgate ledger export').

Exit codes: 0 intact; 1 broken (the first bad row, or the signed head's
problem, is named); 2 when the database or a key file cannot be read; 3 when
the database server does not answer.`,
		Example: `  aepgate ledger verify --database sqlite:/data/aepgate.db
  aepgate ledger verify --jwks keys.jwks --format json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return ledgerVerify(cmd, s, database, ledgerTrust{keyFile, jwksFile, revocations}, format)
		},
	}
	cli.AddFormat(cmd, &format)
	cmd.Flags().StringVar(&database, "database", database, "database: sqlite:PATH or postgres://… (default from AEPGATE_DATABASE)")
	cmd.Flags().StringVar(&keyFile, "key", "", "check the signed head with these public key(s): PEM PUBLIC KEY blocks or a JWKS")
	cmd.Flags().StringVar(&jwksFile, "jwks", "", "check the signed head with the keys of this JWKS")
	cmd.Flags().StringVar(&revocations, "revocations", "", "with --key or --jwks: "+cli.RevocationsFlagUsage)
	cmd.MarkFlagsMutuallyExclusive("key", "jwks")
	return cmd
}

// ledgerTrust are ledger verify's key files: --key or --jwks, and
// --revocations.
type ledgerTrust struct{ keyFile, jwksFile, revocations string }

// keyring reads the trusted keys with the revocations (nil: no key given).
func (lt ledgerTrust) keyring(ctx context.Context) (attest.Keyring, error) {
	if lt.keyFile == "" && lt.jwksFile == "" {
		if lt.revocations != "" {
			return nil, errors.New("--revocations needs the keys that verify it: --key or --jwks")
		}
		return nil, nil
	}
	ring, err := cli.ReadKeyring(ctx, lt.keyFile, lt.jwksFile)
	if err != nil {
		return nil, err
	}
	return cli.WithRevocations(ctx, ring, lt.revocations)
}

func ledgerVerify(cmd *cobra.Command, s streams, database string, trust ledgerTrust, format string) error {
	ctx := cmd.Context()
	ring, err := trust.keyring(ctx)
	var rr *cli.RevocationsRefused
	if errors.As(err, &rr) {
		return cli.Fail(cli.ExitFindings, "ledger verify: not verified: %w", err)
	}
	if err != nil {
		return cli.Fail(cli.ExitUsage, "ledger verify: %w", err)
	}
	db, err := openLedger(ctx, database)
	if err != nil {
		return cli.Fail(cli.NetworkCode(err, cli.ExitUsage), "ledger verify: %v", err)
	}
	defer db.Close()
	res, err := db.VerifyLedger(ctx)
	if err != nil {
		return cli.Fail(cli.ExitUsage, "%v", err)
	}
	out := map[string]any{"intact": res.OK(), "rows": res.Rows, "head": res.Head, "bad_row": res.BadSeq, "problem": res.Problem}
	var h store.HeadResult
	if ring != nil && res.OK() {
		if h, err = db.VerifyHeads(ctx, res, ring); err != nil {
			return cli.Fail(cli.ExitUsage, "ledger verify: %v", err)
		}
		out["signed_head"] = map[string]any{"row": h.Head.Seq, "hash": h.Head.Hash, "key_id": h.KeyID, "unsealed": h.Unsealed, "problem": h.Problem}
	}
	if format == cli.FormatJSON {
		cli.WriteJSON(s.out, out)
	} else {
		printLedgerVerify(s, res, ring != nil, h)
	}
	if !res.OK() || h.Problem != "" {
		return cli.ExitCode(cli.ExitFindings)
	}
	return nil
}

// printLedgerVerify is ledger verify's text: the chain, then the signed
// head when a key was given.
func printLedgerVerify(s streams, res store.VerifyResult, signed bool, h store.HeadResult) {
	if !res.OK() {
		fmt.Fprintf(s.out, "ledger broken at row %d: %s (%d rows read)\n", res.BadSeq, res.Problem, res.Rows)
		return
	}
	fmt.Fprintf(s.out, "ledger intact: %d rows, head %s\n", res.Rows, res.Head)
	switch {
	case !signed:
	case h.Problem != "":
		fmt.Fprintf(s.out, "signed head refused: %s\n", h.Problem)
	case res.Rows > 0:
		fmt.Fprintf(s.out, "signed head: row %d, hash %s, key %s; %d rows after it unsealed\n", h.Head.Seq, h.Head.Hash, h.KeyID, h.Unsealed)
	}
}

func newLedgerExportCmd(s streams) *cobra.Command {
	database := defaultDatabase()
	var format string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the ledger's rows and signed heads as JSON Lines, for archiving",
		Long: `export writes every ledger row, in order, one JSON object per line
({"type":"row", seq, at, kind, delivery_id, subject, body, prev_hash,
hash}), then every signed head ({"type":"head", seq, hash, envelope}, the
envelope a DSSE envelope 'aepgate ledger verify' checks). Kept elsewhere,
an export lets anyone recompute the chain and check the signed heads
without the database, and shows later whether rows were cut off. The
output is JSON Lines whatever --format says (json is its only format).

Exit codes: 0 written; 2 when the database cannot be read; 3 when the
database server does not answer.`,
		Example: `  aepgate ledger export --database sqlite:/data/aepgate.db > ledger.jsonl`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := openLedger(cmd.Context(), database)
			if err != nil {
				return cli.Fail(cli.NetworkCode(err, cli.ExitUsage), "ledger export: %v", err)
			}
			defer db.Close()
			enc := json.NewEncoder(s.out)
			enc.SetEscapeHTML(false)
			if err := db.ExportLedger(cmd.Context(), func(v any) error { return enc.Encode(v) }); err != nil {
				return cli.Fail(2, "%v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&database, "database", database, "database: sqlite:PATH or postgres://… (default from AEPGATE_DATABASE)")
	cli.AddFormat(cmd, &format)
	return cmd
}
