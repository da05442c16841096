package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// The MCP server at /mcp: the three tools of the service over the
// streamable HTTP transport, answered by the same evaluation core, quotas
// and payment gate as the REST endpoints.
//
// The transport runs stateless and answers in plain JSON: every POST is a
// whole exchange (no session to keep, no event stream), so any instance can
// answer any request, the caller's address and bearer token are read from
// the request that carries the call, and GET and DELETE are refused with
// 405 as the transport allows. Clients may speak the initialize handshake
// (protocol 2025-11-25 and earlier) or server/discover (2026-07-28).

// maxMCPBody bounds a JSON-RPC request; the largest argument, a trip, is
// bounded the same way on POST /v1/trips/evaluate.
const maxMCPBody = 64 << 10

// Tool names; the discovery documents list the same (see discovery.MCPServerCard).
const (
	toolCheck   = "check_entry_requirements"
	toolTrip    = "evaluate_trip"
	toolDataset = "get_dataset_info"
)

// metaPrefix namespaces the service's own keys in _meta, as in the server card.
const metaPrefix = "io.github.entrycheck/"

// mcpCaller is who sent the HTTP request that carries an MCP call: the
// request itself (for the client address) and the authenticated principal.
type mcpCaller struct {
	r *http.Request
	p quota.Principal
}

func callerFrom(ctx context.Context) mcpCaller {
	c, _ := ctx.Value(mcpCallerKey).(mcpCaller)
	return c
}

// mcpEndpoint is the handler of /mcp. It authenticates every request like
// /free/check (an invalid bearer token is a 401 with WWW-Authenticate before
// anything is parsed) and hands the caller to the tools in the context.
func (s *Server) mcpEndpoint() http.Handler {
	sdkLog := slog.New(minLevel{s.log.Handler().WithAttrs([]slog.Attr{slog.String("component", "mcp")}), slog.LevelWarn})
	server := s.mcpServer(sdkLog)
	transport := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true,
		MaxRequestBodyBytes: maxMCPBody,
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
		if !s.allowedHost(r) {
			response.Fail(w, r, http.StatusForbidden, response.CodeForbiddenHost, "the Host header "+r.Host+" is not this server's: connect to "+s.cfg.BaseURL+discovery.PathMCP)
			return
		}
		p, ok := s.authenticate(w, r)
		if !ok {
			return
		}
		// The body is read here, within its bound, so that an oversized
		// request gets the service's JSON error rather than the SDK's text.
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxMCPBody))
		if err != nil {
			var tooLarge *http.MaxBytesError
			if errors.As(err, &tooLarge) {
				response.Fail(w, r, http.StatusRequestEntityTooLarge, response.CodeTooLarge, fmt.Sprintf("an MCP request may carry at most %d bytes", maxMCPBody))
				return
			}
			response.Fail(w, r, http.StatusBadRequest, response.CodeInvalidBody, "the request body could not be read: it was cut short or badly chunked; send the whole JSON-RPC message again")
			return
		}
		if !json.Valid(body) {
			writeRPCError(w, http.StatusBadRequest, nil, rpcParseError, "parse error: the body is not valid JSON; send one JSON-RPC 2.0 message")
			return
		}
		id, method, _ := rpcRequestOf(body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		ctx := context.WithValue(r.Context(), mcpCallerKey, mcpCaller{r: r, p: p})
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
	mcpExposeHeaders = response.CORSExposeHeaders + ", WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version, PAYMENT-REQUIRED, PAYMENT-RESPONSE"
)

// allowedHost protects against DNS rebinding: a request that reached a
// loopback listener must name a loopback host or the configured public host,
// never a host an attacker's page resolved to 127.0.0.1.
func (s *Server) allowedHost(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || !isLoopback(local.String()) {
		return true
	}
	if isLoopback(r.Host) {
		return true
	}
	base, err := url.Parse(s.cfg.BaseURL)
	return err == nil && strings.EqualFold(base.Hostname(), hostname(r.Host))
}

func isLoopback(hostport string) bool {
	host := hostname(hostport)
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// hostname is the host of a Host header or address, without port or brackets.
func hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// mcpServer builds the MCP server: its identity is the server card's, so
// that the card and the server never disagree.
func (s *Server) mcpServer(log *slog.Logger) *mcp.Server {
	card := discovery.MCPServerCard(s.site())
	server := mcp.NewServer(&mcp.Implementation{
		Name:        card.Name,
		Title:       card.Title,
		Version:     card.Version,
		Description: card.Description,
		WebsiteURL:  card.WebsiteURL,
	}, &mcp.ServerOptions{
		Instructions: s.mcpInstructions(),
		Logger:       log,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	sch := mcpSchemas()
	q := s.cfg.Quotas
	trip := s.price(discovery.PathTrips)
	tripAmount, err := x402.AtomicUSDC(trip.USD)
	if err != nil {
		panic("api: price of " + discovery.PathTrips + ": " + err.Error())
	}
	server.AddTool(&mcp.Tool{
		Name:  toolCheck,
		Title: "Check entry requirements",
		Description: "May a holder of one passport enter one destination, and under which requirement: visa_free " +
			"(allowed_stay_days; null means no stated limit), " + entrycheck.Names(entrycheck.MatrixRequirements()[1:]) + ", " +
			"or unknown (no data) and needs_review (official sources conflict), which carry action check_official_authority " +
			"and must never be presented as a verdict. The answer has the destination's entry rules (passport validity, " +
			"blank pages, onward ticket, yellow fever, other health rules, transit-without-visa programmes, " +
			"residence-permit exemptions), each with its source, the official application portal when one is curated, " +
			"every default applied (purpose tourism, ordinary passport, ...) and the dataset version. Countries are " +
			"named by ISO 3166-1 alpha-3 code (DEU), alpha-2 code (DE) or name (Germany), and answers name them by alpha-3 code; " +
			"other codes and misspellings are refused with suggestions (GER suggests DEU). " +
			fmt.Sprintf("Free tier, the same daily quota as GET /free/check: %d successful calls per IP address, or %d per "+
				"registered client when the MCP requests carry Authorization: Bearer <token> from /oauth/token; invalid calls "+
				"count nothing; quotas reset at midnight UTC, and a refusal names the cap, its limit and the reset time. ", q.Anonymous, q.Client) +
			"Advisory only: show the disclaimer and recommend checking with the official authority.",
		InputSchema:  sch.checkIn,
		OutputSchema: sch.checkOut,
		Annotations:  &mcp.ToolAnnotations{Title: "Check entry requirements", ReadOnlyHint: true, OpenWorldHint: ptr(false)},
		Meta:         mcp.Meta{metaPrefix + "tier": discovery.TierFreeCheck},
	}, s.mcpCheck)
	server.AddTool(&mcp.Tool{
		Name:  toolTrip,
		Title: "Evaluate a trip",
		Description: fmt.Sprintf("Evaluates a whole itinerary (up to %d passports and %d legs, the same JSON as POST /v1/trips/evaluate): "+
			"for every leg it checks each passport the traveller holds, picks the best and explains why (why[]), and "+
			"assesses passport validity against the dates, stay length, onward ticket, yellow fever given the earlier legs, "+
			"transit-without-visa programmes and the Schengen 90/180 rule across all Schengen legs; the summary takes the "+
			"most serious leg status (not_possible, unknown, action_needed, ready). Invalid input is refused with every "+
			"problem and its JSON pointer before any payment. ", entrycheck.MaxTripPassports, entrycheck.MaxTripLegs) +
			fmt.Sprintf("Paid: %s USD a call (%s atomic units of USDC on Base, %s) with x402 version %d, no account needed, never rate limited. ",
				trip.USD, tripAmount, x402.NetworkBase, x402.Version) +
			"A call without an accepted payment returns isError with the x402 PaymentRequired object in structuredContent " +
			"(and as JSON in content[0].text); pay by repeating the call with the signed PaymentPayload in " +
			`params._meta["x402/payment"]; the settlement receipt comes back in result._meta["x402/payment-response"]. ` +
			"Advisory only: show the disclaimer and recommend checking with the official authorities.",
		InputSchema:  sch.tripIn,
		OutputSchema: sch.tripOut,
		Annotations:  &mcp.ToolAnnotations{Title: "Evaluate a trip", DestructiveHint: ptr(false), OpenWorldHint: ptr(true)},
		Meta: mcp.Meta{
			metaPrefix + "tier":  discovery.TierPaid,
			metaPrefix + "price": map[string]any{"usd": trip.USD, "amount": tripAmount, "asset": x402.USDCBase, "network": x402.NetworkBase, "x402_version": x402.Version},
		},
	}, s.mcpTrip)
	server.AddTool(&mcp.Tool{
		Name:  toolDataset,
		Title: "Get dataset information",
		Description: "Describes the data behind every answer: dataset_version (the matrix snapshot date every answer carries), " +
			"the numbers of routes, passports and destinations, which destinations have curated entry rules, every requirement " +
			"value with its label and action, after how many days curated rules count as stale, the matrix's source and " +
			"licence, today's free and paid call counters, and links to the OpenAPI description, the transparency report and " +
			"the change feeds. Use it before citing an answer or to notice that the data changed. Free; counts against no quota.",
		InputSchema:  sch.datasetIn,
		OutputSchema: sch.datasetOut,
		Annotations:  &mcp.ToolAnnotations{Title: "Get dataset information", ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)},
		Meta:         mcp.Meta{metaPrefix + "tier": discovery.TierFree},
	}, s.mcpDataset)
	return server
}

func (s *Server) mcpInstructions() string {
	site := s.site()
	return fmt.Sprintf("entrycheck answers visa and entry-requirement questions by passport and destination (ISO 3166-1 codes or country names), "+
		"every fact cited and every data gap admitted as unknown or needs_review. Use %s for one passport and destination "+
		"(free: %d calls a day per IP address, %d per registered client with a bearer token, see %s), %s for whole itineraries "+
		"with dates or several passports (paid with x402), and %s for the dataset version and coverage. Every answer is "+
		"advisory, not a boarding decision: show its disclaimer and recommend checking with the official authority.",
		toolCheck, site.Quotas.Anonymous, site.Quotas.Client, site.URL(discovery.PathAuthGuide), toolTrip, toolDataset)
}
