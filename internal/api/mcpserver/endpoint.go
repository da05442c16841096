// Package mcpserver is the MCP server at /mcp: the three tools of the
// service over the streamable HTTP transport, answered by the same free
// check, quotas and payment cashier as the REST endpoints, with the same
// machine-readable bodies in their results.
//
// It depends on the MCP SDK, the domain, the evaluation core and the
// check, quota, payment, request and response packages; only the API
// assembly imports it.
package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// The transport runs stateless and answers in plain JSON: every POST is a
// whole exchange (no session to keep, no event stream), so any instance can
// answer any request, the caller's address and bearer token are read from
// the request that carries the call, and GET and DELETE are refused with
// 405 as the transport allows. Clients may speak the initialize handshake
// (protocol 2025-11-25 and earlier) or server/discover (2026-07-28).

// Tool names; the discovery documents list the same (see discovery.MCPServerCard).
const (
	toolCheck   = "check_entry_requirements"
	toolTrip    = "evaluate_trip"
	toolDataset = "get_dataset_info"
)

// metaPrefix namespaces the service's own keys in _meta, as in the server card.
const metaPrefix = "io.github.entrycheck/"

// caller is who sent the HTTP request that carries an MCP call: the
// request itself (for the client address) and the authenticated principal.
type caller struct {
	r *http.Request
	p quota.Principal
}

type callerKey struct{}

func callerFrom(ctx context.Context) caller {
	c, _ := ctx.Value(callerKey{}).(caller)
	return c
}

// Endpoint is the MCP server at /mcp.
type Endpoint struct {
	Checker *check.Checker
	Quotas  *quota.Ledger
	Cashier *payment.Cashier
	// Authenticate reads the caller's bearer token, answering the request
	// when it is refused (see oauth.Endpoints.Authenticate).
	Authenticate func(w http.ResponseWriter, r *http.Request) (quota.Principal, bool)
	// Evaluator is the evaluator answering now.
	Evaluator func() *evaluation.Evaluator
	// Site describes the deployment: its card, links and prices.
	Site func() discovery.Site
	// BaseURL is the configured public address, the one Host a loopback
	// listener accepts besides loopback names.
	BaseURL string
	// OpenAPI is the API's description, whose schemas the tools share.
	OpenAPI []byte
	Clock   entrycheck.Clock
	Log     *slog.Logger
}

// Handler is the handler of /mcp. It authenticates every request like
// /free/check (an invalid bearer token is a 401 with WWW-Authenticate before
// anything is parsed) and hands the caller to the tools in the context.
func (e *Endpoint) Handler() http.Handler {
	sdkLog := slog.New(minLevel{e.Log.Handler().WithAttrs([]slog.Attr{slog.String("component", "mcp")}), slog.LevelWarn})
	server := e.server(sdkLog)
	transport := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true,
		MaxRequestBodyBytes: discovery.MaxBody(discovery.PathMCP),
		Logger:              sdkLog,
		// The SDK refuses any non-loopback Host on a loopback listener,
		// which would refuse the public host behind a local reverse
		// proxy; allowedHost keeps the protection for every other host.
		DisableLocalhostProtection: true,
	})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		response.AllowAnyOrigin(w.Header(), mcpExposeHeaders)
		switch r.Method {
		case http.MethodOptions:
			response.Preflight(w, "POST, OPTIONS", mcpAllowHeaders)
			return
		case http.MethodPost:
		default:
			// A stateless server has no stream to GET and no session to DELETE.
			w.Header().Set("Allow", "POST, OPTIONS")
			response.Fail(w, r, http.StatusMethodNotAllowed, response.CodeMethodNotAllowed, r.Method+" is not served on "+discovery.PathMCP+": send JSON-RPC messages with POST (stateless streamable HTTP, JSON responses)")
			return
		}
		if !e.allowedHost(r) {
			response.Fail(w, r, http.StatusForbidden, response.CodeForbiddenHost, "the Host header "+r.Host+" is not this server's: connect to "+e.BaseURL+discovery.PathMCP)
			return
		}
		p, ok := e.Authenticate(w, r)
		if !ok {
			return
		}
		// The body is read here, within its bound, so that an oversized
		// request gets the service's JSON error rather than the SDK's text.
		limit := discovery.MaxBody(discovery.PathMCP)
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				response.Fail(w, r, http.StatusRequestEntityTooLarge, response.CodeTooLarge, fmt.Sprintf("an MCP request may carry at most %d bytes", limit))
				return
			}
			response.Fail(w, r, http.StatusBadRequest, response.CodeInvalidBody, "the request body could not be read: it was cut short or badly chunked; send the whole JSON-RPC message again")
			return
		}
		if !json.Valid(body) {
			writeRPCError(w, http.StatusBadRequest, nil, rpcParseError, "parse error: the body is not valid JSON; send one JSON-RPC 2.0 message")
			return
		}
		msg, method, isObject := rpcRequestOf(body)
		id := msg.ID
		if code, text := msg.problem(method); isObject && code != 0 {
			status := http.StatusOK
			if code == rpcInvalidRequest {
				status = http.StatusBadRequest
			}
			writeRPCError(w, status, id, code, text)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		ctx := context.WithValue(r.Context(), callerKey{}, caller{r: r, p: p})
		rw := &rpcErrors{ResponseWriter: w, id: id, method: method}
		transport.ServeHTTP(rw, r.WithContext(ctx))
		rw.finish()
	})
}

// CORS of /mcp, for MCP clients that run in a browser on other sites. No
// cookies are used: a caller authenticates with its bearer token, which a
// page can only send if it holds it.
const (
	mcpAllowHeaders  = "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, X-Request-Id"
	mcpExposeHeaders = payment.CORSExposeHeaders + ", WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version"
)
