package discovery

import (
	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
)

// Route is an endpoint of the API: how it is called, paid for and counted. The
// router registers the routes of this table, the paid ones are priced from
// it, and the documents list it; the API description (package apidoc)
// derives from each row the statuses, headers, price and quotas of its
// operation.
type Route struct {
	Method, Path string
	Tier         Tier
	// Price names the route's price in config.Prices (set by
	// ENTRYCHECK_PRICE_<NAME>) and USD is its default, in US dollars; paid
	// routes only.
	Price, USD string
	// Description says what a paid call buys, for the payment offer.
	Description string
	// Quota is the scope of the daily quotas the route's calls count
	// against (config.QuotaSettings); empty for none.
	Quota config.QuotaScope
	// MaxBody bounds the request body in bytes; 0 for a route that takes
	// none. The server refuses a larger declared body before reading it
	// and the handler reads no further, both from here (see MaxBody).
	MaxBody int64
	// Unlimited routes are not counted in a client address's requests in
	// flight (--max-in-flight-per-addr): the health check and the metrics
	// come from the load balancer and the scraper, one address each, and a
	// 429 there would take the instance out of rotation or blind its
	// monitoring because of someone else's load; both answer at once and
	// take no body. Every other route may answer 429 too_many_in_flight.
	Unlimited bool
}

// Request body bounds: OAuth requests are a few short fields; a JSON-RPC
// message on /mcp or /a2a carries at most one trip, bounded as on
// POST /v1/trips/evaluate.
const (
	maxOAuthBody = 4 << 10
	maxRPCBody   = entrycheck.MaxTripBodyBytes
)

// Routes are the endpoints of the API; the prices are those of spec
// section 4.
var Routes = []Route{
	{Method: "GET", Path: PathFreeCheck, Tier: TierFreeCheck, Quota: config.CountsChecks},
	{Method: "GET", Path: PathCheck, Tier: TierPaid, Price: "check", USD: "0.03", Description: "Entry requirements for one passport and destination"},
	{Method: "GET", Path: PathPassport, Tier: TierPaid, Price: "passport", USD: "0.15", Description: "Entry requirements of one passport for every destination"},
	{Method: "POST", Path: PathTrips, Tier: TierPaid, Price: "trips", USD: "0.10", Description: "Evaluation of a whole itinerary with several passports", MaxBody: entrycheck.MaxTripBodyBytes},
	{Method: "POST", Path: PathRegister, Tier: TierFree, Quota: config.CountsRegistrations, MaxBody: maxOAuthBody},
	{Method: "POST", Path: PathToken, Tier: TierFree, Quota: config.CountsTokens, MaxBody: maxOAuthBody},
	{Method: "GET", Path: PathOpenAPI, Tier: TierFree},
	{Method: "GET", Path: PathStats, Tier: TierFree},
	{Method: "GET", Path: PathHealth, Tier: TierFree, Unlimited: true},
	{Method: "GET", Path: PathMetrics, Tier: TierFree, Unlimited: true},
}

// Unlimited tells whether the requests to path are not counted in a client
// address's requests in flight (see Route.Unlimited).
func Unlimited(path string) bool {
	r, ok := route(path)
	return ok && r.Unlimited
}

// OAuthEndpoint tells whether path is an OAuth endpoint, whose errors take
// RFC 6749's and RFC 7591's shape (error, error_description) rather than
// the API's.
func OAuthEndpoint(path string) bool {
	return path == PathRegister || path == PathToken
}

// route returns the route of path.
func route(path string) (Route, bool) {
	for _, r := range Routes {
		if r.Path == path {
			return r, true
		}
	}
	return Route{}, false
}

// MaxBody is the request body bound of the endpoint at path: that of its
// route, or of the MCP and A2A endpoints, which are not in Routes because
// they answer every method themselves; 0 for one that takes no body.
func MaxBody(path string) int64 {
	switch path {
	case PathMCP, PathA2A:
		return maxRPCBody
	}
	r, _ := route(path)
	return r.MaxBody
}
