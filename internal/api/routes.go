package api

import (
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/entrycheck/entrycheck/internal/api/a2aserver"
	"github.com/entrycheck/entrycheck/internal/api/find"
	"github.com/entrycheck/entrycheck/internal/api/mcpserver"
	"github.com/entrycheck/entrycheck/internal/api/oauth"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/api/rest"
	"github.com/entrycheck/entrycheck/internal/api/static"
	"github.com/entrycheck/entrycheck/internal/compression"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// protocols are the handlers the routes dispatch to.
type protocols struct {
	rest      *rest.Endpoints
	oauth     *oauth.Endpoints
	cashier   *payment.Cashier
	mcp       *mcpserver.Endpoint
	a2a       *a2aserver.Endpoint
	find      *find.Finder
	tree      *static.Tree
	documents []static.Document
	openapi   http.Handler
	metrics   http.Handler
}

func (s *Server) routes(p protocols) http.Handler {
	r := chi.NewRouter()
	s.router = r
	r.Use(s.requestID, s.recoverer, s.accessLog, securityHeaders, newInFlight(s.cfg.MaxInFlightPerAddr, s.cfg.TrustedProxies, s.log).limit)
	r.NotFound(s.notFound)
	r.MethodNotAllowed(s.methodNotAllowed)

	handlers, answers := p.handlers(), p.rest.PaidAnswers()
	// One compressor for the routes' answers, whose encoders it reuses.
	compressor := new(compression.Compressor)
	for _, rt := range discovery.Routes {
		h, ok := handlers[rt.Method+" "+rt.Path]
		if answer, paid := answers[rt.Path]; paid && rt.Tier == discovery.TierPaid {
			// Pages of any site may pay: the payment headers are allowed
			// in and the offer and receipts exposed (payment.CORS...).
			h, ok = anyOrigin(payment.CORSExposeHeaders, p.cashier.Paid(rt.Path, answer)), true
			preflight(r, rt.Path, rt.Method+", OPTIONS", payment.CORSAllowHeaders, payment.CORSExposeHeaders)
		}
		if !ok {
			panic("api: no handler for " + rt.Method + " " + rt.Path) // a route without a handler is a programming error
		}
		h = compressJSON(compressor, h)
		switch rt.Method {
		case http.MethodGet:
			getAndHead(r, rt.Path, h)
		case http.MethodPost:
			r.Post(rt.Path, boundBody(rt.MaxBody, bodyRefusalOf(rt.Path), h).ServeHTTP)
		default:
			panic("api: routes are GET or POST, not " + rt.Method)
		}
	}
	preflight(r, discovery.PathFreeCheck, "GET, OPTIONS", response.CORSAllowHeaders, response.CORSExposeHeaders)

	// The MCP endpoint answers every method itself: POST, the CORS
	// preflight, and 405 for the others, as a stateless streamable HTTP
	// server does.
	r.Handle(discovery.PathMCP, boundBody(discovery.MaxBody(discovery.PathMCP), refuseBody, p.mcp.Handler()))
	// So does the A2A endpoint (JSON-RPC over POST).
	r.Handle(discovery.PathA2A, boundBody(discovery.MaxBody(discovery.PathA2A), refuseBody, p.a2a.Handler()))
	for _, d := range p.documents {
		getAndHead(r, d.Path, d.Handler.ServeHTTP)
		preflight(r, d.Path, "GET, OPTIONS", documentAllowHeaders, response.CORSExposeHeaders)
	}
	getAndHead(r, discovery.PathAP2JWKS, p.cashier.JWKS)
	preflight(r, discovery.PathAP2JWKS, "GET, OPTIONS", documentAllowHeaders, response.CORSExposeHeaders)
	getAndHead(r, find.PathGo, p.find.Go)
	getAndHead(r, "/*", p.tree.ServeHTTP)
	return r
}

// handlers are the handlers of the free routes of discovery.Routes by
// "METHOD path"; the paid ones are their answers (rest.Endpoints.PaidAnswers)
// wrapped by payment.Cashier.Paid.
func (p protocols) handlers() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"GET " + discovery.PathFreeCheck: anyOrigin(response.CORSExposeHeaders, p.rest.FreeCheck),
		"POST " + discovery.PathRegister: p.oauth.Register,
		"POST " + discovery.PathToken:    p.oauth.Token,
		"GET " + discovery.PathOpenAPI:   p.openapi.ServeHTTP,
		"GET " + discovery.PathStats:     p.rest.Stats,
		"GET " + discovery.PathHealth:    p.rest.Health,
		"GET " + discovery.PathMetrics:   p.metrics.ServeHTTP,
	}
}

// bodyRefusalOf is how the POST route at path refuses a body before its
// handler reads it: in RFC 6749's shape on the OAuth endpoints.
func bodyRefusalOf(path string) bodyRefusal {
	if discovery.OAuthEndpoint(path) {
		return oauth.RefuseBody
	}
	return refuseBody
}

// getAndHead routes GET and HEAD of pattern to h. Every resource that
// answers GET answers HEAD with the same status and headers (RFC 9110
// section 9.3.2), and net/http drops the body a handler writes for HEAD.
// The handlers whose GET counts or charges check the method: a HEAD uses
// no free check (rest.Endpoints.FreeCheck) and settles no payment
// (payment.Cashier.Paid).
func getAndHead(r chi.Router, pattern string, h http.HandlerFunc) {
	r.Get(pattern, h)
	r.Head(pattern, h)
}

// documentAllowHeaders are the request headers a page may send for a
// discovery document: browser-based MCP clients send their protocol
// version when they fetch the OAuth metadata, which makes the request one
// a browser preflights.
const documentAllowHeaders = response.CORSAllowHeaders + ", Mcp-Protocol-Version"

// anyOrigin lets pages of any site read the answers of h and the headers in expose.
func anyOrigin(expose string, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		response.AllowAnyOrigin(w.Header(), expose)
		h(w, r)
	}
}

// preflight answers the CORS preflight of pattern: pages of any site may
// send methods with the request headers in allow, and read those in expose.
func preflight(r chi.Router, pattern, methods, allow, expose string) {
	r.Options(pattern, anyOrigin(expose, func(w http.ResponseWriter, _ *http.Request) {
		response.Preflight(w, methods, allow)
	}))
}

// notFound answers a path no route serves; a path served for other
// methods only (GET on POST /oauth/token, which the site's catch-all
// route receives) gets the 405 instead.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if allow := s.allowed(r.URL.Path); len(allow) > 0 && !slices.Contains(allow, r.Method) {
		s.methodNotAllowed(w, r)
		return
	}
	response.Fail(w, r, http.StatusNotFound, response.CodeNotFound, "no such resource: see /openapi.json for the endpoints")
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	allow := s.allowed(r.URL.Path)
	w.Header().Set("Allow", strings.Join(allow, ", "))
	response.Fail(w, r, http.StatusMethodNotAllowed, response.CodeMethodNotAllowed, r.Method+" is not allowed here: use "+strings.Join(allow, " or ")+" (see /openapi.json for the methods of each endpoint)")
}

// allowed lists the methods the routes serve at path. The site's
// catch-all counts only where no other route serves the path: it answers
// any path, but GET /oauth/token is not a page.
func (s *Server) allowed(path string) []string {
	var routes, site []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions} {
		rctx := chi.NewRouteContext()
		switch {
		case !s.router.Match(rctx, m, path):
		case rctx.RoutePattern() == "/*":
			site = append(site, m)
		default:
			routes = append(routes, m)
		}
	}
	if len(routes) == 0 {
		return site
	}
	return routes
}
