package apidoc

import (
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/ap2"
	"github.com/entrycheck/entrycheck/internal/api/oauth"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/api/rest"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// component is a schema of components/schemas: the Go type a body is
// written from, and what its type cannot say. The properties, their
// types, which are required and their descriptions (the fields'
// jsonschema tags) are inferred from the type; a field whose type is
// another component refers to it.
type component struct {
	Name string
	Type reflect.Type
	// With are types whose fields the body carries beside Type's (a paid
	// answer's receipt; the words CheckResult.MarshalJSON adds).
	With        []reflect.Type
	Description string
	// Schema replaces the inferred schema of a type that writes itself
	// (MarshalJSON) or reads more than one shape (UnmarshalJSON).
	Schema func() *jsonschema.Schema
}

func typ[T any]() reflect.Type { return reflect.TypeFor[T]() }

// components are the schemas of the document, in its order.
var components = []component{
	{Name: "Requirement", Type: typ[entrycheck.Requirement](), Schema: requirementSchema,
		Description: "The kind of permission needed. visa_free (with allowed_stay_days), visa_on_arrival, eta, e_visa, visa_required and no_admission come from the secondary matrix; unknown means no data for the route; needs_review means a curated official source conflicts with the matrix. unknown and needs_review always carry action check_official_authority and never a guessed verdict."},
	{Name: "Action", Type: typ[entrycheck.Action](), Schema: actionSchema,
		Description: "What the traveller has to do: none (visa_free), apply_before_travel (eta, e_visa, visa_required), obtain_on_arrival (visa_on_arrival), entry_not_permitted (no_admission), check_official_authority (unknown, needs_review)."},
	{Name: "Days", Type: typ[entrycheck.Days](), Schema: daysSchema,
		Description: "A number of days, or null when not known."},
	{Name: "Date", Type: typ[entrycheck.Date](), Schema: dateSchema,
		Description: "A calendar day (UTC)."},
	{Name: "Country", Type: typ[entrycheck.Country](),
		Description: "A country or territory."},
	{Name: "Citation", Type: typ[entrycheck.Citation](),
		Description: "The source of one fact."},
	{Name: "PassportValidity", Type: typ[entrycheck.PassportValidity]()},
	{Name: "BlankPages", Type: typ[entrycheck.BlankPages]()},
	{Name: "OnwardTicket", Type: typ[entrycheck.OnwardTicket]()},
	{Name: "HealthRule", Type: typ[entrycheck.HealthRule]()},
	{Name: "TWOVProgram", Type: typ[entrycheck.TWOVProgram](),
		Description: "A transit-without-visa programme; applies_to names who may use it."},
	{Name: "Exemption", Type: typ[entrycheck.Exemption](),
		Description: "An easier requirement for holders of another country's visa or residence permit."},
	{Name: "YellowFever", Type: typ[entrycheck.YellowFever]()},
	{Name: "YellowFeverRule", Type: typ[entrycheck.YellowFeverRule](),
		Description: "The destination's yellow-fever certificate rule as it applies to this traveller. Null when the yellow-fever table does not cover the destination."},
	{Name: "EntryRules", Type: typ[entrycheck.EntryRules](),
		Description: "Destination-level entry rules (spec 2.2); each non-null rule carries its own citation."},
	{Name: "RuleLine", Type: typ[entrycheck.RuleLine](),
		Description: "One thing an entry rule says, as people read it."},
	{Name: "RulesNotCited", Type: typ[entrycheck.RulesNotCited](),
		Description: "The entry-rule fields no official source covers yet, in words."},
	{Name: "Apply", Type: typ[entrycheck.Apply](),
		Description: "Where to obtain the required document; present only when the requirement needs action and a portal is curated."},
	{Name: "AppliedExemption", Type: typ[entrycheck.AppliedExemption](),
		Description: "A curated exemption applied because of a held visa or residence permit."},
	{Name: "TransitProgram", Type: typ[entrycheck.TransitProgram]()},
	{Name: "Transit", Type: typ[entrycheck.Transit](),
		Description: "Advisory lookup for the transit country: the passport's requirement there and its transit-without-visa programmes."},
	{Name: "Default", Type: typ[entrycheck.Default](),
		Description: "A default applied because the request left it open."},
	{Name: "CheckedStatement", Type: typ[entrycheck.CheckedStatement](),
		Description: "A curated official statement about this route, compared with the matrix."},
	{Name: "VerdictVerification", Type: typ[entrycheck.VerdictVerification]()},
	{Name: "VerdictAge", Type: typ[entrycheck.VerdictAge](),
		Description: "The date the verdicts are as of and how old that is."},
	{Name: "EntryRulesVerification", Type: typ[entrycheck.EntryRulesVerification]()},
	{Name: "Source", Type: typ[entrycheck.Source](),
		Description: "Provenance of the verdict."},
	{Name: "CheckResult", Type: typ[entrycheck.CheckResult](), With: []reflect.Type{typ[entrycheck.CheckResultWords]()},
		Description: "The answer for one passport and destination (spec 2.1). Passport equal to destination answers visa_free with null days and action none: a citizen entering their own country."},
	{Name: "PaymentReceipt", Type: typ[x402.SettlementResponse](),
		Description: "x402 SettlementResponse, echoed from the PAYMENT-RESPONSE header."},
	{Name: "PaidCheckResult", Type: typ[entrycheck.CheckResult](), With: []reflect.Type{typ[entrycheck.CheckResultWords](), typ[payment.PaidFields]()},
		Description: "The check result with the payment receipt under payment."},
	{Name: "MatrixEntry", Type: typ[entrycheck.MatrixEntry](),
		Description: "One destination of a passport matrix: a projection of the check result for that route."},
	{Name: "PassportMatrix", Type: typ[entrycheck.PassportMatrix](), With: []reflect.Type{typ[payment.PaidFields]()},
		Description: "The requirement of one passport for every other country of the matrix (spec 2.3); empty for a valid code outside the matrix."},
	{Name: "Problem", Type: typ[entrycheck.Problem]()},
	{Name: "Error", Type: typ[response.ErrorBody]()},
	{Name: "RateLimited", Type: typ[quota.RateLimited]()},
	{Name: "PaymentRequirements", Type: typ[x402.PaymentRequirements]()},
	{Name: "PaymentRequired", Type: typ[payment.Required](),
		Description: "x402 version 2 PaymentRequired, also base64-encoded in the PAYMENT-REQUIRED header."},
	{Name: "OAuthError", Type: typ[response.OAuthError]()},
	{Name: "RegistrationRequest", Type: typ[oauth.RegistrationRequest](),
		Description: "RFC 7591 client metadata; other members are ignored."},
	{Name: "RegistrationResponse", Type: typ[oauth.Registration]()},
	{Name: "TokenResponse", Type: typ[oauth.TokenResponse]()},
	{Name: "Stats", Type: typ[rest.Stats](),
		Description: "Live counters."},
	{Name: "Health", Type: typ[rest.Health]()},
	{Name: "ProtectedResourceMetadata", Type: typ[discovery.ResourceMetadata](),
		Description: "Protected resource metadata (RFC 9728): the bearer tokens of /oauth/token are accepted on the free check and the MCP server, whose URLs start with resource. Members may be added: ignore those you do not know."},
	{Name: "AuthorizationServerMetadata", Type: typ[discovery.OAuthServerMetadata](),
		Description: "Authorization server metadata (RFC 8414): clients register themselves at registration_endpoint and get tokens at token_endpoint with the client credentials grant; there is no authorization endpoint. Members may be added: ignore those you do not know."},
	{Name: "PassportHeld", Type: typ[entrycheck.PassportHeld](), Schema: passportHeldSchema,
		Description: "A passport: the issuing country's code, or an object with the code and the expiry date (needed to check the destinations' passport-validity rules)."},
	{Name: "TripLeg", Type: typ[entrycheck.Leg]()},
	{Name: "TripRequest", Type: typ[entrycheck.TripRequest](),
		Description: "An itinerary. Bounds: at most 5 passports and 20 legs, body at most 64 KiB. Dated legs must be in chronological order. Every problem is reported at once with its JSON pointer in problems[].field."},
	{Name: "TripStatus", Type: typ[entrycheck.TripStatus](), Schema: tripStatusSchema,
		Description: "ready: entry possible as planned and every condition could be checked; check_needed: nothing known stands in the way, but some conditions could not be checked or the destination's entry rules are not curated (summary.attention lists what to check); action_needed: possible after the traveller acts (a visa, a renewed passport, a certificate, other dates); not_possible: no passport held is admitted; unknown: no reliable verdict (unknown or needs_review). A trip takes its most serious leg status in the order not_possible, unknown, action_needed, check_needed, ready; the counts show every status."},
	{Name: "TripPassport", Type: typ[entrycheck.TripPassport]()},
	{Name: "Condition", Type: typ[entrycheck.Condition](),
		Description: "One entry condition of a leg, assessed against the plan."},
	{Name: "PassportOption", Type: typ[entrycheck.PassportOption](),
		Description: "One passport's answer for a leg. Ranking, each step breaking the ties of the one before: a passport failing the leg's validity rule comes last; the easier requirement (visa_free, visa_on_arrival, eta, e_visa, visa_required, no_admission, then unknown and needs_review); the destination's own passport; the longer visa-free stay, no stated limit first; validity confirmed before unchecked; the order of traveler.passports."},
	{Name: "LegDecision", Type: typ[entrycheck.LegDecision]()},
	{Name: "SchengenLeg", Type: typ[entrycheck.SchengenLeg]()},
	{Name: "SchengenStay", Type: typ[entrycheck.SchengenStay](),
		Description: "The 90-days-in-any-180-days account across Schengen legs; null when no leg is in a Schengen state."},
	{Name: "TripDefault", Type: typ[entrycheck.TripDefault]()},
	{Name: "TripResult", Type: typ[entrycheck.TripResult](), With: []reflect.Type{typ[payment.PaidFields]()},
		Description: "One decision per leg and a trip summary (spec 2.4)."},
	{Name: "AppliesTo", Type: typ[entrycheck.AppliesTo](),
		Description: "Whom a curated fact holds for (applies_to) or whom its source speaks to (documented_for): it matches when an inclusion key matches (or there is none) and no exclusion key does. Groups are those of groups.json (SCHENGEN, EU, EU_EEA_CH); requirements match the route's verdict."},
	{Name: "ArrivalFormality", Type: typ[entrycheck.ArrivalFormality](),
		Description: "A step besides the visa verdict: arrival card, travel authorisation, registration or customs declaration."},
	{Name: "AP2Offer", Type: typ[payment.AP2Required](),
		Description: "AP2 (Agent Payments Protocol v0.2) merchant role: the merchant-signed Checkout JWT of this offer and what the closed Checkout and Payment Mandates must say, sent in AP2-Checkout-Mandate and AP2-Payment-Mandate beside PAYMENT-SIGNATURE. When mandates were refused, check names the failed check (e.g. checkout_hash, amount, payee, instrument, key_binding_expired, untrusted_signer, allowed_merchants, mandate_replayed) and checkout_receipt is the signed error Checkout Receipt; nothing was charged."},
	{Name: "AP2Party", Type: typ[ap2.Party](),
		Description: "AP2 merchant: the merchant id is the base URL; the payee id is the CAIP-10 account <network>:<payTo> of the x402 payment."},
	{Name: "AP2Receipts", Type: typ[payment.AP2Receipts](),
		Description: "AP2 receipts of accepted mandates, also in the AP2-Checkout-Receipt and AP2-Payment-Receipt headers: ES256 JWTs, signed with the key of /.well-known/ap2/jwks.json, whose payloads are the Checkout Receipt and Payment Receipt of AP2 v0.2 (reference: the hash of the closed mandate)."},
	{Name: "AP2JWKS", Type: typ[ap2.JWKS](),
		Description: "A JSON Web Key Set (RFC 7517) of EC P-256 keys for ES256."},
}
