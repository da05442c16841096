package apidoc

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/check"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/rest"
	"github.com/entrycheck/entrycheck/internal/locale"
)

func parameterRef(name string) string { return "#/components/parameters/" + name }

// checkParameterWords describe the query parameters of a check
// (check.QueryParameters), in the order the document lists them.
var checkParameterWords = []struct{ name, words string }{
	{"passport", "Passport country: ISO 3166-1 alpha-3 code in any case (DEU), alpha-2 code (DE) or country name (Germany). The answer names it by its alpha-3 code; codes of other systems and misspellings get a 400 with suggestions (GER suggests DEU)."},
	{"destination", "Destination country, named like passport (THA, TH or Thailand)."},
	{"transit", "Transit country, named like passport: adds the advisory transit block."},
	{"purpose", "tourism (default, listed in defaults_applied) or business."},
	{"residence_permits_of", fmt.Sprintf("Comma-separated ISO3 codes (or SCHENGEN) of countries whose residence permits you hold; at most %d. Curated exemptions are applied and cited in exemption_applied.", entrycheck.MaxHeldDocuments)},
	{"visas_of", fmt.Sprintf("Comma-separated ISO3 codes (or SCHENGEN) of countries whose visas you hold; at most %d.", entrycheck.MaxHeldDocuments)},
	{"residence_permits", "Free-text fallback for residence_permits_of (at most 500 characters): echoed in assumptions, never interpreted."},
	{"visas_held", "Free-text fallback for visas_of (at most 500 characters): echoed in assumptions, never interpreted."},
	{"lang", ""},
}

// checkParameters are the parameters of a check: one for each of
// check.QueryParameters, and the Accept-Language header. A query
// parameter without words here stops the description being written.
func checkParameters() []*parameter {
	var out []*parameter
	for _, p := range checkParameterWords {
		if _, ok := check.QueryParameters[p.name]; !ok {
			panic("apidoc: " + p.name + " is not a query parameter of a check") // the tables disagree: a programming error
		}
		out = append(out, &parameter{Ref: parameterRef(p.name)})
	}
	for name := range check.QueryParameters {
		if !slices.ContainsFunc(checkParameterWords, func(w struct{ name, words string }) bool { return w.name == name }) {
			panic("apidoc: the query parameter " + name + " of a check is not described") // the tables disagree: a programming error
		}
	}
	return append(out, &parameter{Ref: parameterRef("Accept-Language")})
}

// parameterObjects are components/parameters: those of a check, the
// language header and the AP2 mandates.
func parameterObjects() map[string]*parameter {
	out := map[string]*parameter{}
	for _, p := range checkParameterWords {
		param := &parameter{Name: p.name, In: "query", Description: p.words, Schema: text()}
		switch {
		case p.name == "passport" || p.name == "destination":
			param.Required, param.Schema = true, countryInput(p.words)
			param.Schema.Description = ""
		case p.name == "transit":
			param.Schema = countryInput(p.words)
			param.Schema.Description = ""
		case p.name == "purpose":
			param.Schema.Enum = []any{entrycheck.PurposeTourism, entrycheck.PurposeBusiness}
		case p.name == "lang":
			param = languageParameter("requirement_label, action_text, the notes, assumptions and reasons, and the disclaimer", "Without it, the Accept-Language header decides; without either, English.", "entry_rule_lines text, official statements")
		}
		out[p.name] = param
	}
	out["Accept-Language"] = &parameter{
		Name: "Accept-Language", In: "header",
		Description: fmt.Sprintf("Read when lang is not given (at most %d bytes; a longer header is ignored): the first language spoken in the header's order of preference answers.", rest.MaxAcceptLanguage),
		Schema:      &jsonschema.Schema{Type: "string", MaxLength: ptr(rest.MaxAcceptLanguage)},
	}
	out[payment.HeaderAP2CheckoutMandate] = &parameter{
		Name: payment.HeaderAP2CheckoutMandate, In: "header",
		Description: "AP2: the closed Checkout Mandate (SD-JWT, vct mandate.checkout.1), alone when signed by a trusted key, or after the open mandates (mandate.checkout.open.1) that delegate to its signer, each SD-JWT ending with ~ and separated by ~. Sent with PAYMENT-SIGNATURE and AP2-Payment-Mandate.",
		Schema:      text(),
	}
	out[payment.HeaderAP2PaymentMandate] = &parameter{
		Name: payment.HeaderAP2PaymentMandate, In: "header",
		Description: "AP2: the closed Payment Mandate (SD-JWT, vct mandate.payment.1), alone or after its open mandates (mandate.payment.open.1).",
		Schema:      text(),
	}
	return out
}

// languageParameter is the lang query parameter of an answer whose words
// are those listed; precedence says what decides without it, and cited the
// texts that stay as their source wrote them.
func languageParameter(words, precedence, cited string) *parameter {
	return &parameter{
		Name: "lang", In: "query",
		Description: "The language of the answer's words: " + words + ". A BCP 47 tag; the languages spoken are " + strings.Join(locale.Codes(), ", ") + " (zh is Simplified Chinese), and a regional tag picks its language (pt-BR is pt). " + precedence + " A language not spoken gives English, with a defaults_applied entry of field language saying so. Codes, field names and cited texts (" + cited + ") never change with the language.",
		Schema:      &jsonschema.Schema{Type: "string", MaxLength: ptr(locale.MaxTagLength)},
		Examples:    map[string]*example{"french": {Value: "fr"}, "brazilian": {Value: "pt-BR"}},
	}
}
