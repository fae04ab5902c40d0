package httpapi

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"kompact/service"
)

// gatewayMetrics are the gateway's Prometheus metrics (docs/gateway.md,
// "Metrics").
type gatewayMetrics struct {
	requests    *prometheus.CounterVec
	added       prometheus.Histogram
	compactions *prometheus.CounterVec
	precompute  *prometheus.CounterVec
	saved       prometheus.Counter
}

func newGatewayMetrics(reg *prometheus.Registry) *gatewayMetrics {
	m := &gatewayMetrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kompact_gateway_requests_total", Help: "Gateway requests by the status answered (the upstream's, or the gateway's own error's).",
		}, []string{"status"}),
		added: prometheus.NewHistogram(prometheus.HistogramOpts{
			Name: "kompact_gateway_added_seconds", Help: "Time the gateway spent on a request before forwarding it (storing, compacting when due).",
			Buckets: []float64{0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 2.5, 10, 60, 600},
		}),
		compactions: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kompact_gateway_compactions_total", Help: "Compactions due before a gateway turn, by how they ran (precomputed, synchronous) and status.",
		}, []string{"trigger", "status"}),
		precompute: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "kompact_gateway_precompute_total", Help: "Precomputes started, and due compactions that found one ready (hit) or not (miss).",
		}, []string{"result"}),
		saved: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "kompact_gateway_bytes_saved_total", Help: "Request bytes the gateway's substitution left out of forwarded requests.",
		}),
	}
	reg.MustRegister(m.requests, m.added, m.compactions, m.precompute, m.saved)
	return m
}

// turn counts what the gateway did with a request before forwarding it.
func (m *gatewayMetrics) turn(t *service.GatewayTurn, saved int, added time.Duration) {
	m.added.Observe(added.Seconds())
	if saved > 0 {
		m.saved.Add(float64(saved))
	}
	if t.Precompute {
		m.precompute.WithLabelValues("started").Inc()
	}
	if t.Compaction == nil {
		return
	}
	trigger, result := "synchronous", "miss"
	if t.Precomputed {
		trigger, result = "precomputed", "hit"
	}
	m.precompute.WithLabelValues(result).Inc()
	m.compactions.WithLabelValues(trigger, string(t.Compaction.Status)).Inc()
}

// forwarded counts a request answered with status (0: the gateway's own
// error, counted by writeGatewayError's status instead).
func (m *gatewayMetrics) forwarded(status int) {
	if status != 0 {
		m.requests.WithLabelValues(strconv.Itoa(status)).Inc()
	}
}
