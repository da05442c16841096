package evaluation_test

import (
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// TestYellowFeverReasonsInEveryLanguage checks that why a yellow-fever
// rule applies (applies_because) is worded in the language of the answer:
// a traveller from no risk country, one transiting a country on the WHO
// list, one arriving from it, one transiting a country on the
// destination's own list where the destination counts a long transit
// only, and rules for all travellers (with and without an age) or none.
// In every language but English the reason is not the English one and
// names no message the catalog lacks, and the answer's English is as
// before.
func TestYellowFeverReasonsInEveryLanguage(t *testing.T) {
	ev := datatest.Evaluator(t)
	for _, tc := range []struct {
		req     entrycheck.CheckRequest
		english string
	}{
		{entrycheck.CheckRequest{Passport: "DEU", Destination: "THA"}, "not required: you do not arrive from or through a risk country"},
		{entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", Transit: "BRA"}, "required: you transit Brazil, on the WHO list of countries with risk of yellow-fever transmission"},
		{entrycheck.CheckRequest{Passport: "NGA", Destination: "THA"}, "required: you arrive from Nigeria, on the WHO list of countries with risk of yellow-fever transmission"},
		{entrycheck.CheckRequest{Passport: "DEU", Destination: "SGP", Transit: "NGA"}, "required: you transit Nigeria, on the WHO list of countries with risk of yellow-fever transmission (Singapore counts a transit of more than 12 hours)"},
		{entrycheck.CheckRequest{Passport: "DEU", Destination: "NPL", Transit: "URY"}, "required: you transit Uruguay, which Nepal treats as a risk country (its own list) (Nepal counts a transit of more than 12 hours)"},
		{entrycheck.CheckRequest{Passport: "DEU", Destination: "AGO"}, "required for all travellers from the age of 9 months"},
		{entrycheck.CheckRequest{Passport: "DEU", Destination: "BDI"}, "required for all travellers"},
		{entrycheck.CheckRequest{Passport: "DEU", Destination: "ARE"}, "not required: the source says no certificate is required"},
	} {
		route := tc.req.Passport + "->" + tc.req.Destination
		if tc.req.Transit != "" {
			route += " via " + tc.req.Transit
		}
		en, err := ev.Check(tc.req, today)
		if err != nil {
			t.Fatalf("%s: %v", route, err)
		}
		if en.EntryRules.YellowFever == nil {
			t.Fatalf("%s: no yellow-fever rule", route)
		}
		english := en.EntryRules.YellowFever.AppliesBecause
		if english != tc.english {
			t.Errorf("%s: applies_because %q, want %q", route, english, tc.english)
		}
		for _, c := range locale.Embedded().List() {
			if c.Code == locale.English {
				continue
			}
			req := tc.req
			req.Language = c.Code
			r, err := ev.Check(req, today)
			if err != nil {
				t.Fatalf("%s %s: %v", c.Code, route, err)
			}
			yf := r.EntryRules.YellowFever
			if yf == nil {
				t.Fatalf("%s %s: no yellow-fever rule", c.Code, route)
			}
			switch why := yf.AppliesBecause; {
			case why == "" || why == english:
				t.Errorf("%s %s: applies_because in English: %q", c.Code, route, why)
			case strings.Contains(why, "["):
				t.Errorf("%s %s: a message is missing: %q", c.Code, route, why)
			case strings.Contains(why, "{"):
				t.Errorf("%s %s: a placeholder is left: %q", c.Code, route, why)
			}
			if *yf.AppliesToThisPassport != *en.EntryRules.YellowFever.AppliesToThisPassport || (yf.RiskListSource == nil) != (en.EntryRules.YellowFever.RiskListSource == nil) {
				t.Errorf("%s %s: the rule differs from the English one", c.Code, route)
			}
		}
	}
}
