package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// deploySteps keeps a request, sees it redelivered, answers it once and
// not twice, and returns it to pending when its answer failed.
func deploySteps(t *testing.T, db *DB) {
	t.Helper()
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	d := Deploy{Repo: "acme/app", RunID: 77, Environment: "production", Installation: 9, SHA: "abc", Requested: t0}
	got, err := db.RecordDeploy(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	want := d
	want.State = DeployPending
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RecordDeploy (-want +got):\n%s", diff)
	}
	again := d
	again.Requested = t0.Add(time.Hour)
	if got, err := db.RecordDeploy(ctx, again); err != nil || !got.Requested.Equal(t0) {
		t.Errorf("a redelivery: requested %v, %v; want the first time %v", got.Requested, err, t0)
	}
	for i, want := range []bool{true, false} {
		if ok, err := db.AnswerDeploy(ctx, d, "approved", "certified", t0); err != nil || ok != want {
			t.Errorf("answer %d: %v, %v; want %v", i+1, ok, err, want)
		}
	}
	if p, err := db.PendingDeploys(ctx, "acme/app"); err != nil || len(p) != 0 {
		t.Errorf("pending after the answer: %v, %v", p, err)
	}
	if err := db.Unanswer(ctx, d); err != nil {
		t.Fatal(err)
	}
	if p, err := db.PendingDeploys(ctx, "acme/app"); err != nil || len(p) != 1 {
		t.Errorf("pending after unanswer: %v, %v", p, err)
	}
}

func TestDeploys(t *testing.T) { deploySteps(t, openTemp(t)) }

func TestPostgresDeploys(t *testing.T) { deploySteps(t, openPG(t)) }
