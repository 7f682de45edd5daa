package queue

import (
	"context"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/internal/store"
)

// Stater counts the queue's jobs (store.DB).
type Stater interface {
	QueueStats(ctx context.Context) ([]store.QueueStat, error)
}

// collector reports, on every scrape, each queue's unfinished jobs by
// state and how long its oldest ready job has waited: the series to alert
// on when the workers fall behind.
type collector struct {
	db     Stater
	log    *slog.Logger
	queues []string
	jobs   *prometheus.Desc
	oldest *prometheus.Desc
}

// queueStates are the states counted.
var queueStates = []string{"available", "pending", "retryable", "running", "scheduled"}

// NewCollector is the collector of the queues' depth and oldest-job age
// (aepgate_queue_jobs, aepgate_queue_oldest_job_age_seconds): the default
// queue's and those of queues, reported even when empty.
func NewCollector(db Stater, log *slog.Logger, queues ...string) prometheus.Collector {
	return &collector{db: db, log: log, queues: append([]string{river.QueueDefault}, queues...),
		jobs: prometheus.NewDesc("aepgate_queue_jobs", "Unfinished jobs by queue and state (available: ready to run; scheduled: waiting for their time; running; retryable: failed, to be retried; pending).",
			[]string{"queue", "state"}, nil),
		oldest: prometheus.NewDesc("aepgate_queue_oldest_job_age_seconds", "How long the oldest job ready to run in a queue has waited for a worker (0: none waits).",
			[]string{"queue"}, nil),
	}
}

// Describe sends the collector's two series.
func (c *collector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.jobs
	ch <- c.oldest
}

// Collect reads the counts; a database that does not answer within 2 s
// reports nothing this scrape (and logs why).
func (c *collector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	stats, err := c.db.QueueStats(ctx)
	if err != nil {
		c.log.Warn("metrics: queue stats", "err", err)
		return
	}
	jobs := map[[2]string]float64{}
	oldest := map[string]float64{}
	for _, q := range c.queues {
		oldest[q] = 0
		for _, s := range queueStates {
			jobs[[2]string{q, s}] = 0
		}
	}
	for _, s := range stats {
		jobs[[2]string{s.Queue, s.State}] = float64(s.Jobs)
		oldest[s.Queue] = max(oldest[s.Queue], s.OldestSeconds)
	}
	for k, v := range jobs {
		ch <- prometheus.MustNewConstMetric(c.jobs, prometheus.GaugeValue, v, k[0], k[1])
	}
	for q, v := range oldest {
		ch <- prometheus.MustNewConstMetric(c.oldest, prometheus.GaugeValue, v, q)
	}
}
