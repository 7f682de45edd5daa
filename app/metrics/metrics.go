// Package metrics is the App's Prometheus series, on their own registry:
// webhook deliveries, jobs, GitHub calls and rate limit, check-run writes,
// the edge's group commits, coalesced evaluations and the queue's depth
// (docs/app.md, "Metrics").
package metrics

import (
	"log/slog"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/aepgate/aepgate/app/queue"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Set is the App's Prometheus series, on their own registry.
type Set struct {
	reg   *prometheus.Registry
	jobs  *prometheus.HistogramVec
	calls *prometheus.CounterVec
	// remaining is registered at GitHub's first answer that reports it,
	// so it is absent, not 0, until then.
	remaining     prometheus.Gauge
	remainingOnce sync.Once
	writes        *prometheus.CounterVec
	// coalesced counts the requests to judge a pull request again by what
	// became of them.
	coalesced *prometheus.CounterVec
	// edge is the webhook edge's series.
	edge edgeSeries
	// redelivery is the redelivery's series (redelivery.go).
	redelivery redelivery
	// budget are the GitHub API budget's series (WatchBudget).
	budget budgetSeries
}

// edgeSeries are the webhook edge's: deliveries by result, the bodies
// being read, the group commits.
type edgeSeries struct {
	deliveries *prometheus.CounterVec
	// inflight counts the webhook bodies being read, not yet verified.
	inflight prometheus.Gauge
	// batchSize and batchCommit are the edge's group commits.
	batchSize   prometheus.Histogram
	batchCommit *prometheus.HistogramVec
}

// New is a Set with every series registered (the rate-limit gauge at
// GitHub's first answer that reports it).
func New() *Set {
	m := &Set{
		reg:    prometheus.NewRegistry(),
		budget: newBudgetSeries(),
	}
	m.edge.deliveries = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "aepgate_webhook_deliveries_total", Help: "Webhook deliveries by event and result (accepted, duplicate, replayed, bad_signature, malformed, too_deep, wrong_event, too_large, too_slow, too_many, busy, unreadable, spool_error, store_error, method_not_allowed); event is \"unverified\" until the signature verifies.",
	}, []string{"event", "result"})
	m.edge.inflight = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "aepgate_webhook_unverified_bodies", Help: "Webhook bodies being received whose signature is not checked yet (slow senders show here).",
	})
	m.jobs = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "aepgate_job_duration_seconds", Help: "Job run time by kind and result (ok, retry, snoozed, returned; again: a rejudge job waiting for its requests to pause, or judging once more).",
		Buckets: prometheus.ExponentialBuckets(0.005, 2, 14),
	}, []string{"kind", "result"})
	m.calls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "aepgate_github_calls_total", Help: "GitHub API calls by method, route and HTTP status (0 = no answer).",
	}, []string{"method", "route", "status"})
	m.remaining = prometheus.NewGauge(prometheus.GaugeOpts{
		Name: "aepgate_github_rate_limit_remaining", Help: "The x-ratelimit-remaining GitHub reported last.",
	})
	m.writes = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "aepgate_check_runs_total", Help: "Check-run decisions by name and outcome (written, unchanged).",
	}, []string{"name", "outcome"})
	m.edge.batchSize = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "aepgate_webhook_batch_size", Help: "Verified deliveries committed together by the webhook edge's writer (group commit).",
		Buckets: prometheus.ExponentialBuckets(1, 2, 9),
	})
	m.edge.batchCommit = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "aepgate_webhook_batch_commit_seconds", Help: "Time to commit one batch of deliveries (their IDs and jobs, one transaction) and sync it to disk, by result (ok, error).",
		Buckets: prometheus.ExponentialBuckets(0.0005, 2, 14),
	}, []string{"result"})
	m.coalesced = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "aepgate_evaluations_coalesced_total", Help: "Requests to judge a pull request again, by outcome: merged (into an evaluation that waits), queued (a new evaluation).",
	}, []string{"outcome"})
	m.reg.MustRegister(m.coalesced, m.edge.deliveries, m.jobs, m.calls, m.writes, m.edge.inflight, m.edge.batchSize, m.edge.batchCommit,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Delivery counts one answered webhook request; the edge bounds event
// (webhook.Metrics).
func (m *Set) Delivery(event, result string) {
	m.edge.deliveries.WithLabelValues(event, result).Inc()
}

// Unverified moves the unverified-bodies gauge by d.
func (m *Set) Unverified(d float64) { m.edge.inflight.Add(d) }

// Batch observes one group commit of the edge (webhook.BatchConfig.Observe).
func (m *Set) Batch(size int, took time.Duration, err error) {
	result := "ok"
	if err != nil {
		result = "error"
	}
	m.edge.batchSize.Observe(float64(size))
	m.edge.batchCommit.WithLabelValues(result).Observe(took.Seconds())
}

// Coalesce counts one request to judge a pull request again.
func (m *Set) Coalesce(did queue.Inserted) {
	m.coalesced.WithLabelValues(did.String()).Inc()
}

// Job observes one job run by kind and result.
func (m *Set) Job(kind, result string, d time.Duration) {
	m.jobs.WithLabelValues(kind, result).Observe(d.Seconds())
}

// GitHubCall is the gh.Observer feeding the call counter and the
// remaining-requests gauge.
func (m *Set) GitHubCall(method, route string, status, remaining int, _ time.Duration) {
	m.calls.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
	if remaining >= 0 {
		m.remainingOnce.Do(func() { m.reg.MustRegister(m.remaining) })
		m.remaining.Set(float64(remaining))
	}
}

// WatchQueue adds the depth and oldest-job age of the default queue and
// of queues (queue.NewCollector) and, with y, the jobs that gave way to
// webhooks (queue.Yield).
func (m *Set) WatchQueue(db queue.Stater, y *queue.Yield, log *slog.Logger, queues ...string) {
	m.reg.MustRegister(queue.NewCollector(db, log, queues...))
	if y != nil {
		m.reg.MustRegister(y)
	}
}

// Handler serves the registry (/metrics).
func (m *Set) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{})
}

// Write counts one check-run decision by name and outcome (written,
// unchanged): the writer's Count.
func (m *Set) Write(name, outcome string) { m.writes.WithLabelValues(name, outcome).Inc() }
