package apidoc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/oauth"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/x402"
)

// refinement says of one schema what its Go type cannot: the values a
// string takes, its format, bounds, examples. At is the schema's path:
// the component's name, then property names, [] for an array's items.
type refinement struct {
	At     string
	Refine func(*jsonschema.Schema)
}

const heldDocumentWords = "A country (ISO 3166-1 alpha-3 or alpha-2 code, or name) or SCHENGEN."

// refinements are what the schemas say beyond their Go types.
var refinements = []refinement{
	{"CheckedStatement.status", enum(entrycheck.PeriodStatuses...)},
	{"PassportValidity.status", enum(entrycheck.PeriodStatuses...)},
	{"BlankPages.status", enum(entrycheck.PeriodStatuses...)},
	{"OnwardTicket.status", enum(entrycheck.PeriodStatuses...)},
	{"HealthRule.status", enum(entrycheck.PeriodStatuses...)},
	{"TWOVProgram.status", enum(entrycheck.PeriodStatuses...)},
	{"Exemption.status", enum(entrycheck.PeriodStatuses...)},
	{"ArrivalFormality.status", enum(entrycheck.PeriodStatuses...)},
	{"TransitProgram.status", enum(entrycheck.PeriodStatuses...)},
	{"PassportValidity.issued_within_years", minimum(1)},
	{"PassportValidity.counted_from", enumOrNull(entrycheck.ValidityCountedFrom...)},
	{"PassportValidity.min_months_remaining", minimum(0)},
	{"BlankPages.pages", minimum(1)},
	{"OnwardTicket.required", enum(entrycheck.OnwardTicketValues...)},
	{"Country.iso3", pattern("^[A-Z]{3}$")},
	{"Country.iso2", pattern("^[A-Z]{2}$")},
	{"Citation.url", format("uri")},
	{"Citation.publisher", enum(entrycheck.PublisherDestinationGovernment, entrycheck.PublisherOtherGovernment, entrycheck.PublisherIntergovernmental)},
	{"Citation.content_date", pattern("^[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?$")},
	{"Citation.read_from", enum(entrycheck.ReadFromLive, entrycheck.ReadFromStoredCopy)},
	{"Exemption.holders_of.[]", described("ISO3 code or SCHENGEN.")},
	{"Exemption.document", enum(entrycheck.DocumentVisa, entrycheck.DocumentResidencePermit, entrycheck.DocumentEither)},
	{"Exemption.effect", both(noRef, typed("string"), enum(entrycheck.VisaFree, entrycheck.EVisa, entrycheck.VisaOnArrival))},
	{"YellowFever.certificate_required", enumOrNull(entrycheck.YellowFeverAllTravellers, entrycheck.YellowFeverFromRiskCountries, entrycheck.YellowFeverNone)},
	{"YellowFever.extra_risk_countries", nullable},
	{"YellowFever.extra_risk_countries.[]", pattern("^[A-Z]{3}$")},
	{"EntryRules", rulesApply},
	{"EntryRules.coverage", enum(entrycheck.CoverageExtended, entrycheck.CoverageBasic)},
	{"RuleLine.url", format("uri")},
	{"Apply.kind", enum(entrycheck.ApplyOfficialPortal, entrycheck.ApplyOfficialInfo, entrycheck.ApplyEmbassyFinder)},
	{"Apply.url", format("uri")},
	{"Transit.coverage", enum(entrycheck.CoverageExtended, entrycheck.CoverageBasic)},
	{"CheckedStatement.purposes", nullable},
	{"CheckedStatement.purposes.[]", enum(entrycheck.StatementPurposes...)},
	{"VerdictVerification.age_days", minimum(0)},
	{"VerdictVerification.status", enum(entrycheck.VerdictSecondarySourceOnly, entrycheck.VerdictNeedsReview)},
	{"VerdictAge.age_days", minimum(0)},
	{"EntryRulesVerification.reason", enum(entrycheck.ReasonStoredCopy, entrycheck.ReasonAwaitingConfirmation, entrycheck.ReasonNotReverified, entrycheck.ReasonFlagged)},
	{"EntryRulesVerification.status", enum(entrycheck.RulesVerifiedOfficialSources, entrycheck.RulesStale, entrycheck.RulesNotCurated, entrycheck.RulesNeedsReview)},
	{"Source.kind", enum(entrycheck.SourceSecondaryMatrix)},
	{"Source.url", format("uri")},
	{"CheckResult.language", enum(locale.Codes()...)},
	{"PaidCheckResult.language", enum(locale.Codes()...)},
	{"MatrixEntry.coverage", enum(entrycheck.CoverageExtended, entrycheck.CoverageBasic)},
	{"MatrixEntry.entry_rules_verification_status", enum(entrycheck.RulesVerifiedOfficialSources, entrycheck.RulesStale, entrycheck.RulesNotCurated, entrycheck.RulesNeedsReview)},
	{"MatrixEntry.verdict_verification_status", enum(entrycheck.VerdictSecondarySourceOnly, entrycheck.VerdictNeedsReview)},
	{"PassportMatrix.counts", requirementCounts},
	{"PassportMatrix", optional("payment")},
	{"Error.error", enum(response.Codes...)},
	{"RateLimited.error", enum(response.CodeRateLimited)},
	{"RateLimited.scope", both(enum(quota.Scopes()...), described("Which cap was hit: "+quota.ScopeWords()+"."))},
	{"PaymentRequirements.extra", eip712Domain},
	{"PaymentRequirements.network", enum(x402.NetworkBase)},
	{"PaymentRequirements.scheme", enum(x402.SchemeExact)},
	{"PaymentRequired.code", enum(response.CodePaymentRequired, payment.CodeAP2Refused)},
	{"PaymentRequired.resource.url", format("uri")},
	{"PaymentRequired.x402Version", constant(x402.Version)},
	{"OAuthError.error", enum("invalid_request", "invalid_client", "unsupported_grant_type", "invalid_scope", "invalid_client_metadata", "server_error", "temporarily_unavailable")},
	{"RegistrationRequest", open},
	{"RegistrationRequest.client_name", both(typed("string"), lengths(1, oauth.MaxClientNameLength))},
	{"RegistrationRequest.grant_types.[]", enum("client_credentials")},
	{"RegistrationRequest.token_endpoint_auth_method", enum("client_secret_basic", "client_secret_post")},
	{"RegistrationResponse.token_endpoint", format("uri")},
	{"TokenResponse.token_type", enum("Bearer")},
	{"Stats.date", format("date")},
	{"Stats.reset_at", format("date-time")},
	{"Health.database", enum("ok", "unreachable")},
	{"Health.database_kind", enum("sqlite", "postgresql")},
	{"Health.status", enum("ok", "degraded")},
	{"ProtectedResourceMetadata.authorization_servers.[]", format("uri")},
	{"ProtectedResourceMetadata.bearer_methods_supported.[]", enum("header")},
	{"ProtectedResourceMetadata.resource", format("uri")},
	{"ProtectedResourceMetadata.resource_documentation", format("uri")},
	{"AuthorizationServerMetadata.grant_types_supported.[]", enum("client_credentials")},
	{"AuthorizationServerMetadata.issuer", format("uri")},
	{"AuthorizationServerMetadata.registration_endpoint", format("uri")},
	{"AuthorizationServerMetadata.response_types_supported", items(1, 1)},
	{"AuthorizationServerMetadata.response_types_supported.[]", constant("none")},
	{"AuthorizationServerMetadata.service_documentation", format("uri")},
	{"AuthorizationServerMetadata.token_endpoint", format("uri")},
	{"AuthorizationServerMetadata.token_endpoint_auth_methods_supported.[]", enum("client_secret_basic", "client_secret_post")},
	{"TripLeg.arrival", format("date")},
	{"TripLeg.departure", format("date")},
	{"TripLeg.country", lengths(country.MinInputLength, country.MaxInputLength)},
	{"TripLeg.purpose", enum(entrycheck.PurposeTourism, entrycheck.PurposeBusiness)},
	{"TripRequest", examples(tripExample)},
	{"TripRequest.language", both(lengths(0, locale.MaxTagLength), examples("fr", "pt-BR", "hi"))},
	{"TripRequest.traveler.passports", items(1, entrycheck.MaxTripPassports)},
	{"TripRequest.traveler.residence_permits_of", items(0, entrycheck.MaxHeldDocuments)},
	{"TripRequest.traveler.residence_permits_of.[]", both(lengths(country.MinInputLength, country.MaxInputLength), described(heldDocumentWords))},
	{"TripRequest.traveler.visas_of", items(0, entrycheck.MaxHeldDocuments)},
	{"TripRequest.traveler.visas_of.[]", both(lengths(country.MinInputLength, country.MaxInputLength), described(heldDocumentWords))},
	{"TripRequest.trip.legs", items(1, entrycheck.MaxTripLegs)},
	{"Condition.kind", enum(entrycheck.ConditionKinds...)},
	{"Condition.status", enum(entrycheck.ConditionStatuses...)},
	{"PassportOption.passport_validity", enum(entrycheck.ConditionStatuses...)},
	{"LegDecision.coverage", enum(entrycheck.CoverageExtended, entrycheck.CoverageBasic)},
	{"SchengenStay.status", enum(entrycheck.ConditionStatuses...)},
	{"TripResult.language", enum(locale.Codes()...)},
	{"TripResult.summary.counts.check_needed", minimum(0)},
	{"TripResult", optional("payment")},
	{"ArrivalFormality.kind", enum(entrycheck.FormalityKinds...)},
	{"ArrivalFormality.when", enum(entrycheck.FormalityWhen...)},
	{"AP2Offer", optional("checkout_jwt", "checkout_hash", "aud", "nonce", "jwks_uri", "merchant", "payee", "payment_amount", "payment_instrument", "exp")},
	{"AP2Offer.jwks_uri", format("uri")},
	{"AP2Offer.payment_amount.currency", constant("USD")},
	{"AP2Offer.payment_instrument.type", constant("x402")},
	{"AP2JWKS.keys", items(1, 0)},
	{"AP2JWKS.keys.[].crv", constant("P-256")},
	{"AP2JWKS.keys.[].kty", constant("EC")},
}

func (r refinement) apply(schemas map[string]*jsonschema.Schema) {
	steps := strings.Split(r.At, ".")
	s := schemas[steps[0]]
	for _, step := range steps[1:] {
		if s == nil {
			break
		}
		if step == "[]" {
			s = s.Items
			continue
		}
		s = s.Properties[step]
	}
	if s == nil {
		panic(fmt.Sprintf("apidoc: refinement of %s: no such schema", r.At)) // a refinement of nothing is a programming error
	}
	r.Refine(s)
}

func format(f string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Format = f }
}

func pattern(p string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Pattern = p }
}

func enum[T any](values ...T) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Enum = anyOf(values) }
}

// enumOrNull: one of values, or null when the source does not say.
func enumOrNull(values ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Enum = append(anyOf(values), nil) }
}

// anyOf is a table as the values of a schema's enum.
func anyOf[T any](table []T) []any {
	out := make([]any, len(table))
	for i, v := range table {
		out[i] = v
	}
	return out
}

func constant(v any) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Const = &v }
}

func minimum(n float64) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Minimum = &n }
}

func lengths(lo, hi int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		if lo > 0 {
			s.MinLength = &lo
		}
		s.MaxLength = &hi
	}
}

// items bounds an array; 0 for no upper bound.
func items(lo, hi int) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		if lo > 0 {
			s.MinItems = &lo
		}
		if hi > 0 {
			s.MaxItems = &hi
		}
	}
}

func described(words string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Description = words }
}

func examples(values ...any) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Examples = values }
}

func typed(t string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) { s.Type, s.Types = t, nil }
}

// noRef makes a property that refers to a component a schema of its own.
func noRef(s *jsonschema.Schema) { s.Ref = "" }

// nullable: the list is null, not empty, when it says nothing.
func nullable(s *jsonschema.Schema) { s.Type, s.Types = "", []string{"array", "null"} }

func both(fs ...func(*jsonschema.Schema)) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		for _, f := range fs {
			f(s)
		}
	}
}

// optional makes the named properties optional: fields a body carries only
// in some answers (a paid answer's payment; the AP2 offer beside a
// refusal's check).
func optional(names ...string) func(*jsonschema.Schema) {
	return func(s *jsonschema.Schema) {
		var keep []string
		for _, r := range s.Required {
			if !slices.Contains(names, r) {
				keep = append(keep, r)
			}
		}
		s.Required = keep
	}
}

// requirementCounts: a passport matrix counts its destinations under every
// requirement value.
func requirementCounts(s *jsonschema.Schema) {
	s.AdditionalProperties = falseSchema()
	s.Properties = map[string]*jsonschema.Schema{}
	s.PropertyOrder, s.Required = nil, nil
	for _, r := range entrycheck.Requirements {
		s.Properties[string(r)] = &jsonschema.Schema{Type: "integer", Minimum: ptr(0.0)}
		s.PropertyOrder = append(s.PropertyOrder, string(r))
		s.Required = append(s.Required, string(r))
	}
}

// eip712Domain: the extra of an exact payment on an EVM network is the
// token's EIP-712 domain.
func eip712Domain(s *jsonschema.Schema) {
	s.Properties = map[string]*jsonschema.Schema{"name": {Type: "string"}, "version": {Type: "string"}}
	s.PropertyOrder, s.Required = []string{"name", "version"}, []string{"name", "version"}
	s.AdditionalProperties = falseSchema()
	s.Description = "The token's EIP-712 domain."
}

// rulesApply: every rule field of an answer says whether it applies to the
// passport, in one of the Applies* values.
func rulesApply(s *jsonschema.Schema) {
	for _, p := range s.Properties {
		if a, ok := p.Properties["applies"]; ok {
			enum(entrycheck.RuleApplies...)(a)
		}
	}
}

// open: a request may carry members the service does not read (RFC 7591
// client metadata), which it ignores.
func open(s *jsonschema.Schema) { s.AdditionalProperties = nil }

func falseSchema() *jsonschema.Schema { return &jsonschema.Schema{Not: &jsonschema.Schema{}} }

var tripExample = map[string]any{
	"traveler": map[string]any{"passports": []any{
		map[string]any{"country": "USA", "expires": "2031-06-30"},
		map[string]any{"country": "IND", "expires": "2033-01-15"},
	}},
	"trip": map[string]any{"legs": []any{
		map[string]any{"country": "FRA", "arrival": "2027-04-01", "departure": "2027-04-10"},
		map[string]any{"country": "BTN", "arrival": "2027-04-11", "departure": "2027-04-20"},
		map[string]any{"country": "IND", "arrival": "2027-04-21", "departure": "2027-05-01"},
	}},
}
