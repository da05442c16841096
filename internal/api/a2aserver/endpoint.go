// Package a2aserver is the A2A endpoint at /a2a (protocol 0.3.0, JSON-RPC
// transport, on the a2a-go SDK): the skills of discovery.A2ASkills, each
// answering with the JSON of its REST route as a data artifact, counted
// against the same free quotas (check) and paid at the same prices through
// the same cashier (payment), with x402 carried as its A2A transport
// specifies.
//
// It depends on the A2A SDK, the domain, the evaluation core and the
// check, quota, payment, request and response packages; only the API
// assembly imports it.
package a2aserver

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// Tasks live in memory for taskLifetime, long enough to pay for an offer
// (whose authorization is valid for two minutes), and at most maxTasks of
// them, so that no client can grow the store without bound.
const (
	taskLifetime = time.Hour
	maxTasks     = 10000
)

// Endpoint is the A2A endpoint.
type Endpoint struct {
	Checker *check.Checker
	Quotas  *quota.Ledger
	Cashier *payment.Cashier
	// Authenticate reads the caller's bearer token, answering the request
	// when it is refused (see oauth.Endpoints.Authenticate).
	Authenticate func(w http.ResponseWriter, r *http.Request) (quota.Principal, bool)
	// Evaluator is the evaluator answering now.
	Evaluator func() *evaluation.Evaluator
	// Stats is the answer of GET /stats.json (rest.Endpoints.StatsAnswer).
	Stats func(ctx context.Context) (any, error)
	Clock entrycheck.Clock
	Log   *slog.Logger
}

// caller is who sent the HTTP request that carries an A2A message: the
// request itself (for the client address) and the authenticated principal.
type caller struct {
	r *http.Request
	p quota.Principal
}

type callerKey struct{}

func callerFrom(ctx context.Context) (caller, bool) {
	c, ok := ctx.Value(callerKey{}).(caller)
	return c, ok
}

// Handler is the handler of /a2a. Like /free/check it authenticates the
// bearer token first (an invalid one is a 401 before anything is parsed);
// it activates the x402 and AP2 extensions the client asks for in
// X-A2A-Extensions and says so in the same header of the answer. AP2 needs
// no activation to be used: its mandates ride on the x402 payment, and
// activating it only confirms that the endpoint speaks it.
func (e *Endpoint) Handler() http.Handler {
	for _, sk := range discovery.A2ASkills {
		if _, ok := e.skills()[sk.ID]; !ok {
			panic("a2aserver: no answer for the skill " + sk.ID) // a skill the card lists must be served
		}
	}
	store := &taskStore{lifetime: taskLifetime, max: maxTasks, now: e.Clock.Now}
	rpc := a2asrv.NewJSONRPCHandler(a2asrv.NewHandler(&agent{e: e},
		a2asrv.WithTaskStore(store), a2asrv.WithLogger(e.Log.With("component", "a2a"))))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		response.AllowAnyOrigin(w.Header(), a2aExposeHeaders)
		switch r.Method {
		case http.MethodOptions:
			response.Preflight(w, "POST, OPTIONS", a2aAllowHeaders)
			return
		case http.MethodPost:
		default:
			w.Header().Set("Allow", "POST, OPTIONS")
			response.Fail(w, r, http.StatusMethodNotAllowed, response.CodeMethodNotAllowed, r.Method+" is not served on "+discovery.PathA2A+
				": send A2A JSON-RPC requests (message/send, tasks/get) with POST; the agent card is at "+discovery.PathAgentCard)
			return
		}
		p, ok := e.Authenticate(w, r)
		if !ok {
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, discovery.MaxBody(discovery.PathA2A))
		ctx, call := a2asrv.WithCallContext(r.Context(), a2asrv.NewRequestMeta(r.Header))
		var active []string
		for _, uri := range []string{x402.A2AExtensionURI, ap2.A2AExtensionURI} {
			if requested(r.Header, uri) {
				call.Extensions().Activate(&a2a.AgentExtension{URI: uri})
				active = append(active, uri)
			}
		}
		if len(active) > 0 {
			w.Header().Set(a2asrv.ExtensionsMetaKey, strings.Join(active, ", "))
		}
		w.Header().Set("Content-Type", "application/json")
		ctx = context.WithValue(ctx, callerKey{}, caller{r: r, p: p})
		rpc.ServeHTTP(w, r.WithContext(ctx))
	})
}

// requested says whether the X-A2A-Extensions headers name uri; the
// header is a comma-separated list and may be repeated.
func requested(h http.Header, uri string) bool {
	for _, v := range h.Values(a2asrv.ExtensionsMetaKey) {
		if slices.ContainsFunc(strings.Split(v, ","), func(s string) bool { return strings.TrimSpace(s) == uri }) {
			return true
		}
	}
	return false
}

// CORS of /a2a, for A2A clients that run in a browser on other sites. No
// cookies are used: a caller authenticates with its bearer token.
const (
	a2aAllowHeaders  = "Authorization, Content-Type, Accept, X-A2A-Extensions, X-Request-Id"
	a2aExposeHeaders = response.CORSExposeHeaders + ", WWW-Authenticate, X-A2A-Extensions"
)
