// Package api is the dynamic half of the service, assembled from one
// package per protocol: a chi router with the REST endpoints (rest), the
// MCP server (mcpserver), the A2A endpoint (a2aserver), OAuth client
// registration and tokens (oauth), the paid tier (payment) and the site's
// search and not-found pages (find), in front of the generated static tree
// and the discovery documents (static). The REST, MCP and A2A checks are
// one free check (check) counted against one set of quotas (quota); every
// JSON answer and error is written by the response package, whose table
// maps each domain error code to its answer. It serves the OpenAPI
// description of package apidoc.
//
// This package holds what ties them together: the Server built from its
// Deps, the routes of discovery.Routes, the middleware (request id,
// recovery, access log, security headers, CORS, compression of the JSON
// answers), the bounds per client address (connections, requests in
// flight) and on request bodies, the metrics and the connection cap.
// It depends on the domain, the evaluation core, the store, the
// configuration, the discovery documents and the API description; only the
// command imports it.
package api

import (
	"log/slog"
	"net/http"
	"sync/atomic"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/api/a2aserver"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/find"
	"github.com/entrycheck/entrycheck/internal/api/mcpserver"
	"github.com/entrycheck/entrycheck/internal/api/oauth"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/rest"
	"github.com/entrycheck/entrycheck/internal/api/static"
	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// Server is the service: the protocol handlers behind one router.
type Server struct {
	// ev is swapped when the daily verification changes the records'
	// state (SetEvaluator); a request uses the one it read first.
	ev      atomic.Pointer[evaluation.Evaluator]
	cfg     config.Config
	log     *slog.Logger
	metrics *metrics
	handler http.Handler
	// router matches a path against the routes, for the methods a 405
	// lists in Allow.
	router *chi.Mux
}

// Deps are the parts a Server is built from.
type Deps struct {
	Evaluator *evaluation.Evaluator
	Store     *store.Store
	Config    config.Config
	Clock     entrycheck.Clock
	Logger    *slog.Logger
	// IPHashKey keys the hashes of client addresses (see config.Config.IPHashKey).
	IPHashKey []byte
	// Payments checks and settles payments; nil means the x402 challenge only.
	Payments payment.Gate
	// Registry receives the service's metrics; nil means a fresh one.
	Registry *prometheus.Registry
	// Merchant is the AP2 merchant role; nil means one built from Config
	// (payment.NewMerchant), or AP2 off when that fails.
	Merchant *ap2.Merchant
}

// NewServer builds the service; Handler serves it.
func NewServer(d Deps) *Server {
	s := &Server{cfg: d.Config, log: d.Logger}
	s.ev.Store(d.Evaluator)
	clock := d.Clock
	if clock == nil {
		clock = entrycheck.SystemClock{}
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	gate := d.Payments
	if gate == nil {
		gate = payment.ChallengeOnly{}
	}
	reg := d.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	s.metrics = newMetrics(reg)
	cfg := d.Config

	quotas := &quota.Ledger{
		Store: d.Store, Limits: cfg.Quotas, Trusted: cfg.TrustedProxies, Clock: clock,
		Hasher:     quota.NewHasher(d.IPHashKey, d.Store.DaySalt),
		FreeChecks: s.metrics.freeChecks, Rejections: s.metrics.quotaRejections,
	}
	checker := &check.Checker{Evaluator: s.evaluator, Clock: clock, Quotas: quotas}
	auth := &oauth.Endpoints{Store: d.Store, Quotas: quotas, BaseURL: cfg.BaseURL, Site: s.site, Clock: clock, Log: s.log}
	merchant := d.Merchant
	if merchant == nil {
		var err error
		if merchant, err = payment.NewMerchant(cfg, d.Store, clock, s.log); err != nil {
			s.log.Error("AP2 is off", "error", err)
		}
	}
	cashier := &payment.Cashier{
		Gate: gate, PayTo: cfg.PayTo, BaseURL: cfg.BaseURL, Prices: cfg.Prices, Clock: clock, Log: s.log,
		Counters: d.Store, PaidCalls: s.metrics.paidCalls, Merchant: merchant, Settlements: d.Store,
	}
	snap := d.Evaluator.Snapshot()
	finder := &find.Finder{
		Evaluator: s.evaluator, Dir: cfg.PublicDir, BaseURL: cfg.BaseURL, NotFound: s.notFound, Log: s.log,
		// The search form of the 404 and /go pages offers the registry's
		// countries, which no verification swap changes.
		Countries: templates.CountryOptions(snap.Matrix.Countries(), snap.Countries.Aliases),
	}
	// The documents depend on the configuration only, which does not
	// change while the server runs.
	openapi := apidoc.For(s.site())
	restEndpoints := &rest.Endpoints{
		Checker: checker, Quotas: quotas, Authenticate: auth.Authenticate, Evaluator: s.evaluator,
		Database: d.Store, Clock: clock, Log: s.log,
	}
	s.handler = s.routes(protocols{
		rest:    restEndpoints,
		oauth:   auth,
		cashier: cashier,
		mcp: &mcpserver.Endpoint{
			Checker: checker, Quotas: quotas, Cashier: cashier, Authenticate: auth.Authenticate,
			Evaluator: s.evaluator, Site: s.site, BaseURL: cfg.BaseURL, OpenAPI: openapi, Clock: clock, Log: s.log,
		},
		a2a: &a2aserver.Endpoint{
			Checker: checker, Quotas: quotas, Cashier: cashier, Authenticate: auth.Authenticate,
			Evaluator: s.evaluator, Stats: restEndpoints.StatsAnswer, Clock: clock, Log: s.log,
		},
		find:      finder,
		tree:      static.NewTree(cfg.PublicDir, s.notFound, finder.Missing),
		documents: static.Documents(s.site()),
		openapi:   static.OpenAPI(openapi),
		metrics:   metricsHandler(reg),
	})
	return s
}

// Handler is the HTTP handler of the service.
func (s *Server) Handler() http.Handler { return s.handler }

// SetEvaluator makes ev answer the requests from now on.
func (s *Server) SetEvaluator(ev *evaluation.Evaluator) { s.ev.Store(ev) }

func (s *Server) evaluator() *evaluation.Evaluator { return s.ev.Load() }

// site describes this deployment: the configured base URL, quotas and
// prices and the loaded dataset.
func (s *Server) site() discovery.Site { return apidoc.SiteOf(s.cfg, s.evaluator()) }
