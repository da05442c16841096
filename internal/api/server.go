// Package api is the dynamic half of the service: a chi router with the
// quota-gated free check, the paid endpoints, the MCP server, OAuth client
// registration and tokens, live counters, health and metrics, in front of
// the generated static tree. Handlers are plain functions over one Server;
// every answer is computed by the evaluation core.
//
// It depends on the domain, the evaluation core, the store and the
// configuration; nothing below it imports it.
package api

import (
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/store"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// maxOAuthBody bounds registration and token requests; trip bodies are
// bounded by evaluation.MaxTripBodyBytes and MCP requests by maxMCPBody.
const maxOAuthBody = 4 << 10

// Server holds what the handlers share.
type Server struct {
	// ev is swapped when the daily verification changes the records'
	// state (SetEvaluator); a request uses the one it read first.
	ev       atomic.Pointer[evaluation.Evaluator]
	store    *store.Store
	cfg      config.Config
	clock    entrycheck.Clock
	log      *slog.Logger
	quotas   *quota.Ledger
	checker  *check.Checker
	payments PaymentGate
	metrics  *metrics
	static   http.Handler
	handler  http.Handler
	// router matches a path against the routes, for the methods a 405
	// lists in Allow.
	router *chi.Mux
	// countries are what the search form of the 404 and /go pages offers:
	// the registry's, which no verification swap changes.
	countries []templates.CountryOption
	// openapi is the API's formal description as this deployment serves
	// it (OpenAPIFor).
	openapi []byte
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
	Payments PaymentGate
	// Registry receives the service's metrics; nil means a fresh one.
	Registry *prometheus.Registry
}

// NewServer builds the service; Handler serves it.
func NewServer(d Deps) *Server {
	s := &Server{
		store: d.Store, cfg: d.Config, clock: d.Clock, log: d.Logger,
		payments: d.Payments,
	}
	s.ev.Store(d.Evaluator)
	if s.clock == nil {
		s.clock = entrycheck.SystemClock{}
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.payments == nil {
		s.payments = challengeOnly{cfg: d.Config}
	}
	reg := d.Registry
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	s.metrics = newMetrics(reg)
	s.quotas = &quota.Ledger{
		Store: d.Store, Limits: d.Config.Quotas, Trusted: d.Config.TrustedProxies, Clock: s.clock,
		Hasher:     quota.NewHasher(d.IPHashKey, d.Store.DaySalt),
		FreeChecks: s.metrics.freeChecks, Rejections: s.metrics.quotaRejections,
	}
	s.checker = &check.Checker{Evaluator: s.evaluator, Clock: s.clock, Quotas: s.quotas}
	s.static = s.staticFiles(d.Config.PublicDir)
	snap := d.Evaluator.Snapshot()
	s.countries = templates.CountryOptions(snap.Matrix.Countries(), snap.Countries.Aliases)
	// The document depends on the configuration only, which does not
	// change while the server runs.
	s.openapi = OpenAPIFor(s.site())
	s.handler = s.routes(reg)
	return s
}

// Handler is the HTTP handler of the service.
func (s *Server) Handler() http.Handler { return s.handler }

// SetEvaluator makes ev answer the requests from now on.
func (s *Server) SetEvaluator(ev *evaluation.Evaluator) { s.ev.Store(ev) }

func (s *Server) evaluator() *evaluation.Evaluator { return s.ev.Load() }

func (s *Server) routes(reg *prometheus.Registry) http.Handler {
	r := chi.NewRouter()
	s.router = r
	r.Use(s.requestID, s.recoverer, s.accessLog, securityHeaders)
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed)

	handlers, answers := s.apiHandlers(reg), s.paidAnswers()
	for _, rt := range discovery.Routes {
		h, ok := handlers[rt.Method+" "+rt.Path]
		if answer, paid := answers[rt.Path]; paid && rt.Tier == discovery.TierPaid {
			h, ok = s.paid(rt.Path, answer), true
		}
		if !ok {
			panic("api: no handler for " + rt.Method + " " + rt.Path) // a route without a handler is a programming error
		}
		switch rt.Method {
		case http.MethodGet:
			getAndHead(r, rt.Path, h)
		case http.MethodPost:
			r.Post(rt.Path, h)
		default:
			panic("api: routes are GET or POST, not " + rt.Method)
		}
	}
	r.With(corsPublic).Options(discovery.PathFreeCheck, preflight)

	// The MCP endpoint answers every method itself: POST, the CORS
	// preflight, and 405 for the others, as a stateless streamable HTTP
	// server does.
	r.Handle(discovery.PathMCP, s.mcpEndpoint())
	s.routeDocuments(r)
	getAndHead(r, pathGo, s.goRoute)
	getAndHead(r, "/*", s.static.ServeHTTP)
	return r
}

// apiHandlers are the handlers of the free routes of discovery.Routes by
// "METHOD path"; the paid ones are their answers (paidAnswers) wrapped by
// paid.
func (s *Server) apiHandlers(reg *prometheus.Registry) map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"GET " + discovery.PathFreeCheck: corsPublic(http.HandlerFunc(s.freeCheck)).ServeHTTP,
		"POST " + discovery.PathRegister: s.register,
		"POST " + discovery.PathToken:    s.token,
		"GET " + discovery.PathOpenAPI:   s.openAPI,
		"GET " + discovery.PathStats:     s.stats,
		"GET " + discovery.PathHealth:    s.health,
		"GET " + discovery.PathMetrics:   metricsHandler(reg).ServeHTTP,
	}
}

// paidAnswers are the answers of the paid routes by path, computed once
// the payment is authorized (see paid).
func (s *Server) paidAnswers() map[string]func(*http.Request) (any, error) {
	return map[string]func(*http.Request) (any, error){
		discovery.PathCheck:    s.paidCheck,
		discovery.PathPassport: s.paidPassport,
		discovery.PathTrips:    s.paidTrip,
	}
}

// getAndHead routes GET and HEAD of pattern to h. Every resource that
// answers GET answers HEAD with the same status and headers (RFC 9110
// section 9.3.2), and net/http drops the body a handler writes for HEAD.
// The handlers whose GET counts or charges check the method: a HEAD uses
// no free check (freeCheck) and settles no payment (paid).
func getAndHead(r chi.Router, pattern string, h http.HandlerFunc) {
	r.Get(pattern, h)
	r.Head(pattern, h)
}

// Server timeouts: long enough for a trip evaluation on a slow link, short
// enough that slow clients cannot hold connections. What idle keep-alive
// connections cost is bounded by the connection cap (connLimit), not by
// IdleTimeout, which stays above the upstream idle timeouts of the usual
// proxies and load balancers (60 s for nginx's upstream keepalive_timeout
// and AWS ALB): the proxy closes first, and never sends a request on a
// connection this server is closing.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 15 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 90 * time.Second
	MaxHeaderBytes    = 16 << 10
)

// HTTPServer wraps h in an http.Server with the service's timeouts and
// limits, keeping at most maxConns connections open (see connLimit).
func HTTPServer(addr string, h http.Handler, log *slog.Logger, maxConns int) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ConnState:         newConnLimit(maxConns, log).track,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
