package evaluation_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// curatedVariant returns the first curated passport-validity variant of a
// destination whose applies_to matches the passport, computed from the
// data as the curators wrote it, and the field's source.
func curatedVariant(t *testing.T, snap *dataset.Snapshot, dest, passport string, req entrycheck.Requirement) (entrycheck.PassportValidity, entrycheck.Citation) {
	t.Helper()
	rule := snap.Curated.Destinations[dest].Rules.PassportValidity
	if rule == nil {
		t.Fatalf("%s has no curated passport-validity rule", dest)
	}
	for _, v := range rule.Value {
		if v.AppliesTo.Matches(passport, req, inGroup(snap)) {
			return v, rule.Source
		}
	}
	t.Fatalf("no variant of %s's rule matches %s", dest, passport)
	return entrycheck.PassportValidity{}, entrycheck.Citation{}
}

// TestValidityVariantPerPassport: a French passport in Germany is shown the
// EU citizens' variant with its own source, a US passport the Schengen
// three-month rule under the field's source.
func TestValidityVariantPerPassport(t *testing.T) {
	snap := datatest.Evaluator(t).Snapshot()
	for _, passport := range []string{"FRA", "USA"} {
		r := check(t, entrycheck.CheckRequest{Passport: passport, Destination: "DEU"})
		want, fieldSource := curatedVariant(t, snap, "DEU", passport, r.Requirement)
		got := r.EntryRules.PassportValidity
		if got == nil || got.Applies != entrycheck.AppliesYes || got.Value.Text != want.Text || got.Value.Source != nil {
			t.Fatalf("%s in DEU: %+v, want the variant %q", passport, got, want.Text)
		}
		wantSource := fieldSource
		if want.Source != nil {
			wantSource = *want.Source
		}
		if got.Source != wantSource {
			t.Errorf("%s in DEU: source %+v, want %+v", passport, got.Source, wantSource)
		}
	}
	fra := check(t, entrycheck.CheckRequest{Passport: "FRA", Destination: "DEU"}).EntryRules.PassportValidity
	usa := check(t, entrycheck.CheckRequest{Passport: "USA", Destination: "DEU"}).EntryRules.PassportValidity
	if *fra.Value.MinMonthsRemaining != 0 || fra.Source.URL == usa.Source.URL || *usa.Value.MinMonthsRemaining != 3 {
		t.Errorf("FRA %+v / USA %+v: want the EU variant (0 months, its own source) and the 3-month rule", fra, usa)
	}
}

// TestRuleNotForThisPassport: where no variant matches, the field says so
// (not a gap, no value); Norway is in neither of France's variants.
func TestRuleNotForThisPassport(t *testing.T) {
	snap := datatest.Evaluator(t).Snapshot()
	for _, v := range snap.Curated.Destinations["FRA"].Rules.PassportValidity.Value {
		if v.AppliesTo.Matches("NOR", entrycheck.VisaFree, inGroup(snap)) {
			t.Skip("a variant of France's rule now covers Norway")
		}
	}
	got := check(t, entrycheck.CheckRequest{Passport: "NOR", Destination: "FRA"}).EntryRules.PassportValidity
	if got == nil || got.Applies != entrycheck.AppliesNotForThisPassport || got.Value.Text != "" || !strings.Contains(got.Note, "Does not apply to your passport") {
		t.Errorf("NOR in FRA: %+v, want not_for_this_passport with a note", got)
	}
	onward := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "FRA"}).EntryRules.OnwardTicket
	if onward == nil || onward.Applies != entrycheck.AppliesNotForThisPassport {
		t.Errorf("DEU in FRA: onward ticket %+v, want not for this passport (the rule excludes EU_EEA_CH)", onward)
	}
}

// TestDocumentedForOthers: Japan's blank-page fact is read from a page for
// British travellers: a German passport sees it as such.
func TestDocumentedForOthers(t *testing.T) {
	deu := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "JPN"}).EntryRules.BlankPages
	if deu == nil || deu.Applies != entrycheck.AppliesDocumentedForOthers || !strings.Contains(deu.Note, "United Kingdom") || !strings.Contains(deu.Note, "may differ for yours") {
		t.Errorf("DEU in JPN: blank pages %+v, want documented for British travellers", deu)
	}
	if gbr := check(t, entrycheck.CheckRequest{Passport: "GBR", Destination: "JPN"}).EntryRules.BlankPages; gbr == nil || gbr.Applies != entrycheck.AppliesYes || gbr.Note != "" {
		t.Errorf("GBR in JPN: blank pages %+v, want a rule that holds", gbr)
	}
}

// TestExemptionOnlyForListedNationals: Ireland's visa waiver for holders of
// a UK visa is open to the nationalities its applies_to lists, while it
// ran (until 31 October 2026).
func TestExemptionOnlyForListedNationals(t *testing.T) {
	inPeriod := entrycheck.Date{Year: 2026, Month: 9, Day: 1}
	snap := datatest.Evaluator(t).Snapshot()
	waiver := snap.Curated.Destinations["IRL"].Rules.ResidencePermitExemptions.Value[0]
	if slices.Contains(waiver.AppliesTo.Passports, "NGA") || !slices.Contains(waiver.AppliesTo.Passports, "IND") {
		t.Fatalf("the waiver's list changed: %+v", waiver.AppliesTo)
	}
	for _, c := range []struct {
		passport string
		applies  bool
	}{{"NGA", false}, {"IND", true}} {
		plain := check(t, entrycheck.CheckRequest{Passport: c.passport, Destination: "IRL", TravelDate: inPeriod})
		held := check(t, entrycheck.CheckRequest{Passport: c.passport, Destination: "IRL", VisasOf: []string{"GBR"}, TravelDate: inPeriod})
		switch {
		case !c.applies && (held.ExemptionApplied != nil || held.Requirement != plain.Requirement):
			t.Errorf("%s with a UK visa: %s, exemption %+v; want the matrix's %s", c.passport, held.Requirement, held.ExemptionApplied, plain.Requirement)
		case c.applies && (held.ExemptionApplied == nil || held.Requirement != waiver.Effect):
			t.Errorf("%s with a UK visa: %s, exemption %+v; want the waiver", c.passport, held.Requirement, held.ExemptionApplied)
		}
		if list := held.EntryRules.ResidencePermitExemptions; c.applies == (list == nil || list.Applies != entrycheck.AppliesYes) {
			t.Errorf("%s: exemptions shown %+v", c.passport, list)
		}
	}
}

// TestEndedExemptionIsShownNotApplied: after 31 October 2026 Ireland's
// waiver is not applied to an Indian passport with a UK visa; the answer
// shows it as ended, with its end date, and says why.
func TestEndedExemptionIsShownNotApplied(t *testing.T) {
	r := check(t, entrycheck.CheckRequest{Passport: "IND", Destination: "IRL", VisasOf: []string{"GBR"}})
	if r.ExemptionApplied != nil || r.Requirement != entrycheck.VisaRequired {
		t.Fatalf("IND to IRL with a UK visa on %s: %s, exemption %+v; want visa_required, none applied", entrycheck.DateOf(r.EvaluatedAt), r.Requirement, r.ExemptionApplied)
	}
	list := r.EntryRules.ResidencePermitExemptions
	if list == nil || list.Applies != entrycheck.AppliesEnded || len(list.Value) != 0 || list.NotInForce == nil || len(*list.NotInForce) != 1 ||
		(*list.NotInForce)[0].Status != entrycheck.PeriodEnded || (*list.NotInForce)[0].EffectiveUntil.String() != "2026-10-31" {
		t.Fatalf("exemptions %+v, want the waiver not in force, ended on 2026-10-31", list)
	}
	var line string
	for _, l := range r.EntryRules.Lines() {
		if l.Field == entrycheck.FieldResidencePermitExemptions {
			line = l.Text
		}
	}
	if !strings.HasPrefix(line, "Ended on 31 October 2026; not applied: ") {
		t.Errorf("the waiver's line is %q", line)
	}
	if !slices.ContainsFunc(r.Assumptions, func(a string) bool { return strings.Contains(a, "outside its period") }) {
		t.Errorf("no assumption says why the held visa changed nothing: %q", r.Assumptions)
	}
}

// TestNoComputedMarginWithoutOne: the United States' rule gives no margin
// that can be computed; the answer and a trip explain it instead.
func TestNoComputedMarginWithoutOne(t *testing.T) {
	r := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "USA"})
	pv := r.EntryRules.PassportValidity
	if pv == nil || pv.Applies != entrycheck.AppliesYes || pv.Value.MinMonthsRemaining != nil || pv.Value.Text == "" {
		t.Fatalf("DEU to USA: %+v, want a rule without a margin", pv)
	}
	trip := evaluateTrip(t, entrycheck.TripRequest{
		Traveler: entrycheck.Traveler{Passports: []entrycheck.PassportHeld{{Country: "DEU", Expires: "2027-03-01"}}},
		Trip:     legs(entrycheck.Leg{Country: "USA", Arrival: "2027-01-10", Departure: "2027-01-24"}),
	})
	c := condition(t, trip.Legs[0], entrycheck.ConditionPassportValidity)
	if c.Status != entrycheck.ConditionUnknown || c.ActionNeeded || !strings.Contains(c.Detail, pv.Value.Text) || strings.Contains(c.Detail, "2027-07") {
		t.Errorf("validity: %+v, want unknown, the rule's text and no computed date", c)
	}
}

// TestTripValidityPerPassport: a passport expiring three weeks after a
// stay in France needs no renewal when German, and does when American
// (three months after leaving the Schengen area).
func TestTripValidityPerPassport(t *testing.T) {
	for _, c := range []struct {
		passport string
		want     entrycheck.ConditionStatus
	}{{"DEU", entrycheck.ConditionMet}, {"USA", entrycheck.ConditionNotMet}} {
		trip := evaluateTrip(t, entrycheck.TripRequest{
			Traveler: entrycheck.Traveler{Passports: []entrycheck.PassportHeld{{Country: c.passport, Expires: "2027-03-31"}}},
			Trip:     legs(entrycheck.Leg{Country: "FRA", Arrival: "2027-03-01", Departure: "2027-03-10"}),
		})
		got := condition(t, trip.Legs[0], entrycheck.ConditionPassportValidity)
		renew := strings.Contains(got.Detail, "renew")
		if got.Status != c.want || got.ActionNeeded != (c.want == entrycheck.ConditionNotMet) || renew != got.ActionNeeded {
			t.Errorf("%s passport: %s (action %v): %s; want %s", c.passport, got.Status, got.ActionNeeded, got.Detail, c.want)
		}
	}
}

// TestOnwardTicketForTheVerdict: the United States' onward-ticket rule is
// for travellers entering with an ESTA (requirement eta): a trip holds a
// British passport to it, and not an Indian one (visa required).
func TestOnwardTicketForTheVerdict(t *testing.T) {
	for _, c := range []struct {
		passport string
		holds    bool
	}{{"GBR", true}, {"IND", false}} {
		r := check(t, entrycheck.CheckRequest{Passport: c.passport, Destination: "USA"})
		rule := r.EntryRules.OnwardTicket
		if rule == nil || (rule.Applies == entrycheck.AppliesYes) != c.holds || (rule.Applies == entrycheck.AppliesYes) != (r.Requirement == entrycheck.ETA) {
			t.Errorf("%s to USA (%s): onward ticket %+v", c.passport, r.Requirement, rule)
		}
		trip := evaluateTrip(t, entrycheck.TripRequest{Traveler: passports(c.passport), Trip: legs(entrycheck.Leg{Country: "USA"})})
		cond := condition(t, trip.Legs[0], entrycheck.ConditionOnwardTicket)
		if (cond.Source != nil) != c.holds {
			t.Errorf("%s to USA: onward condition %+v", c.passport, cond)
		}
	}
}

// TestTripLegsReadPeriodsOnTheirOwnDates: Ireland's waiver for an Indian
// passport with a UK visa applies to a leg of 1 September 2026 and not to
// one of 1 December 2026, in the same trip evaluated on the same day.
func TestTripLegsReadPeriodsOnTheirOwnDates(t *testing.T) {
	req, err := evaluation.DecodeTripRequest(strings.NewReader(`{"traveler": {"passports": [{"country": "IND", "expires": "2033-01-15"}], "visas_of": ["GBR"]},
		"trip": {"legs": [{"country": "IRL", "arrival": "2026-09-01", "departure": "2026-09-05"},
		                  {"country": "IRL", "arrival": "2026-12-01", "departure": "2026-12-05"}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := datatest.Evaluator(t).EvaluateTrip(req, "", today)
	if err != nil {
		t.Fatal(err)
	}
	during, after := res.Legs[0], res.Legs[1]
	if during.ExemptionApplied == nil || during.Requirement != entrycheck.VisaFree {
		t.Errorf("leg of 2026-09-01: %s, exemption %+v; want the waiver applied", during.Requirement, during.ExemptionApplied)
	}
	if after.ExemptionApplied != nil || after.Requirement != entrycheck.VisaRequired || after.Status == entrycheck.TripReady {
		t.Errorf("leg of 2026-12-01: %s %s, exemption %+v; want visa_required, the waiver ended", after.Requirement, after.Status, after.ExemptionApplied)
	}
}
