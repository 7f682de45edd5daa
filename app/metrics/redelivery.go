package metrics

import (
	"sync"

	"github.com/prometheus/client_golang/prometheus"
)

// redelivery is the series of the redelivery of missed deliveries
// (app/redeliver), registered at its first run.
type redelivery struct {
	once       sync.Once
	runs       *prometheus.CounterVec
	deliveries *prometheus.CounterVec
}

// Redelivery counts one run of the redelivery by result (ok, incomplete,
// limited, waiting, error) and the deliveries it found missing, asked
// GitHub for, saw refused and saw recovered.
func (m *Set) Redelivery(result string, missing, requested, refused, recovered int) {
	r := &m.redelivery
	r.once.Do(func() {
		r.runs = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aepgate_redelivery_runs_total", Help: "Runs of the redelivery of missed webhook deliveries by result (ok, incomplete: the page bound cut the log, limited: GitHub rate-limited the run, waiting: a rate limit's wait was not over, error).",
		}, []string{"result"})
		r.deliveries = prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "aepgate_redelivery_deliveries_total", Help: "Webhook deliveries of the redelivery by outcome: missing (failed and never recorded, counted in each run that finds them), requested (GitHub asked to redeliver), refused (GitHub refused to; not asked again), recovered (asked for and recorded since).",
		}, []string{"outcome"})
		m.reg.MustRegister(r.runs, r.deliveries)
		for _, o := range []string{"missing", "requested", "refused", "recovered"} {
			r.deliveries.WithLabelValues(o)
		}
	})
	r.runs.WithLabelValues(result).Inc()
	r.deliveries.WithLabelValues("missing").Add(float64(missing))
	r.deliveries.WithLabelValues("requested").Add(float64(requested))
	r.deliveries.WithLabelValues("refused").Add(float64(refused))
	r.deliveries.WithLabelValues("recovered").Add(float64(recovered))
}
