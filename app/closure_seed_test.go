package app

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closure"
)

// doneSeeds are, by fake GitHub URL, the closed units a world treats as
// done before its App starts: the App's store gets the closure of each as
// judged on a certified merged attempt (the world's history, which no
// webhook delivered). startAppOn seeds them.
var doneSeeds sync.Map // string → []int

// seedDone records that the world at url has units closed and certified.
func seedDone(url string, units ...int) { doneSeeds.Store(url, units) }

// seededUnits are the units seeded for the fake GitHub at url.
func seededUnits(url string) []int {
	v, _ := doneSeeds.Load(url)
	units, _ := v.([]int)
	return units
}

// seedClosures writes the seeds of o's fake GitHub into a's store.
func seedClosures(t testing.TB, a *App, o Options) {
	t.Helper()
	if err := seedUnits(a, seededUnits(o.GitHubURL)); err != nil {
		t.Fatal(err)
	}
}

// seedUnits writes units into a's store as closed and certified.
func seedUnits(a *App, units []int) error {
	ctx, now := context.Background(), time.Now()
	for _, n := range units {
		f, _ := json.Marshal(closure.Facts{Number: n, StateReason: closure.ReasonCompleted, ClosedBy: closure.Actor{Login: "alice", Type: "User"}})
		at, _ := json.Marshal(closure.Attempt{PR: 1000 + n, MergeSHA: "seeded-merge", CertificateSHA256: "seeded-certificate", MergePassed: true, ReadbackPassed: true})
		if err := a.db.SaveClosure(ctx, "acme/app", n, f, store.Entry{Kind: "closure", Subject: "seed"}, now); err != nil {
			return err
		}
		if err := a.db.SaveUnitEvidence(ctx, "acme/app", n, 1000+n, at, now); err != nil {
			return err
		}
	}
	return nil
}
