package store

import (
	"context"
	"testing"
	"time"
)

func TestLastApprovedDeploy(t *testing.T) {
	db, ctx := openTemp(t), context.Background()
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	if _, ok, err := db.LastApprovedDeploy(ctx, "acme/app", "production"); err != nil || ok {
		t.Fatalf("none yet: %v, %v", ok, err)
	}
	steps := []struct {
		run         int64
		env, sha    string
		state       string
		min         int
		wantLastSHA string
	}{
		{1, "production", "a1", DeployApproved, 0, "a1"},
		{2, "production", "a2", "rejected", 1, "a1"},
		{3, "staging", "s3", DeployApproved, 2, "a1"},
		{4, "production", "a4", DeployApproved, 3, "a4"},
		{5, "production", "a5", DeployPending, 4, "a4"},
	}
	for _, s := range steps {
		d := Deploy{Repo: "acme/app", RunID: s.run, Environment: s.env, Installation: 9, SHA: s.sha, Requested: t0.Add(time.Duration(s.min) * time.Minute)}
		if _, err := db.RecordDeploy(ctx, d); err != nil {
			t.Fatal(err)
		}
		if s.state != DeployPending {
			if _, err := db.AnswerDeploy(ctx, d, s.state, "why", t0); err != nil {
				t.Fatal(err)
			}
		}
		got, ok, err := db.LastApprovedDeploy(ctx, "acme/app", "production")
		if err != nil || !ok || got.SHA != s.wantLastSHA {
			t.Errorf("after run %d: %q, %v, %v; want %q", s.run, got.SHA, ok, err, s.wantLastSHA)
		}
	}
}
