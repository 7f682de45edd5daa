package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Kept contracts: any writer can edit an issue body or a milestone
// description, so the App keeps a unit's contract and a milestone's
// increment definition as first judged, and replaces the kept value only
// with what counts (protocol/workunit KeepContract, KeepIncrement). The
// table is a system of record, like aepgate_kept: the ledger holds a row
// for every contract kept, changed or tampered with.
var contractTables = []string{
	`CREATE TABLE aepgate_contract (
		repo TEXT NOT NULL,
		kind TEXT NOT NULL,
		number INTEGER NOT NULL,
		contract TEXT NOT NULL,
		tamper TEXT NOT NULL,
		tampered_by TEXT NOT NULL,
		kept_at TEXT NOT NULL,
		PRIMARY KEY (repo, kind, number))`,
}

// The kinds of kept contract.
const (
	ContractUnit      = "unit"
	ContractMilestone = "milestone"
)

// ErrContractMoved is returned by KeepContract when the kept contract is no
// longer the one the caller read (another replica or job changed it first):
// the job is retried and judges again on the new value.
var ErrContractMoved = errors.New("the kept contract changed since it was read; judged again on retry")

// KeptContract is one kept contract's row.
type KeptContract struct {
	// Repo is "owner/name"; Kind is ContractUnit or ContractMilestone;
	// Number is the or the milestone's.
	Repo   string
	Kind   string
	Number int
	// Contract is the value that counts, as JSON the caller encodes.
	Contract []byte
	// Tamper is what of the source did not count when last judged, as the
	// caller words it ("" none), and TamperedBy who edited it.
	Tamper, TamperedBy string
	KeptAt             time.Time
}

// KeptContract returns the kept contract of kind and number in repo, and
// whether one is kept.
func (db *DB) KeptContract(ctx context.Context, repo, kind string, number int) (KeptContract, bool, error) {
	rows, err := db.read(ctx, `SELECT contract, tamper, tampered_by, kept_at FROM aepgate_contract WHERE repo = $1 AND kind = $2 AND number = $3`, repo, kind, number)
	if err != nil {
		return KeptContract{}, false, fmt.Errorf("kept contract %s %s %d: %w", repo, kind, number, err)
	}
	defer rows.Close()
	k := KeptContract{Repo: repo, Kind: kind, Number: number}
	if !rows.Next() {
		return k, false, rows.Err()
	}
	var c, at string
	if err := rows.Scan(&c, &k.Tamper, &k.TamperedBy, &at); err != nil {
		return KeptContract{}, false, fmt.Errorf("kept contract %s %s %d: %w", repo, kind, number, err)
	}
	k.Contract = []byte(c)
	k.KeptAt, _ = time.Parse(timeFormat, at)
	return k, true, rows.Err()
}

// KeepContract stores k in place of prev (nil: none was kept) and appends e
// to the ledger in the same transaction. When the kept row is no longer
// prev it stores nothing and returns ErrContractMoved.
func (db *DB) KeepContract(ctx context.Context, k KeptContract, prev *KeptContract, e Entry, now time.Time) error {
	err := db.InTx(ctx, func(tx Tx) error {
		var have, tamper string
		err := tx.QueryRow(ctx, `SELECT contract, tamper FROM aepgate_contract WHERE repo = $1 AND kind = $2 AND number = $3`, k.Repo, k.Kind, k.Number).Scan(&have, &tamper)
		switch {
		case isNoRows(err) && prev == nil:
		case err == nil && prev != nil && have == string(prev.Contract) && tamper == prev.Tamper:
		case err != nil && !isNoRows(err):
			return err
		default:
			return ErrContractMoved
		}
		if _, err := Append(ctx, tx, db.Dialect, e, now); err != nil {
			return err
		}
		if err := db.SealHead(ctx, tx); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO aepgate_contract (repo, kind, number, contract, tamper, tampered_by, kept_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
			ON CONFLICT (repo, kind, number) DO UPDATE SET contract = excluded.contract, tamper = excluded.tamper, tampered_by = excluded.tampered_by, kept_at = excluded.kept_at`,
			k.Repo, k.Kind, k.Number, string(k.Contract), k.Tamper, k.TamperedBy, now.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return fmt.Errorf("keep contract %s %s %d: %w", k.Repo, k.Kind, k.Number, err)
	}
	return nil
}

// KeptContracts returns repo's kept contracts of kind, by number.
func (db *DB) KeptContracts(ctx context.Context, repo, kind string) (map[int]KeptContract, error) {
	rows, err := db.read(ctx, `SELECT number, contract, tamper, tampered_by, kept_at FROM aepgate_contract WHERE repo = $1 AND kind = $2`, repo, kind)
	if err != nil {
		return nil, fmt.Errorf("kept contracts %s %s: %w", repo, kind, err)
	}
	defer rows.Close()
	out := map[int]KeptContract{}
	for rows.Next() {
		k := KeptContract{Repo: repo, Kind: kind}
		var c, at string
		if err := rows.Scan(&k.Number, &c, &k.Tamper, &k.TamperedBy, &at); err != nil {
			return nil, fmt.Errorf("kept contracts %s %s: %w", repo, kind, err)
		}
		k.Contract = []byte(c)
		k.KeptAt, _ = time.Parse(timeFormat, at)
		out[k.Number] = k
	}
	return out, rows.Err()
}
