package evaluation_test

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

// yellowFeverData is the imported yellow-fever table, which
// internal/curation checks is a fresh import of the curators' notes: the
// cases below are built from it, not from codes written here.
type yellowFeverData struct {
	table *dataset.YellowFeverTable
	reg   *country.Registry
	codes []string // the table's countries, sorted
}

func loadYellowFever(t *testing.T) yellowFeverData {
	t.Helper()
	reg, err := country.New()
	if err != nil {
		t.Fatal(err)
	}
	cur, err := dataset.LoadCurated(dataset.CuratedFS(), reg)
	if err != nil {
		t.Fatal(err)
	}
	y := yellowFeverData{table: &cur.YellowFever, reg: reg}
	for code := range cur.YellowFever.Countries {
		y.codes = append(y.codes, code)
	}
	sort.Strings(y.codes)
	return y
}

func (y yellowFeverData) name(t *testing.T, code string) string {
	t.Helper()
	c, ok := y.reg.ByISO3(code)
	if !ok {
		t.Fatalf("%s is not a country", code)
	}
	return c.Name
}

func (y yellowFeverData) who(code string) bool {
	return slices.Contains(y.table.RiskList.Countries, code)
}

// fromRisk lists the destinations asking a certificate of travellers from
// risk countries; own tells whether to take those with their own list.
func (y yellowFeverData) fromRisk(own bool) []string {
	var out []string
	for _, code := range y.codes {
		v := y.table.Countries[code].Value
		if c := v.CertificateRequired; c != nil && *c == entrycheck.YellowFeverFromRiskCountries && (len(v.ExtraRiskCountries) > 0) == own {
			out = append(out, code)
		}
	}
	return out
}

// ownListCase is a destination with its own risk list and a country on
// that list only, not on the WHO list.
func (y yellowFeverData) ownListCase(t *testing.T) (dest, extra string) {
	t.Helper()
	for _, d := range y.fromRisk(true) {
		for _, x := range y.table.Countries[d].Value.ExtraRiskCountries {
			if !y.who(x) {
				return d, x
			}
		}
	}
	t.Fatal("no destination of the yellow-fever table has its own risk country beyond the WHO list")
	return "", ""
}

// safePassport is a passport that is a risk country for no destination.
func (y yellowFeverData) safePassport(t *testing.T) string {
	t.Helper()
	for _, c := range y.reg.All() {
		risky := y.who(c.ISO3)
		for _, d := range y.codes {
			risky = risky || slices.Contains(y.table.Countries[d].Value.ExtraRiskCountries, c.ISO3)
		}
		if !risky {
			return c.ISO3
		}
	}
	t.Fatal("every country is a risk country")
	return ""
}

func wantYellowFever(t *testing.T, what string, got *entrycheck.YellowFeverRule, applies bool, because string) {
	t.Helper()
	if got == nil || got.AppliesToThisPassport == nil || *got.AppliesToThisPassport != applies || got.AppliesBecause != because {
		t.Errorf("%s: yellow_fever = %+v, want applies %v because %q", what, got, applies, because)
	}
}

// TestYellowFeverOwnListDecides: a destination's extra_risk_countries count
// as risk countries for it, and for it only.
func TestYellowFeverOwnListDecides(t *testing.T) {
	y := loadYellowFever(t)
	dest, extra := y.ownListCase(t)
	dn, xn := y.name(t, dest), y.name(t, extra)
	r := check(t, entrycheck.CheckRequest{Passport: extra, Destination: dest}).EntryRules.YellowFever
	wantYellowFever(t, extra+" to "+dest, r, true, "required: you arrive from "+xn+", which "+dn+" treats as a risk country (its own list)")
	if r != nil && (r.RiskListSource != nil || r.Source != y.table.Countries[dest].Source) {
		t.Errorf("%s to %s: cites %+v and the WHO list %+v; want the destination's own source only", extra, dest, r.Source, r.RiskListSource)
	}
	safe := y.safePassport(t)
	wantYellowFever(t, safe+" to "+dest, check(t, entrycheck.CheckRequest{Passport: safe, Destination: dest}).EntryRules.YellowFever,
		false, "not required: you do not arrive from or through a risk country")

	// Through the extra country: required when the destination counts a transit.
	v := y.table.Countries[dest].Value
	via := check(t, entrycheck.CheckRequest{Passport: safe, Destination: dest, Transit: extra}).EntryRules.YellowFever
	if v.IncludesTransit == nil || *v.IncludesTransit {
		if via == nil || !strings.HasPrefix(via.AppliesBecause, "required: you transit "+xn+", which "+dn+" treats as a risk country (its own list)") {
			t.Errorf("%s to %s via %s: %+v", safe, dest, extra, via)
		}
	}

	// Another destination asking only travellers from risk countries does
	// not treat the extra country as one.
	for _, other := range y.fromRisk(false) {
		if y.who(extra) || slices.Contains(y.table.Countries[other].Value.ExtraRiskCountries, extra) {
			continue
		}
		wantYellowFever(t, extra+" to "+other, check(t, entrycheck.CheckRequest{Passport: extra, Destination: other}).EntryRules.YellowFever,
			false, "not required: you do not arrive from or through a risk country")
		break
	}

	// In a trip, a stay in the extra country before the destination counts.
	trip := evaluateTrip(t, entrycheck.TripRequest{Traveler: passports(safe), Trip: legs(entrycheck.Leg{Country: extra}, entrycheck.Leg{Country: dest})})
	c := condition(t, trip.Legs[1], entrycheck.ConditionYellowFever)
	if !c.ActionNeeded || !strings.Contains(c.Detail, xn+"), which "+dn+" treats as a risk country (its own list)") || c.Source == nil || *c.Source != y.table.Countries[dest].Source {
		t.Errorf("%s after %s: %+v", dest, extra, c)
	}
	// ...and so does an earlier leg in it, with a safe country in between.
	trip = evaluateTrip(t, entrycheck.TripRequest{Traveler: passports(safe), Trip: legs(entrycheck.Leg{Country: extra}, entrycheck.Leg{Country: safe}, entrycheck.Leg{Country: dest})})
	if c := condition(t, trip.Legs[2], entrycheck.ConditionYellowFever); !c.ActionNeeded || !strings.Contains(c.Detail, "earlier in the trip, which "+dn+" treats as a risk country") {
		t.Errorf("%s after %s, then %s: %+v", dest, extra, safe, c)
	}
	// The same trip to a destination without its own list asks nothing.
	if others := y.fromRisk(false); len(others) > 0 && !y.who(extra) {
		other := others[0]
		trip := evaluateTrip(t, entrycheck.TripRequest{Traveler: passports(safe), Trip: legs(entrycheck.Leg{Country: extra}, entrycheck.Leg{Country: other})})
		if c := condition(t, trip.Legs[1], entrycheck.ConditionYellowFever); c.ActionNeeded || c.Status != entrycheck.ConditionNotApplicable {
			t.Errorf("%s after %s: %+v", other, extra, c)
		}
	}
}

// TestYellowFeverWHOListDecides: a passport country on the WHO list, and a
// transit through one, make a from-risk-countries rule apply, citing the list.
func TestYellowFeverWHOListDecides(t *testing.T) {
	y := loadYellowFever(t)
	dests := slices.Concat(y.fromRisk(false), y.fromRisk(true))
	if len(dests) == 0 || len(y.table.RiskList.Countries) == 0 {
		t.Fatal("no destination asks travellers from risk countries, or the WHO list is empty")
	}
	dest, risk := dests[0], y.table.RiskList.Countries[0]
	dn, rn := y.name(t, dest), y.name(t, risk)
	r := check(t, entrycheck.CheckRequest{Passport: risk, Destination: dest}).EntryRules.YellowFever
	wantYellowFever(t, risk+" to "+dest, r, true, "required: you arrive from "+rn+", on the WHO list of countries with risk of yellow-fever transmission")
	if r != nil && (r.RiskListSource == nil || *r.RiskListSource != y.table.RiskList.Source) {
		t.Errorf("%s to %s: risk_list_source = %+v, want the WHO list's", risk, dest, r.RiskListSource)
	}

	// A transit through a WHO country, for each destination that counts one.
	safe := y.safePassport(t)
	tested := 0
	for _, d := range dests {
		v := y.table.Countries[d].Value
		if v.IncludesTransit == nil || !*v.IncludesTransit {
			continue
		}
		want := "required: you transit " + rn + ", on the WHO list of countries with risk of yellow-fever transmission"
		if v.TransitHours != nil {
			want += " (" + y.name(t, d) + " counts a transit of more than " + strconv.Itoa(*v.TransitHours) + " hours)"
		}
		wantYellowFever(t, safe+" to "+d+" via "+risk, check(t, entrycheck.CheckRequest{Passport: safe, Destination: d, Transit: risk}).EntryRules.YellowFever, true, want)
		tested++
	}
	if tested == 0 {
		t.Error("no destination of the table counts a transit")
	}

	// In a trip, arriving from the WHO country.
	trip := evaluateTrip(t, entrycheck.TripRequest{Traveler: passports(safe), Trip: legs(entrycheck.Leg{Country: risk}, entrycheck.Leg{Country: dest})})
	if c := condition(t, trip.Legs[1], entrycheck.ConditionYellowFever); !c.ActionNeeded || !strings.Contains(c.Detail, rn+"), on the WHO list") || !strings.Contains(c.Detail, y.table.RiskList.Source.Name) {
		t.Errorf("%s after %s: %+v (%s)", dest, risk, c, dn)
	}
}

// TestYellowFeverWhy: the plain-words reason of the rules that do not
// depend on where the traveller comes from.
func TestYellowFeverWhy(t *testing.T) {
	y := loadYellowFever(t)
	safe := y.safePassport(t)
	seen := map[string]bool{}
	for _, d := range y.codes {
		v := y.table.Countries[d].Value
		var applies *bool
		var want string
		switch {
		case v.CertificateRequired == nil:
			want = "the source does not say whom it covers"
		case *v.CertificateRequired == entrycheck.YellowFeverAllTravellers:
			applies, want = ptr(true), "required for all travellers"
			if v.MinAgeMonths != nil {
				want += " from the age of " + strconv.Itoa(*v.MinAgeMonths) + " months"
			}
		case *v.CertificateRequired == entrycheck.YellowFeverNone:
			applies, want = ptr(false), "not required: the source says no certificate is required"
		default:
			continue
		}
		r := check(t, entrycheck.CheckRequest{Passport: safe, Destination: d}).EntryRules.YellowFever
		if r == nil || r.AppliesBecause != want || (applies == nil) != (r.AppliesToThisPassport == nil) || applies != nil && *applies != *r.AppliesToThisPassport {
			t.Errorf("%s to %s: %+v, want %q", safe, d, r, want)
		}
		seen[want[:8]] = true
	}
	if len(seen) < 2 {
		t.Errorf("the table gave only %v kinds of rule", seen)
	}
	// An entry without an official source is shown nowhere.
	for code := range y.table.Unsourced {
		if r := check(t, entrycheck.CheckRequest{Passport: safe, Destination: code}).EntryRules.YellowFever; r != nil {
			t.Errorf("%s rests on no official source but is shown: %+v", code, r)
		}
	}
}
