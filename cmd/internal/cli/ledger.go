package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/aepgate/aepgate/internal/store"
)

func newLedgerCmd(s streams) *cobra.Command {
	return group(&cobra.Command{
		Use:   "ledger",
		Short: "Inspect the App's append-only, hash-chained decision ledger",
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
	var keyFile, jwksFile string
	cmd := &cobra.Command{
		Use:   "verify [--key KEY.pub | --jwks FILE]",
		Short: "Check the ledger's hash chain, and with a key its signed head",
		Long: `verify walks the ledger in order and checks that every row carries the
SHA-256 of the row before it and that its own hash matches its content.
It prints the newest row's hash (the head): keep it elsewhere, and a later
run showing a different chain up to that row, or a shorter one, reveals
rows cut off or rewritten.

With --key or --jwks (the App's public keys, as 'aepgate keys' prints them)
it also checks the newest signed head the App stored (the App signs the
head after every append batch when it has a signing key): its signature by
a trusted key that is not revoked, and that the ledger's row of that number
has the signed hash. So a chain rewritten consistently, or cut short of the
signed row, by whoever holds the database is caught; rows appended after
the newest signed head are counted as unsealed. Deleting the newest signed
heads together with the rows after an older one is not seen here: compare
with an archive ('aepgate ledger export').

Exit codes: 0 intact; 1 broken (the first bad row, or the signed head's
problem, is named); 2 when the database or a key file cannot be read.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return ledgerVerify(cmd, s, database, keyFile, jwksFile)
		},
	}
	cmd.Flags().StringVar(&database, "database", database, "database: sqlite:PATH or postgres://… (default from AEPGATE_DATABASE)")
	cmd.Flags().StringVar(&keyFile, "key", "", "check the signed head with these public key(s): PEM PUBLIC KEY blocks or a JWKS")
	cmd.Flags().StringVar(&jwksFile, "jwks", "", "check the signed head with the keys of this JWKS")
	cmd.MarkFlagsMutuallyExclusive("key", "jwks")
	return cmd
}

func ledgerVerify(cmd *cobra.Command, s streams, database, keyFile, jwksFile string) error {
	ctx := cmd.Context()
	signed := keyFile != "" || jwksFile != ""
	var heads func(store.VerifyResult) (store.HeadResult, error)
	db, err := openLedger(ctx, database)
	if err != nil {
		return failf(2, "ledger verify: %v", err)
	}
	defer db.Close()
	if signed {
		ring, err := readKeyring(ctx, keyFile, jwksFile)
		if err != nil {
			return failf(2, "ledger verify: %w", err)
		}
		heads = func(chain store.VerifyResult) (store.HeadResult, error) { return db.VerifyHeads(ctx, chain, ring) }
	}
	res, err := db.VerifyLedger(ctx)
	if err != nil {
		return failf(2, "%v", err)
	}
	if !res.OK() {
		fmt.Fprintf(s.out, "ledger broken at row %d: %s (%d rows read)\n", res.BadSeq, res.Problem, res.Rows)
		return exitCode(1)
	}
	fmt.Fprintf(s.out, "ledger intact: %d rows, head %s\n", res.Rows, res.Head)
	if heads == nil {
		return nil
	}
	h, err := heads(res)
	if err != nil {
		return failf(2, "ledger verify: %v", err)
	}
	if h.Problem != "" {
		fmt.Fprintf(s.out, "signed head refused: %s\n", h.Problem)
		return exitCode(1)
	}
	if res.Rows > 0 {
		fmt.Fprintf(s.out, "signed head: row %d, hash %s, key %s; %d rows after it unsealed\n", h.Head.Seq, h.Head.Hash, h.KeyID, h.Unsealed)
	}
	return nil
}

func newLedgerExportCmd(s streams) *cobra.Command {
	database := defaultDatabase()
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the ledger's rows and signed heads as JSON Lines, for archiving",
		Long: `export writes every ledger row, in order, one JSON object per line
({"type":"row", seq, at, kind, delivery_id, subject, body, prev_hash,
hash}), then every signed head ({"type":"head", seq, hash, envelope}, the
envelope a DSSE envelope 'aepgate ledger verify' checks). Kept elsewhere,
an export lets anyone recompute the chain and check the signed heads
without the database, and shows later whether rows were cut off.

Exit codes: 0 written; 2 when the database cannot be read.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			db, err := openLedger(cmd.Context(), database)
			if err != nil {
				return failf(2, "ledger export: %v", err)
			}
			defer db.Close()
			enc := json.NewEncoder(s.out)
			enc.SetEscapeHTML(false)
			if err := db.ExportLedger(cmd.Context(), func(v any) error { return enc.Encode(v) }); err != nil {
				return failf(2, "%v", err)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&database, "database", database, "database: sqlite:PATH or postgres://… (default from AEPGATE_DATABASE)")
	return cmd
}
