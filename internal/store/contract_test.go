package store

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// contractSteps keeps a contract, replaces it, refuses a stale
// replacement, and ledgers each change.
func contractSteps(t *testing.T, db *DB) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	if _, ok, err := db.KeptContract(ctx, "o/r", ContractUnit, 2); err != nil || ok {
		t.Fatalf("before keeping: kept %v, err %v", ok, err)
	}
	first := KeptContract{Repo: "o/r", Kind: ContractUnit, Number: 2, Contract: []byte(`{"risk":"high"}`)}
	if err := db.KeepContract(ctx, first, nil, Entry{Kind: "contract_kept", Subject: "o/r#2"}, now); err != nil {
		t.Fatal(err)
	}
	if err := db.KeepContract(ctx, first, nil, Entry{Kind: "contract_kept", Subject: "o/r#2"}, now); !errors.Is(err, ErrContractMoved) {
		t.Fatalf("keeping over a kept contract as if none: err %v, want ErrContractMoved", err)
	}
	got, ok, err := db.KeptContract(ctx, "o/r", ContractUnit, 2)
	if err != nil || !ok {
		t.Fatalf("kept %v, err %v", ok, err)
	}
	tampered := KeptContract{Repo: "o/r", Kind: ContractUnit, Number: 2, Contract: []byte(`{"risk":"high"}`), Tamper: "risk lowered from high to low", TamperedBy: "mallory"}
	if err := db.KeepContract(ctx, tampered, &got, Entry{Kind: "contract_tampered", Subject: "o/r#2"}, now); err != nil {
		t.Fatal(err)
	}
	if err := db.KeepContract(ctx, tampered, &got, Entry{Kind: "contract_tampered", Subject: "o/r#2"}, now); !errors.Is(err, ErrContractMoved) {
		t.Fatalf("keeping over a stale read: err %v, want ErrContractMoved", err)
	}
	if _, ok, _ := db.KeptContract(ctx, "o/r", ContractMilestone, 2); ok {
		t.Error("a unit's contract is kept as milestone 2's")
	}
	got, _, err = db.KeptContract(ctx, "o/r", ContractUnit, 2)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(tampered, got, cmpopts.IgnoreFields(KeptContract{}, "KeptAt")); diff != "" {
		t.Errorf("kept (-want +got):\n%s", diff)
	}
	all, err := db.KeptContracts(ctx, "o/r", ContractUnit)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[int]KeptContract{2: tampered}, all, cmpopts.IgnoreFields(KeptContract{}, "KeptAt")); diff != "" {
		t.Errorf("all kept (-want +got):\n%s", diff)
	}
	var kinds []string
	err = db.ExportLedger(ctx, func(v any) error {
		if r, ok := v.(ExportRow); ok && r.Type == "row" {
			kinds = append(kinds, r.Kind)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"contract_kept", "contract_tampered"}, kinds); diff != "" {
		t.Errorf("ledger kinds (-want +got):\n%s", diff)
	}
}

func TestContracts(t *testing.T) { contractSteps(t, openTemp(t)) }

func TestPostgresContracts(t *testing.T) { contractSteps(t, openPG(t)) }
