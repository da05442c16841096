package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

type metrics struct {
	requests        *prometheus.CounterVec
	duration        *prometheus.HistogramVec
	freeChecks      prometheus.Counter
	paidCalls       prometheus.Counter
	quotaRejections *prometheus.CounterVec
}

func newMetrics(reg *prometheus.Registry) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "entrycheck_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "entrycheck_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, 1},
		}, []string{"route"}),
		freeChecks: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "entrycheck_free_checks_total", Help: "Free checks served.",
		}),
		paidCalls: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "entrycheck_paid_calls_total", Help: "Paid calls served after settlement.",
		}),
		quotaRejections: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "entrycheck_quota_rejections_total", Help: "Free checks and registrations refused with 429, by exhausted scope (a HEAD that finds the quota used up is none).",
		}, []string{"scope"}),
	}
	for _, c := range []prometheus.Collector{m.requests, m.duration, m.freeChecks, m.paidCalls, m.quotaRejections} {
		reg.MustRegister(c)
	}
	// Process and Go runtime metrics, registered once per registry.
	_ = reg.Register(collectors.NewGoCollector())
	_ = reg.Register(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

func (m *metrics) observe(route, method string, status int, d time.Duration) {
	m.requests.WithLabelValues(route, method, strconv.Itoa(status)).Inc()
	m.duration.WithLabelValues(route).Observe(d.Seconds())
}

func metricsHandler(reg *prometheus.Registry) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
}
