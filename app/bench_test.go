package app_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/fixtures"
)

// loadClient keeps connections alive like GitHub's delivery fleet would.
var loadClient = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256, MaxConnsPerHost: 256}, Timeout: 10 * time.Second}

// realisticBodies are realistic deliveries: GitHub's recorded
// pull_request payload (about 22 KB as re-encoded) retargeted at w's
// installation and pull requests 1000–1199.
func realisticBodies(b testing.TB, w *appkit.World) [][]byte {
	raw := fixtures.Payload(b, "pull_request", "opened")
	var bodies [][]byte
	for i := range 200 {
		var p map[string]any
		json.Unmarshal(raw, &p)
		p["action"] = "edited"
		p["installation"] = map[string]any{"id": w.Inst.ID}
		repo := p["repository"].(map[string]any)
		repo["name"], repo["full_name"], repo["owner"] = "app", "acme/app", map[string]any{"login": "acme"}
		pr := p["pull_request"].(map[string]any)
		pr["number"], pr["body"] = w.PRs[1000+i].Number(), "Work-unit: #1"
		pr["head"].(map[string]any)["sha"] = w.Heads[1000+i]
		body, _ := json.Marshal(p)
		bodies = append(bodies, body)
	}
	return bodies
}

// post1 sends one signed pull_request delivery and returns its latency.
func post1(base string, bodies [][]byte, i int, seq int64) (time.Duration, int, error) {
	body := bodies[i%len(bodies)]
	event := *benchEventFlag
	req, _ := http.NewRequest(http.MethodPost, base+"/webhook", bytes.NewReader(body))
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", fmt.Sprintf("b-%d", seq))
	req.Header.Set("X-Hub-Signature-256", appkit.Sign(appkit.Secret, body))
	start := time.Now()
	resp, err := loadClient.Do(req)
	d := time.Since(start)
	if err != nil {
		return d, 0, err
	}
	resp.Body.Close()
	return d, resp.StatusCode, nil
}

var benchSeq atomic.Int64

// benchEventFlag is the event the load benchmarks send: pull_request (queued
// and processed meanwhile) or, with -bench-event=ping, one that is only
// recorded.
var benchEventFlag = flag.String("bench-event", "pull_request", "event the load benchmarks send (pull_request or ping)")

func benchApp(b *testing.B) (string, [][]byte) {
	w := appkit.NewWorld(b)
	// A load test, not a rate-limit test: an hour's budget must not run out.
	w.F.SetRateLimit(1<<30, 1000, 5000)
	w.AddPRs(200)
	bodies := realisticBodies(b, w)
	b.Logf("payload %d bytes", len(bodies[0]))
	o := appkit.Options(b, w, "")
	// Production polling: the queue's own chatter is part of the load.
	o.PollInterval = queue.DefaultPollInterval
	_, base := appkit.Start(b, o)
	return base, bodies
}

// BenchmarkWebhookAck300 sends deliveries open-loop at 300 per second (each
// on its own goroutine, so a slow answer does not hide later ones) to a
// SQLite-backed App whose workers process them meanwhile, and reports the
// acknowledgement latency's p50 and p99.
func BenchmarkWebhookAck300(b *testing.B) {
	base, bodies := benchApp(b)
	const rate = 300
	lat := make([]time.Duration, b.N)
	var wg sync.WaitGroup
	var failed atomic.Int32
	tick := time.NewTicker(time.Second / rate)
	defer tick.Stop()
	b.ResetTimer()
	for i := range b.N {
		<-tick.C
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, status, err := post1(base, bodies, i, benchSeq.Add(1))
			if err != nil || status != http.StatusAccepted {
				failed.Add(1)
			}
			lat[i] = d
		}()
	}
	wg.Wait()
	b.StopTimer()
	if failed.Load() > 0 {
		b.Fatalf("%d deliveries not accepted", failed.Load())
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkWebhookThroughput sends deliveries as fast as 32 concurrent
// senders can and reports sustained deliveries per second.
func BenchmarkWebhookThroughput(b *testing.B) {
	base, bodies := benchApp(b)
	var next atomic.Int64
	var failed atomic.Int32
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(b.N) {
					return
				}
				if _, status, err := post1(base, bodies, int(i), benchSeq.Add(1)); err != nil || status != http.StatusAccepted {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if failed.Load() > 0 {
		b.Fatalf("%d deliveries not accepted", failed.Load())
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "deliveries/s")
}

// BenchmarkEvaluationAPICalls reports the GitHub reads and writes an
// evaluation costs. pulls: one pull request per delivery, the first
// judgement of a head (write) and a re-evaluation that changes nothing (no
// write). attempts=N: N open pull requests attempt one unit, and each
// delivery re-evaluates one of them; index: after a sweep listed them (the
// attempt index is complete, so the unit's attempts beyond the snapshot's
// window come in one bulk read), no-index: before any sweep (every mention
// of the unit is paged through, 50 a read). Run with -benchtime=200x.
func BenchmarkEvaluationAPICalls(b *testing.B) {
	b.Run("pulls", benchPullsAPICalls)
	for _, n := range []int{100, 200} {
		for _, sweep := range []bool{false, true} {
			name := fmt.Sprintf("attempts=%d/no-index", n)
			if sweep {
				name = fmt.Sprintf("attempts=%d/index", n)
			}
			b.Run(name, func(b *testing.B) { benchAttemptsAPICalls(b, n, sweep) })
		}
	}
}

func benchPullsAPICalls(b *testing.B) {
	w := appkit.NewWorld(b)
	w.F.SetRateLimit(1<<30, 1000, 5000)
	w.AddPRs(b.N)
	_, base := appkit.Start(b, appkit.Options(b, w, ""))
	b.ResetTimer()
	for i := range b.N {
		appkit.Deliver(b, base, "pull_request", fmt.Sprintf("e-%d", i), w.PREvent("opened", 1000+i, "Work-unit: #1"))
	}
	// Every head gets its aepgate/work-unit run (all but one refused by
	// the WIP limit: they all attempt unit #1).
	appkit.WaitFor(b, time.Minute, "all judged", func() bool { return allJudged(w, b.N) })
	time.Sleep(200 * time.Millisecond)
	reads, writes, _ := w.Counts()
	b.StopTimer()
	b.ReportMetric(float64(reads)/float64(b.N), "reads/eval")
	b.ReportMetric(float64(writes)/float64(b.N), "writes/eval")
	for i := range b.N {
		appkit.Deliver(b, base, "pull_request", fmt.Sprintf("e2-%d", i), w.PREvent("edited", 1000+i, "Work-unit: #1"))
	}
	time.Sleep(500 * time.Millisecond)
	appkit.WaitFor(b, time.Minute, "re-evaluations", func() bool {
		r, _, _ := w.Counts()
		return r >= reads+b.N
	})
	time.Sleep(200 * time.Millisecond)
	r2, w2, _ := w.Counts()
	b.ReportMetric(float64(r2-reads)/float64(b.N), "reads/re-eval")
	b.ReportMetric(float64(w2-writes)/float64(b.N), "writes/re-eval")
}

// benchAttemptsAPICalls: n pull requests attempt unit #1, all judged
// (through their opened deliveries, or a sweep that also lists them and
// so completes the attempt index), then b.N deliveries re-evaluate them in
// turn; it reports the re-evaluations' reads and writes each.
func benchAttemptsAPICalls(b *testing.B, n int, sweep bool) {
	w := appkit.NewWorld(b)
	w.F.SetRateLimit(1<<30, 1000, 5000)
	w.AddPRs(n)
	a, base := appkit.Start(b, appkit.Options(b, w, ""))
	if sweep {
		if err := a.Sweep(b.Context()); err != nil {
			b.Fatal(err)
		}
	} else {
		for i := range n {
			appkit.Deliver(b, base, "pull_request", fmt.Sprintf("o-%d", i), w.PREvent("opened", 1000+i, "Work-unit: #1"))
		}
	}
	appkit.WaitFor(b, 2*time.Minute, "all judged", func() bool { return allJudged(w, n) })
	quietCounts(w) // the judging settles before the log is reset
	w.F.ResetLog()
	b.ResetTimer()
	for i := range b.N {
		// Each body differs (the App drops a delivery whose body it has
		// seen); each names unit #1 alone.
		body := fmt.Sprintf("Work-unit: #1\n\nrevision %d", i)
		appkit.Deliver(b, base, "pull_request", fmt.Sprintf("e-%d", i), w.PREvent("edited", 1000+i%n, body))
	}
	appkit.WaitFor(b, 2*time.Minute, "re-evaluations", func() bool {
		r, _, _ := w.Counts()
		return r >= b.N
	})
	r2, w2 := quietCounts(w)
	b.StopTimer()
	b.Logf("%d attempts, %d deliveries: %v", n, b.N, w.F.Stats().ByRoute)
	b.ReportMetric(float64(r2)/float64(b.N), "reads/eval")
	b.ReportMetric(float64(w2)/float64(b.N), "writes/eval")
	b.ReportMetric(0, "ns/op")
}

// allJudged reports whether pull requests 1000 to 1000+n-1 all have their
// aepgate/work-unit run.
func allJudged(w *appkit.World, n int) bool {
	for i := range n {
		if w.Run(checks.NameWorkUnit, 1000+i) == nil {
			return false
		}
	}
	return true
}

// quietCounts waits until w's GitHub has seen no request for 300 ms, then
// returns its reads and writes.
func quietCounts(w *appkit.World) (int, int) {
	r, wr, _ := w.Counts()
	for {
		time.Sleep(300 * time.Millisecond)
		r2, w2, _ := w.Counts()
		if r2 == r && w2 == wr {
			return r, wr
		}
		r, wr = r2, w2
	}
}
