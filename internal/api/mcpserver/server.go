package mcpserver

import (
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// server builds the MCP server: its identity is the server card's, so
// that the card and the server never disagree.
func (e *Endpoint) server(log *slog.Logger) *mcp.Server {
	card := discovery.MCPServerCard(e.Site())
	server := mcp.NewServer(&mcp.Implementation{
		Name:        card.Name,
		Title:       card.Title,
		Version:     card.Version,
		Description: card.Description,
		WebsiteURL:  card.WebsiteURL,
	}, &mcp.ServerOptions{
		Instructions: e.instructions(),
		Logger:       log,
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	sch := computeSchemas(e.OpenAPI)
	server.AddTool(e.checkTool(sch), e.checkEntryRequirements)
	server.AddTool(e.tripTool(sch), e.evaluateTrip)
	server.AddTool(datasetTool(sch), e.getDatasetInfo)
	return server
}

// checkTool describes check_entry_requirements, with the configured quotas.
func (e *Endpoint) checkTool(sch toolSchemas) *mcp.Tool {
	q := e.Quotas.Limits
	return &mcp.Tool{
		Name:  toolCheck,
		Title: "Check entry requirements",
		Description: "May a holder of one passport enter one destination, and under which requirement: visa_free " +
			"(allowed_stay_days; null means no stated limit), " + entrycheck.Names(entrycheck.MatrixRequirements()[1:]) + ", " +
			"or unknown (no data) and needs_review (official sources conflict), which carry action check_official_authority " +
			"and must never be presented as a verdict. The answer has the destination's entry rules (" + entrycheck.RuleFieldWords() + "), " +
			"each with its source, the official application portal when one is curated, " +
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
	}
}

// tripTool describes evaluate_trip, with the configured price.
func (e *Endpoint) tripTool(sch toolSchemas) *mcp.Tool {
	trip := e.Cashier.Price(discovery.PathTrips)
	tripAmount, err := x402.AtomicUSDC(trip.USD)
	if err != nil {
		panic("mcpserver: price of " + discovery.PathTrips + ": " + err.Error())
	}
	return &mcp.Tool{
		Name:  toolTrip,
		Title: "Evaluate a trip",
		Description: fmt.Sprintf("Evaluates a whole itinerary (up to %d passports and %d legs, the same JSON as POST /v1/trips/evaluate): "+
			"for every leg it checks each passport the traveller holds, picks the best and explains why (why[]), and "+
			"assesses passport validity against the dates, stay length, onward ticket, yellow fever given the earlier legs, "+
			"transit-without-visa programmes and the Schengen 90/180 rule across all Schengen legs; the summary takes the "+
			"most serious leg status (not_possible, unknown, action_needed, ready). Invalid input is refused with every "+
			"problem and its JSON pointer before any payment. The optional language (a BCP 47 tag such as fr or pt-BR) "+
			"words the answer and its text content in that language; codes and field names never change, and a language "+
			"not spoken gives English, listed in defaults_applied. ", entrycheck.MaxTripPassports, entrycheck.MaxTripLegs) +
			fmt.Sprintf("Paid: %s USD a call (%s atomic units of USDC on Base, %s) with x402 version %d, no account needed, never rate limited. ",
				trip.USD, tripAmount, x402.NetworkBase, x402.Version) +
			"A call without an accepted payment returns isError with the x402 PaymentRequired object in structuredContent " +
			"(and as JSON in content[0].text); pay by repeating the call with the signed PaymentPayload in " +
			`params._meta["x402/payment"]; the settlement receipt comes back in result._meta["x402/payment-response"]. ` +
			e.ap2Words() +
			"Advisory only: show the disclaimer and recommend checking with the official authorities.",
		InputSchema:  sch.tripIn,
		OutputSchema: sch.tripOut,
		Annotations:  &mcp.ToolAnnotations{Title: "Evaluate a trip", DestructiveHint: ptr(false), OpenWorldHint: ptr(true)},
		Meta: mcp.Meta{
			metaPrefix + "tier":  discovery.TierPaid,
			metaPrefix + "price": map[string]any{"usd": trip.USD, "amount": tripAmount, "asset": x402.USDCBase, "network": x402.NetworkBase, "x402_version": x402.Version},
		},
	}
}

// ap2Words says how AP2 mandates ride on a paid call, when AP2 is on.
func (e *Endpoint) ap2Words() string {
	if e.Cashier.Merchant == nil {
		return ""
	}
	return fmt.Sprintf("Optionally with AP2 (merchant role): the payment-required result carries the Checkout JWT under \"ap2\"; "+
		"send the closed Checkout and Payment Mandates in params._meta[%q] and params._meta[%q] beside the payment, and the signed "+
		"receipts come back in result._meta[%q]; a refused mandate is named in result._meta[%q] and nothing is charged. ",
		ap2.MetaMCPCheckoutMandate, ap2.MetaMCPPaymentMandate, ap2.MetaMCPReceipts, ap2.MetaMCPError)
}

// datasetTool describes get_dataset_info.
func datasetTool(sch toolSchemas) *mcp.Tool {
	return &mcp.Tool{
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
	}
}

func (e *Endpoint) instructions() string {
	site := e.Site()
	return fmt.Sprintf("entrycheck answers visa and entry-requirement questions by passport and destination (ISO 3166-1 codes or country names), "+
		"every fact cited and every data gap admitted as unknown or needs_review. Use %s for one passport and destination "+
		"(free: %d calls a day per IP address, %d per registered client with a bearer token, see %s), %s for whole itineraries "+
		"with dates or several passports (paid with x402), and %s for the dataset version and coverage. Every answer is "+
		"advisory, not a boarding decision: show its disclaimer and recommend checking with the official authority.",
		toolCheck, site.Quotas.Anonymous, site.Quotas.Client, site.URL(discovery.PathAuthGuide), toolTrip, toolDataset)
}
