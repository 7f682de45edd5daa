package contract

import (
	"context"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/workunit"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// memStore keeps contracts in memory and records the ledger's kinds.
type memStore struct {
	rows   map[string]store.KeptContract
	ledger []string
}

func (m *memStore) KeptContract(_ context.Context, repo, kind string, number int) (store.KeptContract, bool, error) {
	r, ok := m.rows[kind+repo+string(rune(number))]
	return r, ok, nil
}

func (m *memStore) KeepContract(_ context.Context, k store.KeptContract, _ *store.KeptContract, e store.Entry, _ time.Time) error {
	if m.rows == nil {
		m.rows = map[string]store.KeptContract{}
	}
	m.rows[k.Kind+k.Repo+string(rune(k.Number))] = k
	m.ledger = append(m.ledger, e.Kind)
	return nil
}

func body(risk string) string {
	return "```yaml\ngoal: g\nacceptance: [a]\nnon_goals: [n]\nrisk: " + risk + "\nclass: product\n```\n"
}

// TestUnit: a unit's contract kept as first judged, through a sequence of
// edits; the risk that counts, who is shown and the ledger rows.
func TestUnit(t *testing.T) {
	owners := func(who string) bool { return who == "olivia" }
	type step struct {
		body, editor   string
		wantRisk       workunit.Risk
		wantBy, ledger string
		wantNil        bool
	}
	steps := []step{
		{body: "no contract yet", wantNil: true},
		{body: body("high"), wantRisk: "high", ledger: "contract_kept:unit"},
		{body: body("high"), wantRisk: "high"},
		{body: body("low"), editor: "mallory", wantRisk: "high", wantBy: "mallory", ledger: "contract_tampered:unit"},
		{body: body("low"), editor: "", wantRisk: "high", wantBy: "mallory"},
		{body: "broken", editor: "olivia", wantRisk: "high", wantBy: "olivia", ledger: "contract_tampered:unit"},
		{body: body("low"), editor: "olivia", wantRisk: "low", ledger: "contract_changed:unit"},
		{body: body("medium"), editor: "mallory", wantRisk: "medium", ledger: "contract_changed:unit"},
	}
	s := &memStore{}
	k := Keeper{Store: s}
	for i, st := range steps {
		before := len(s.ledger)
		got, err := k.Unit(context.Background(), "acme/app", Issue{Number: 3, Body: st.body, Editor: st.editor}, owners)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if st.wantNil {
			if got != nil {
				t.Errorf("step %d: kept %+v, want none", i, got)
			}
			continue
		}
		if got.Contract.Risk != st.wantRisk || got.EditedBy != st.wantBy {
			t.Errorf("step %d: risk %s by %q, want %s by %q", i, got.Contract.Risk, got.EditedBy, st.wantRisk, st.wantBy)
		}
		var wantLedger []string
		if st.ledger != "" {
			wantLedger = []string{st.ledger}
		}
		if diff := cmp.Diff(wantLedger, s.ledger[before:], cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("step %d: ledger (-want +got):\n%s", i, diff)
		}
	}
}

// TestIncrement: a milestone's definition changes to ask less only on an
// owner's edit.
func TestIncrement(t *testing.T) {
	s := &memStore{}
	k := Keeper{Store: s}
	ctx := context.Background()
	for i, st := range []struct {
		desc    string
		owner   bool
		want    workunit.Risk
		ignored int
	}{
		{"```yaml\nrisk: high\n```\n", false, "high", 0},
		{"```yaml\nrisk: low\n```\n", false, "high", 1},
		{"```yaml\nrisk: low\n```\n", true, "low", 0},
		{"```yaml\nrisk: medium\n```\n", false, "medium", 0},
	} {
		got, ignored, err := k.Increment(ctx, "acme/app", 1, st.desc, st.owner)
		if err != nil {
			t.Fatal(err)
		}
		if got.Risk != st.want || len(ignored) != st.ignored {
			t.Errorf("step %d: risk %s, %d ignored; want %s, %d", i, got.Risk, len(ignored), st.want, st.ignored)
		}
	}
}

// TestFirst: a signed body keeps the contract only when none is kept and
// it is valid; a later body then counts against it.
func TestFirst(t *testing.T) {
	ctx := context.Background()
	s := &memStore{}
	k := Keeper{Store: s}
	for _, b := range []string{"no contract", body("high"), body("low")} {
		if err := k.First(ctx, "d1", "acme/app", 4, b); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]string{"contract_kept:unit"}, s.ledger); diff != "" {
		t.Errorf("ledger (-want +got):\n%s", diff)
	}
	got, err := k.Unit(ctx, "acme/app", Issue{Number: 4, Body: body("low"), Editor: "mallory"}, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if got.Contract.Risk != workunit.RiskHigh || !got.Tampered() {
		t.Errorf("after a first keep at high, a writer's low: %+v", got)
	}
}
