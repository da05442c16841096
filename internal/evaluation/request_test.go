package evaluation_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

func TestHeldDocumentsApplyCuratedExemptions(t *testing.T) {
	cases := []struct {
		name string
		req  entrycheck.CheckRequest
		want entrycheck.Requirement
		days entrycheck.Days
		held string
	}{
		// Mexico exempts holders of US visas; the matrix says visa_required for India.
		{"visa of a listed country", entrycheck.CheckRequest{Passport: "IND", Destination: "MEX", VisasOf: []string{"usa"}}, entrycheck.VisaFree, entrycheck.SomeDays(180), "visa of USA"},
		// A German residence permit is a Schengen permit for France.
		{"member of a listed group", entrycheck.CheckRequest{Passport: "IND", Destination: "FRA", ResidencePermitsOf: []string{"DEU"}}, entrycheck.VisaFree, entrycheck.SomeDays(90), "residence_permit of DEU"},
		{"the group itself", entrycheck.CheckRequest{Passport: "IND", Destination: "ITA", VisasOf: []string{"SCHENGEN"}}, entrycheck.VisaFree, entrycheck.SomeDays(90), "visa of SCHENGEN"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before := check(t, entrycheck.CheckRequest{Passport: c.req.Passport, Destination: c.req.Destination})
			r := check(t, c.req)
			if r.Requirement != c.want || r.AllowedStayDays != c.days {
				t.Fatalf("= %s %v, want %s %v", r.Requirement, r.AllowedStayDays, c.want, c.days)
			}
			x := r.ExemptionApplied
			if x == nil || x.HeldDocument != c.held || x.MatrixRequirement != before.Requirement || x.Source.URL == "" {
				t.Fatalf("exemption_applied = %+v, want %q over %s with a citation", x, c.held, before.Requirement)
			}
			if !contains(r.Assumptions, "exemption") {
				t.Errorf("assumptions do not say an exemption was applied: %v", r.Assumptions)
			}
		})
	}
	// A permit the exemption does not list changes nothing, and says so.
	r := check(t, entrycheck.CheckRequest{Passport: "IND", Destination: "MEX", VisasOf: []string{"BRA"}})
	if r.Requirement != entrycheck.VisaRequired || r.ExemptionApplied != nil || !contains(r.Assumptions, "do not change this verdict") {
		t.Errorf("IND to MEX with a Brazilian visa = %s %+v %v", r.Requirement, r.ExemptionApplied, r.Assumptions)
	}
	// Never over no_admission or a conflict (USA to BRA conflicts in the previous snapshot).
	if r := checkPrevious(t, entrycheck.CheckRequest{Passport: "USA", Destination: "BRA", VisasOf: []string{"USA"}}); r.Requirement != entrycheck.NeedsReview {
		t.Errorf("USA to BRA with documents = %s, want needs_review", r.Requirement)
	}
}

func TestFreeTextIsEchoedNotInterpreted(t *testing.T) {
	r := check(t, entrycheck.CheckRequest{Passport: "IND", Destination: "MEX", ResidencePermitsText: "US green card", VisasHeldText: "valid US B1/B2"})
	if r.Requirement != entrycheck.VisaRequired || r.ExemptionApplied != nil {
		t.Fatalf("free text changed the verdict: %s %+v", r.Requirement, r.ExemptionApplied)
	}
	if !contains(r.Assumptions, `"US green card"`) || !contains(r.Assumptions, `"valid US B1/B2"`) {
		t.Errorf("assumptions do not echo the free text: %v", r.Assumptions)
	}
}

func TestDefaultsApplied(t *testing.T) {
	r := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "THA"})
	fields := map[string]string{}
	for _, d := range r.DefaultsApplied {
		fields[d.Field] = d.Value
	}
	if fields["purpose"] != "tourism" || fields["document_type"] != "ordinary_passport" || fields["held_documents"] != "none" {
		t.Errorf("defaults_applied = %+v", r.DefaultsApplied)
	}
	r = check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", Purpose: "business", VisasOf: []string{"USA"}})
	for _, d := range r.DefaultsApplied {
		if d.Field == "purpose" || d.Field == "held_documents" {
			t.Errorf("%s was given but is listed as a default", d.Field)
		}
	}
	if !contains(r.Assumptions, "business") {
		t.Errorf("a business purpose is not mentioned in the assumptions: %v", r.Assumptions)
	}
}

func TestTransit(t *testing.T) {
	r := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "AUS", Transit: "SGP"})
	tr := r.Transit
	if tr == nil || tr.Country.ISO3 != "SGP" || tr.Requirement == "" || tr.RequirementLabel == "" {
		t.Fatalf("transit = %+v", tr)
	}
	// Singapore's VFTF lists Indian passports; German ones are not listed.
	if len(tr.Programs) == 0 || tr.ProgramsSource == nil {
		t.Fatalf("Singapore's transit programmes are missing: %+v", tr)
	}
	for _, p := range tr.Programs {
		if p.EligibleForThisPassport == nil || *p.EligibleForThisPassport {
			t.Errorf("DEU eligible for %q: %v, want false", p.Program, p.EligibleForThisPassport)
		}
	}
	in := check(t, entrycheck.CheckRequest{Passport: "IND", Destination: "AUS", Transit: "SGP"})
	eligible := false
	for _, p := range in.Transit.Programs {
		eligible = eligible || (p.EligibleForThisPassport != nil && *p.EligibleForThisPassport)
	}
	if !eligible {
		t.Errorf("IND via SGP: no eligible programme in %+v", in.Transit.Programs)
	}
	if r := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "THA"}); r.Transit != nil {
		t.Errorf("transit present without a transit country")
	}
	if r := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", Transit: "PRI"}); r.Transit.Requirement != entrycheck.Unknown {
		t.Errorf("transit through an uncovered country = %s, want unknown", r.Transit.Requirement)
	}
}

func TestYellowFeverAppliesToThisPassport(t *testing.T) {
	cases := []struct {
		p, d, transit string
		want          *bool
	}{
		{"DEU", "THA", "", ptr(false)}, // from risk countries only; Germany is not one
		{"NGA", "THA", "", ptr(true)},  // Nigeria is on the risk list
		{"DEU", "THA", "KEN", ptr(true)},
		{"DEU", "AGO", "", ptr(true)},  // all travellers
		{"DEU", "ARE", "", ptr(false)}, // none
	}
	for _, c := range cases {
		r := check(t, entrycheck.CheckRequest{Passport: c.p, Destination: c.d, Transit: c.transit})
		yf := r.EntryRules.YellowFever
		if yf == nil || yf.AppliesToThisPassport == nil || *yf.AppliesToThisPassport != *c.want || yf.AppliesBecause == "" {
			t.Errorf("%s to %s via %q: yellow_fever = %+v, want applies %v", c.p, c.d, c.transit, yf, *c.want)
		}
	}
	if r := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "FRA"}); r.EntryRules.YellowFever != nil {
		t.Errorf("FRA has no yellow-fever entry but got %+v", r.EntryRules.YellowFever)
	}
}

func TestOwnCountry(t *testing.T) {
	r := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "deu"})
	if r.Requirement != entrycheck.VisaFree || r.Action != entrycheck.ActionNone || r.AllowedStayDays.Valid || r.Apply != nil {
		t.Errorf("DEU to DEU = %s %s %v", r.Requirement, r.Action, r.AllowedStayDays)
	}
	if !contains(r.Assumptions, "own country") || *r.Source.MatrixValue != "-1" {
		t.Errorf("own country not explained: %v", r.Assumptions)
	}
}

func TestInvalidRequests(t *testing.T) {
	many := strings.Split(strings.Repeat("DEU,", 21), ",")[:21]
	cases := []struct {
		name  string
		req   entrycheck.CheckRequest
		field string
		code  string
		sugg  string
	}{
		{"missing passport", entrycheck.CheckRequest{Destination: "THA"}, "passport", entrycheck.ProblemMissing, ""},
		{"missing destination", entrycheck.CheckRequest{Passport: "DEU"}, "destination", entrycheck.ProblemMissing, ""},
		{"IOC code", entrycheck.CheckRequest{Passport: "GER", Destination: "THA"}, "passport", entrycheck.ProblemUnknownCode, "DEU"},
		{"misspelt name", entrycheck.CheckRequest{Passport: "Germny", Destination: "THA"}, "passport", entrycheck.ProblemUnknownCode, "DEU"},
		{"UK", entrycheck.CheckRequest{Passport: "DEU", Destination: "UK"}, "destination", entrycheck.ProblemMalformedCode, "GBR"},
		{"digits", entrycheck.CheckRequest{Passport: "D3U", Destination: "THA"}, "passport", entrycheck.ProblemMalformedCode, ""},
		{"bad transit", entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", Transit: "SIN"}, "transit", entrycheck.ProblemUnknownCode, "SGP"},
		{"bad purpose", entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", Purpose: "study"}, "purpose", entrycheck.ProblemUnsupportedPurpose, ""},
		{"bad held code", entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", VisasOf: []string{"USA", "SUI"}}, "visas_of", entrycheck.ProblemUnknownCode, "CHE"},
		{"empty held item", entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", ResidencePermitsOf: []string{"USA", ""}}, "residence_permits_of", entrycheck.ProblemMissing, ""},
		{"too many held codes", entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", VisasOf: many}, "visas_of", entrycheck.ProblemTooMany, ""},
		{"long free text", entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", VisasHeldText: strings.Repeat("x", 501)}, "visas_held", entrycheck.ProblemTooMany, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := datatest.Evaluator(t).Check(c.req, today)
			var e *entrycheck.Error
			if !errors.As(err, &e) || e.Code != entrycheck.EINVALID {
				t.Fatalf("error = %v, want an EINVALID application error", err)
			}
			if len(e.Problems) != 1 {
				t.Fatalf("problems = %+v, want exactly one", e.Problems)
			}
			p := e.Problems[0]
			if p.Field != c.field || p.Code != c.code || p.Message == "" {
				t.Errorf("problem = %+v, want field %s code %s", p, c.field, c.code)
			}
			if c.sugg != "" && (len(p.Suggestions) == 0 || p.Suggestions[0].ISO3 != c.sugg) {
				t.Errorf("suggestions = %+v, want %s first", p.Suggestions, c.sugg)
			}
			if c.sugg != "" && !strings.Contains(p.Message, c.sugg) {
				t.Errorf("message %q does not name the suggestion %s", p.Message, c.sugg)
			}
		})
	}
	// Every problem is reported at once.
	_, err := datatest.Evaluator(t).Check(entrycheck.CheckRequest{Passport: "GER", Destination: "", Purpose: "x"}, today)
	var e *entrycheck.Error
	if !errors.As(err, &e) || len(e.Problems) != 3 {
		t.Errorf("error = %v, want three problems", err)
	}
}

func TestPassportMatrix(t *testing.T) {
	ev := datatest.Evaluator(t)
	pm, err := ev.PassportMatrix("deu", "req_test", today)
	if err != nil {
		t.Fatal(err)
	}
	if pm.Passport.ISO3 != "DEU" || len(pm.Destinations) != 198 || pm.RequestID != "req_test" || pm.DatasetVersion != datatest.Current {
		t.Fatalf("matrix of DEU: %d destinations, %+v", len(pm.Destinations), pm.Passport)
	}
	sum := 0
	for _, n := range pm.Counts {
		sum += n
	}
	if sum != 198 {
		t.Errorf("counts add up to %d, want 198", sum)
	}
	for _, d := range pm.Destinations {
		r := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: d.Destination.ISO3})
		if d.Requirement != r.Requirement || d.AllowedStayDays != r.AllowedStayDays || d.Coverage != r.EntryRules.Coverage {
			t.Errorf("matrix entry %s = %s, check says %s", d.Destination.ISO3, d.Requirement, r.Requirement)
		}
	}
	pri, err := ev.PassportMatrix("PRI", "", today)
	if err != nil || len(pri.Destinations) != 0 {
		t.Errorf("matrix of an uncovered passport: %v, %d destinations", err, len(pri.Destinations))
	}
	if _, err := ev.PassportMatrix("GER", "", today); err == nil {
		t.Error("an invalid passport code was accepted")
	}
}

func contains(list []string, sub string) bool {
	for _, s := range list {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

func ptr[T any](v T) *T { return &v }

// A country may be named by its alpha-3 or alpha-2 code in any case or by
// a name or alias; the answer names it by its alpha-3 code. Codes of other
// systems are still refused with suggestions (TestInvalidRequests).
func TestCountriesByCodeOrName(t *testing.T) {
	ev := datatest.Evaluator(t)
	for _, c := range []struct{ passport, destination, wantP, wantD string }{
		{"Germany", "Thailand", "DEU", "THA"},
		{"de", "th", "DEU", "THA"},
		{"deu", "THA", "DEU", "THA"},
		{"Deutschland", "Côte d'Ivoire", "DEU", "CIV"},
		{"  united kingdom ", "South Korea", "GBR", "KOR"},
	} {
		r, err := ev.Check(entrycheck.CheckRequest{Passport: c.passport, Destination: c.destination}, today)
		if err != nil {
			t.Errorf("%q to %q: %v", c.passport, c.destination, err)
			continue
		}
		if r.Passport.ISO3 != c.wantP || r.Destination.ISO3 != c.wantD {
			t.Errorf("%q to %q answered as %s to %s, want %s to %s", c.passport, c.destination, r.Passport.ISO3, r.Destination.ISO3, c.wantP, c.wantD)
		}
	}
	trip, err := evaluation.DecodeTripRequest(strings.NewReader(`{"traveler":{"passports":["Germany"]},"trip":{"legs":[{"country":"Thailand","arrival":"2026-12-01","departure":"2026-12-10"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	if err := ev.ValidateTrip(trip); err != nil {
		t.Errorf("a trip naming its countries is refused: %v", err)
	}
}
