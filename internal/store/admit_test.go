package store

import (
	"context"
	"crypto/sha256"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/pgtest"
)

// admitted is one delivery of an admitSteps batch.
type admitted struct {
	id   string
	body string
	want Admission
}

// admitSteps: in one transaction a new body is admitted, the same body
// under another ID is a replay of the first and GitHub's redelivery of an
// ID is redelivered; across transactions the same holds; a transaction
// that rolls back records nothing; memory 0 (the negative control)
// records no body, so every new ID of the same body is admitted; a zero
// sum is no body.
func admitSteps(t *testing.T, db *DB) {
	ctx := context.Background()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	admit := func(batch []admitted, memory time.Duration, fail bool) []Admission {
		t.Helper()
		var got []Admission
		err := db.InTx(ctx, func(tx Tx) error {
			for _, d := range batch {
				sum := [32]byte{}
				if d.body != "" {
					sum = sha256.Sum256([]byte(d.body))
				}
				a, err := AdmitBatch(ctx, tx, []Arrival{{ID: d.id, Event: "issue_comment", Sum: sum}}, now, memory)
				if err != nil {
					return err
				}
				got = append(got, a[0])
			}
			if fail {
				return errors.New("injected")
			}
			return nil
		})
		if (err != nil) != fail {
			t.Fatalf("batch: %v", err)
		}
		return got
	}
	for _, step := range []struct {
		name   string
		batch  []admitted
		memory time.Duration
		fail   bool
	}{
		{"rolled back", []admitted{{"r", "x", Admission{}}}, time.Hour, true},
		{"one batch", []admitted{{"a", "x", Admission{}}, {"b", "x", Admission{ReplayOf: "a"}}, {"a", "x", Admission{Redelivered: true}}, {"c", "y", Admission{}}}, time.Hour, false},
		{"next batch", []admitted{{"d", "x", Admission{ReplayOf: "a"}}, {"r", "x", Admission{ReplayOf: "a"}}, {"c", "y", Admission{Redelivered: true}}}, time.Hour, false},
		{"no sum", []admitted{{"e", "", Admission{}}, {"f", "", Admission{}}}, time.Hour, false},
		{"broken: no body memory", []admitted{{"g", "x", Admission{}}, {"h", "x", Admission{}}}, 0, false},
	} {
		got := admit(step.batch, step.memory, step.fail)
		if step.fail {
			continue
		}
		var want []Admission
		for _, d := range step.batch {
			want = append(want, d.want)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: admissions (-want +got):\n%s", step.name, diff)
		}
	}
}

func TestAdmit(t *testing.T) { admitSteps(t, openTemp(t)) }

func TestPostgresAdmit(t *testing.T) {
	if testing.Short() {
		t.Skip("PostgreSQL: runs without -short")
	}
	url := pgtest.Start(t)
	ctx := context.Background()
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	admitSteps(t, db)
}
