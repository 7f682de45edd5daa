package app_test

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// TestShutdownReturnsInFlightJobs stops an App while a job waits on a slow
// GitHub: the job is cancelled after the grace period and handed back to the
// queue, and the next process runs it at once (not after the rescue delay).
func TestShutdownReturnsInFlightJobs(t *testing.T) {
	w := appkit.NewWorld(t)
	w.AddPR(10, "Work-unit: #1")
	w.SlowGraphQL(2 * time.Second)
	o := appkit.Options(t, w, "")
	o.ShutdownGrace = 200 * time.Millisecond
	o.RescueAfter = time.Hour

	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, ln) }()
	appkit.Deliver(t, "http://"+ln.Addr().String(), "pull_request", "sd-1", w.PREvent("opened", 10, "Work-unit: #1"))
	time.Sleep(300 * time.Millisecond) // the job is now waiting on GraphQL
	start := time.Now()
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	a.Close()
	t.Logf("shutdown took %v", time.Since(start))
	if d := time.Since(start); d < o.ShutdownGrace || d > 3*time.Second {
		t.Errorf("shutdown took %v with a 200ms grace (running jobs get the grace, then are returned)", d)
	}
	if w.Run(checks.NameWorkUnit, 10) != nil {
		t.Fatal("the slow job finished; the test needs it in flight")
	}

	w.SlowGraphQL(0)
	appkit.Start(t, o)
	restart := time.Now()
	appkit.WaitFor(t, 5*time.Second, "the returned job to run in the next process", func() bool { return w.Run(checks.NameWorkUnit, 10) != nil })
	t.Logf("rerun after %v", time.Since(restart))
}

// TestShutdownFinishesJobsWithinGrace: a job that can finish inside the
// grace period is finished, not cancelled.
func TestShutdownFinishesJobsWithinGrace(t *testing.T) {
	w := appkit.NewWorld(t)
	w.AddPR(10, "Work-unit: #1")
	w.SlowGraphQL(300 * time.Millisecond)
	o := appkit.Options(t, w, "")
	o.ShutdownGrace = 3 * time.Second
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, ln) }()
	appkit.Deliver(t, "http://"+ln.Addr().String(), "pull_request", "sd-2", w.PREvent("opened", 10, "Work-unit: #1"))
	time.Sleep(100 * time.Millisecond)
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if w.Run(checks.NameWorkUnit, 10) == nil {
		t.Fatal("the in-flight job was not finished during the grace period")
	}
}
