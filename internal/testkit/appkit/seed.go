package appkit

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// doneSeeds are, by fake GitHub URL, the closed units a world treats as
// done before its App starts: the App's store gets the closure of each as
// judged on a certified merged attempt (the world's history, which no
// webhook delivered). StartOn seeds them.
var doneSeeds sync.Map // string → []int

// SeedDone records that the world at url has units closed and certified.
func SeedDone(url string, units ...int) { doneSeeds.Store(url, units) }

// SeededUnits are the units seeded for the fake GitHub at url.
func SeededUnits(url string) []int {
	v, _ := doneSeeds.Load(url)
	units, _ := v.([]int)
	return units
}

// SeedUnits writes units of acme/app into a's store as closed and
// certified.
func SeedUnits(a *app.App, units []int) error {
	ctx, now := context.Background(), time.Now()
	for _, n := range units {
		f, _ := json.Marshal(closurerules.Facts{Number: n, StateReason: closurerules.ReasonCompleted, ClosedBy: closurerules.Actor{Login: "alice", Type: "User"}})
		at, _ := json.Marshal(closurerules.Attempt{PR: 1000 + n, MergeSHA: "seeded-merge", CertificateSHA256: "seeded-certificate", MergePassed: true, ReadbackPassed: true})
		if err := a.Store().SaveClosure(ctx, "acme/app", n, f, store.Entry{Kind: "closure", Subject: "seed"}, now); err != nil {
			return err
		}
		if err := a.Store().SaveUnitEvidence(ctx, "acme/app", n, 1000+n, at, now); err != nil {
			return err
		}
	}
	return nil
}
