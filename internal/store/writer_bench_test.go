package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// BenchmarkWriteTxBesideWorkers commits one small write transaction per op
// while eight goroutines keep the shared connection busy with write
// transactions of their own (as River's workers, producer and completer
// do), through the shared connection (InTx) and through the webhook
// writer's own (InWriteTx), and reports the p50 and p99 of the time each
// commit took.
func BenchmarkWriteTxBesideWorkers(b *testing.B) {
	for _, tc := range []struct {
		name string
		tx   func(db *DB) func(context.Context, func(Tx) error) error
	}{
		{"shared", func(db *DB) func(context.Context, func(Tx) error) error { return db.InTx }},
		{"own", func(db *DB) func(context.Context, func(Tx) error) error { return db.InWriteTx }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			db := openTemp(b)
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			for w := range 8 {
				wg.Go(func() {
					for i := 0; ctx.Err() == nil; i++ {
						db.InTx(ctx, func(tx Tx) error {
							_, err := admitOne(ctx, tx, fmt.Sprintf("w%d-%d", w, i))
							return err
						})
					}
				})
			}
			write := tc.tx(db)
			var took []time.Duration
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				err := write(ctx, func(tx Tx) error {
					_, err := admitOne(ctx, tx, fmt.Sprintf("e-%d", i))
					return err
				})
				if err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			cancel()
			wg.Wait()
			slices.Sort(took)
			b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(took[len(took)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
