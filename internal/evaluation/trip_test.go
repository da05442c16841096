package evaluation_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// loadTrip decodes an example request from testdata/trips.
func loadTrip(t testing.TB, name string) entrycheck.TripRequest {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "trips", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	req, err := evaluation.DecodeTripRequest(f)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return req
}

func evaluateTrip(t *testing.T, req entrycheck.TripRequest) entrycheck.TripResult {
	t.Helper()
	r, err := datatest.Evaluator(t).EvaluateTrip(req, "req_test", today)
	if err != nil {
		t.Fatalf("%+v: %v", req, err)
	}
	return r
}

func condition(t *testing.T, l entrycheck.LegDecision, kind string) entrycheck.Condition {
	t.Helper()
	for _, c := range l.Conditions {
		if c.Kind == kind {
			return c
		}
	}
	t.Fatalf("leg %d (%s) has no %s condition: %+v", l.Index, l.Country.ISO3, kind, l.Conditions)
	return entrycheck.Condition{}
}

func legs(ls ...entrycheck.Leg) entrycheck.Trip { return entrycheck.Trip{Legs: ls} }

func passports(codes ...string) entrycheck.Traveler {
	t := entrycheck.Traveler{}
	for _, c := range codes {
		country, expires, _ := strings.Cut(c, "@")
		t.Passports = append(t.Passports, entrycheck.PassportHeld{Country: country, Expires: expires})
	}
	return t
}

// reliableVerdict reports whether a requirement is a verdict the matrix
// gave, as opposed to unknown or needs_review.
func reliableVerdict(r entrycheck.Requirement) bool {
	return r != entrycheck.Unknown && r != entrycheck.NeedsReview
}

var seriousness = map[entrycheck.TripStatus]int{
	entrycheck.TripReady: 0, entrycheck.TripCheckNeeded: 1, entrycheck.TripActionNeeded: 2, entrycheck.TripUnknown: 3, entrycheck.TripNotPossible: 4,
}

// TestTripExamplesAreConsistent evaluates every example request and checks
// the properties every trip result must have: each leg's verdict is the one
// Check gives for the chosen passport, the chosen passport ranks first, the
// summary is the most serious leg status and the counts add up.
func TestTripExamplesAreConsistent(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "trips", "*.json"))
	if err != nil || len(files) < 8 {
		t.Fatalf("examples: %v, %v", files, err)
	}
	validStatus := map[entrycheck.ConditionStatus]bool{
		entrycheck.ConditionMet: true, entrycheck.ConditionNotMet: true, entrycheck.ConditionUnknown: true,
		entrycheck.ConditionNotApplicable: true, entrycheck.ConditionAdvisory: true,
	}
	for _, file := range files {
		name := filepath.Base(file)
		if name == "invalid.json" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			req := loadTrip(t, name)
			r := evaluateTrip(t, req)
			if len(r.Legs) != len(req.Trip.Legs) || r.RequestID != "req_test" || !r.EvaluatedAt.Equal(today.Now()) ||
				r.DatasetVersion != datatest.Current || r.Disclaimer == "" || len(r.Assumptions) == 0 || len(r.DefaultsApplied) == 0 {
				t.Fatalf("incomplete result: %+v", r)
			}
			worst := entrycheck.TripReady
			counts := map[entrycheck.TripStatus]int{}
			for i, l := range r.Legs {
				if l.Index != i || !strings.EqualFold(l.Country.ISO3, req.Trip.Legs[i].Country) || len(l.Why) < 2 {
					t.Errorf("leg %d: index %d, country %s, why %v", i, l.Index, l.Country.ISO3, l.Why)
				}
				c := check(t, entrycheck.CheckRequest{
					Passport: l.Passport.Country.ISO3, Destination: l.Country.ISO3, Purpose: req.Trip.Legs[i].Purpose,
					ResidencePermitsOf: req.Traveler.ResidencePermitsOf, VisasOf: req.Traveler.VisasOf,
				})
				if l.Requirement != c.Requirement || l.AllowedStayDays != c.AllowedStayDays || l.RequirementLabel != c.RequirementLabel ||
					l.VerdictVerification.Status != c.VerdictVerification.Status || l.EntryRulesVerification.Status != c.EntryRulesVerification.Status ||
					(l.Apply == nil) != (c.Apply == nil) || (l.ExemptionApplied == nil) != (c.ExemptionApplied == nil) {
					t.Errorf("leg %d: %s %v differs from Check's %s %v", i, l.Requirement, l.AllowedStayDays, c.Requirement, c.AllowedStayDays)
				}
				if l.Action != c.Action && !(l.Transit && l.Action == entrycheck.ActionNone) {
					t.Errorf("leg %d: action %s, Check says %s", i, l.Action, c.Action)
				}
				if len(l.Alternatives) != len(req.Traveler.Passports) {
					t.Errorf("leg %d: %d alternatives for %d passports", i, len(l.Alternatives), len(req.Traveler.Passports))
				}
				for _, a := range l.Alternatives {
					if a.Chosen != (a.Rank == 1) || (a.Chosen && a.Passport.Country != l.Passport.Country) {
						t.Errorf("leg %d: alternative %+v", i, a)
					}
					if a.Requirement.Rank() < l.Requirement.Rank() && a.PassportValidity != entrycheck.ConditionNotMet {
						t.Errorf("leg %d: %s passport has the easier %s but %s was chosen", i, a.Passport.Country.ISO3, a.Requirement, l.Requirement)
					}
				}
				kinds := map[string]bool{}
				for _, cond := range l.Conditions {
					kinds[cond.Kind] = true
					if !validStatus[cond.Status] || cond.Detail == "" || (cond.Status == entrycheck.ConditionNotMet && !cond.ActionNeeded) {
						t.Errorf("leg %d: condition %+v", i, cond)
					}
				}
				for _, k := range []string{entrycheck.ConditionPassportValidity, entrycheck.ConditionStayDuration, entrycheck.ConditionOnwardTicket, entrycheck.ConditionYellowFever} {
					if !kinds[k] {
						t.Errorf("leg %d lacks the %s condition", i, k)
					}
				}
				// A leg resting on an old matrix verdict is never ready:
				// only a citizen's own country and a connection a transit
				// programme covers do not rest on it.
				own := l.Passport.Country.ISO3 == l.Country.ISO3
				covered := l.Transit && l.Requirement.NeedsAction() && l.Action == entrycheck.ActionNone
				if l.VerdictVerification.Old && reliableVerdict(l.Requirement) && !own && !covered && l.Status == entrycheck.TripReady {
					t.Errorf("leg %d (%s) is ready on a verdict as of %s, old from %s", i, l.Country.ISO3, l.VerdictVerification.AsOf, l.VerdictVerification.OldFrom)
				}
				counts[l.Status]++
				if seriousness[l.Status] > seriousness[worst] {
					worst = l.Status
				}
			}
			s := r.Summary
			if s.Status != worst || s.Text == "" {
				t.Errorf("summary %s, most serious leg %s", s.Status, worst)
			}
			if s.Counts.Legs != len(r.Legs) || s.Counts.Ready != counts[entrycheck.TripReady] || s.Counts.ActionNeeded != counts[entrycheck.TripActionNeeded] || s.Counts.CheckNeeded != counts[entrycheck.TripCheckNeeded] ||
				s.Counts.NotPossible != counts[entrycheck.TripNotPossible] || s.Counts.Unknown != counts[entrycheck.TripUnknown] {
				t.Errorf("counts %+v, legs %v", s.Counts, counts)
			}
			if (s.Status == entrycheck.TripReady) != (len(s.Attention) == 0) {
				t.Errorf("status %s with attention %v", s.Status, s.Attention)
			}
			// Never ready while something is unknown.
			if s.Status == entrycheck.TripReady && s.Counts.ConditionsUnknown > 0 {
				t.Errorf("ready with %d unknown conditions", s.Counts.ConditionsUnknown)
			}
		})
	}
}

func TestTripSinglePassportMultiLeg(t *testing.T) {
	r := evaluateTrip(t, loadTrip(t, "single-passport.json"))
	// Every leg is visa-free for a German passport valid until 2032, but a
	// leg whose conditions could not all be checked makes the trip one to
	// check, and one whose verdict is old and must be confirmed makes it
	// need action.
	want, old := entrycheck.TripReady, 0
	for _, l := range r.Legs {
		if l.VerdictVerification.Confirm != "" {
			old++
		}
	}
	switch {
	case old > 0:
		want = entrycheck.TripActionNeeded
	case r.Summary.Counts.ConditionsUnknown > 0:
		want = entrycheck.TripCheckNeeded
	}
	if r.Summary.Status != want || r.Summary.Counts.ActionNeeded != old || r.Summary.Counts.NotPossible != 0 {
		t.Errorf("summary %s, want %s (%d legs on an old verdict): %v", r.Summary.Status, want, old, r.Summary.Attention)
	}
	for _, l := range r.Legs {
		if l.Passport.Country.ISO3 != "DEU" || l.Passport.Index != 0 || l.Passport.Expires == nil || !strings.Contains(l.Why[0], "only passport") {
			t.Errorf("leg %d: passport %+v, why %q", l.Index, l.Passport, l.Why[0])
		}
		if c := condition(t, l, entrycheck.ConditionPassportValidity); c.Status != entrycheck.ConditionMet && c.Status != entrycheck.ConditionUnknown {
			t.Errorf("leg %d: a passport valid until 2032 gives validity %s: %s", l.Index, c.Status, c.Detail)
		}
		if c := condition(t, l, entrycheck.ConditionStayDuration); c.Status != entrycheck.ConditionMet {
			t.Errorf("leg %d: stay %s: %s", l.Index, c.Status, c.Detail)
		}
	}
	if r.Legs[2].Purpose != entrycheck.PurposeBusiness || r.Legs[0].Purpose != entrycheck.PurposeTourism || !contains(r.Legs[2].Why, "business") {
		t.Errorf("purposes %s, %s; why %v", r.Legs[0].Purpose, r.Legs[2].Purpose, r.Legs[2].Why)
	}
	if r.Schengen != nil {
		t.Errorf("a trip outside Schengen has a Schengen account: %+v", r.Schengen)
	}
	// Onward travel: the next leg is the onward ticket; the last leg has none.
	if c := condition(t, r.Legs[0], entrycheck.ConditionOnwardTicket); c.Status != entrycheck.ConditionMet || !strings.Contains(c.Detail, "Vietnam") || c.Source == nil {
		t.Errorf("THA onward ticket with a next leg: %+v", c)
	}
	defaults := map[string][]int{}
	for _, d := range r.DefaultsApplied {
		defaults[d.Field] = d.Indexes
	}
	if got := defaults["trip.legs[].purpose"]; len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Errorf("purpose defaulted for legs %v, want [0 1]", got)
	}
	for _, f := range []string{"document_type", "trip.origin", "held_documents"} {
		if _, ok := defaults[f]; !ok {
			t.Errorf("defaults_applied lacks %s: %+v", f, r.DefaultsApplied)
		}
	}
	if _, ok := defaults["traveler.passports[].expires"]; ok {
		t.Errorf("the expiry was given but is listed as a default")
	}
}

// TestTripDualPassportPicksPerLeg: each leg takes the passport with the
// easier requirement there, as Check ranks them, and says why.
func TestTripDualPassportPicksPerLeg(t *testing.T) {
	req := loadTrip(t, "dual-passport.json")
	r := evaluateTrip(t, req)
	chosen := map[string]bool{}
	for i, l := range r.Legs {
		a := check(t, entrycheck.CheckRequest{Passport: "USA", Destination: l.Country.ISO3})
		b := check(t, entrycheck.CheckRequest{Passport: "IND", Destination: l.Country.ISO3})
		want := "USA"
		if b.Requirement.Rank() < a.Requirement.Rank() || l.Country.ISO3 == "IND" {
			want = "IND"
		}
		if l.Passport.Country.ISO3 != want {
			t.Errorf("leg %d (%s): chose %s (USA %s, IND %s), want %s", i, l.Country.ISO3, l.Passport.Country.ISO3, a.Requirement, b.Requirement, want)
		}
		if !strings.Contains(l.Why[0], "chosen over") {
			t.Errorf("leg %d: the first why does not explain the choice: %q", i, l.Why[0])
		}
		chosen[l.Passport.Country.ISO3] = true
	}
	if !chosen["USA"] || !chosen["IND"] {
		t.Errorf("the example should use both passports, used %v", chosen)
	}
	// Entering India on the Indian passport: a citizen, no visitor rules.
	in := r.Legs[2]
	if in.Passport.Country.ISO3 != "IND" || condition(t, in, entrycheck.ConditionPassportValidity).Status != entrycheck.ConditionNotApplicable {
		t.Errorf("own country: %+v", in)
	}
}

// TestTripPassportRanking covers the steps of the ranking beyond the requirement.
func TestTripPassportRanking(t *testing.T) {
	// The six-month rule of the United Arab Emirates holds for every passport.
	are := legs(entrycheck.Leg{Country: "ARE", Arrival: "2027-01-10", Departure: "2027-01-24"})
	cases := []struct {
		name      string
		traveler  entrycheck.Traveler
		trip      entrycheck.Trip
		want, why string
	}{
		// DEU and USA are both visa-free in the Emirates; the DEU passport expires too soon.
		{"validity rule first", passports("DEU@2027-03-15", "USA@2030-01-01"), are, "USA", "validity rule"},
		{"order breaks ties", passports("USA@2030-01-01", "DEU@2030-01-01"), are, "USA", "listed before"},
		{"confirmed validity before unknown", passports("DEU", "USA@2030-01-01"), are, "USA", "confirmed"},
		// FRA is visa-free without a limit for DEU (free movement), 90 days for USA.
		{"no stated limit before days", passports("USA@2030-01-01", "DEU@2030-01-01"), legs(entrycheck.Leg{Country: "FRA"}), "DEU", "longer"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := evaluateTrip(t, entrycheck.TripRequest{Traveler: c.traveler, Trip: c.trip})
			l := r.Legs[0]
			if l.Passport.Country.ISO3 != c.want || !strings.Contains(l.Why[0], c.why) {
				t.Errorf("chose %s (%q), want %s because of %q", l.Passport.Country.ISO3, l.Why[0], c.want, c.why)
			}
		})
	}
}

// TestTripSchengen90In180 counts short stays in Schengen states together
// across legs, whatever lies between them.
func TestTripSchengen90In180(t *testing.T) {
	r := evaluateTrip(t, loadTrip(t, "schengen-over-90.json"))
	sc := r.Schengen
	if sc == nil || sc.Status != entrycheck.ConditionNotMet || sc.LimitDays != 90 || sc.WindowDays != 180 || sc.Source.URL == "" {
		t.Fatalf("schengen = %+v", sc)
	}
	// Count independently: the legs in Schengen states, both ends included.
	members := map[string]bool{}
	for _, m := range datatest.Evaluator(t).Snapshot().Curated.Groups["SCHENGEN"].Members {
		members[m] = true
	}
	var counted []int
	total := 0
	var day91 string
	for _, l := range r.Legs {
		if !members[l.Country.ISO3] {
			if condition := findCondition(l, entrycheck.ConditionSchengen); condition != nil {
				t.Errorf("leg %d outside Schengen has a Schengen condition", l.Index)
			}
			continue
		}
		counted = append(counted, l.Index)
		for d := *l.Arrival; !l.Departure.Before(d); d = d.AddDays(1) {
			total++
			if total == 91 {
				day91 = d.String()
			}
		}
	}
	if len(counted) != 3 || counted[1]-counted[0] < 2 || counted[2]-counted[1] < 2 {
		t.Fatalf("the example must have three non-consecutive Schengen legs, has %v", counted)
	}
	if sc.DaysCounted != total || len(sc.Legs) != 3 || sc.ExceededOn == nil || sc.ExceededOn.String() != day91 || sc.PeakDays != total {
		t.Errorf("counted %d days, exceeded on %v, peak %d; want %d days, exceeded on %s", sc.DaysCounted, sc.ExceededOn, sc.PeakDays, total, day91)
	}
	for _, sl := range sc.Legs {
		if !sl.Counted || !sl.Days.Valid || sl.Reason == "" {
			t.Errorf("schengen leg %+v", sl)
		}
	}
	last := r.Legs[counted[2]]
	c := condition(t, last, entrycheck.ConditionSchengen)
	if c.Status != entrycheck.ConditionNotMet || !c.ActionNeeded || last.Status != entrycheck.TripActionNeeded || !strings.Contains(c.Detail, day91) {
		t.Errorf("last Schengen leg: %s %+v", last.Status, c)
	}
	for _, i := range counted {
		if !strings.Contains(c.Detail, fmt.Sprintf("leg %d (", i+1)) {
			t.Errorf("the condition does not say which legs consumed the days: %s", c.Detail)
		}
	}
	if first := condition(t, r.Legs[counted[0]], entrycheck.ConditionSchengen); first.Status != entrycheck.ConditionMet {
		t.Errorf("first Schengen leg, within the limit: %+v", first)
	}
	if r.Summary.Status != entrycheck.TripActionNeeded || !contains(r.Summary.Attention, "Schengen") {
		t.Errorf("summary %s %v", r.Summary.Status, r.Summary.Attention)
	}
}

func findCondition(l entrycheck.LegDecision, kind string) *entrycheck.Condition {
	for i := range l.Conditions {
		if l.Conditions[i].Kind == kind {
			return &l.Conditions[i]
		}
	}
	return nil
}

func TestTripSchengenWhoCounts(t *testing.T) {
	fra := entrycheck.Leg{Country: "FRA", Arrival: "2027-03-01", Departure: "2027-04-29"} // 60 days
	ita := entrycheck.Leg{Country: "ITA", Arrival: "2027-05-10", Departure: "2027-06-09"} // 31 days
	mar := entrycheck.Leg{Country: "MAR", Arrival: "2027-04-30", Departure: "2027-05-09"}
	cases := []struct {
		name     string
		traveler entrycheck.Traveler
		trip     entrycheck.Trip
		status   entrycheck.ConditionStatus
		counted  int
	}{
		{"short stays over the limit", passports("USA"), legs(fra, mar, ita), entrycheck.ConditionNotMet, 2},
		{"within the limit", passports("USA"), legs(fra, mar), entrycheck.ConditionMet, 1},
		{"windows far apart", passports("USA"), legs(fra, mar, entrycheck.Leg{Country: "ITA", Arrival: "2027-10-01", Departure: "2027-11-29"}), entrycheck.ConditionMet, 2},
		{"a Schengen passport is not limited", passports("DEU"), legs(fra, mar, ita), entrycheck.ConditionNotApplicable, 0},
		{"EU free movement outside Schengen (Ireland)", passports("IRL"), legs(fra, mar, ita), entrycheck.ConditionNotApplicable, 0},
		{"a visa sets the stay", passports("IND"), legs(fra, mar, ita), entrycheck.ConditionNotApplicable, 0},
		{"airside transit does not count", passports("USA"), legs(fra, mar, entrycheck.Leg{Country: "ITA", Arrival: "2027-05-10", Departure: "2027-06-09", Transit: true}), entrycheck.ConditionMet, 1},
		{"an undated leg leaves the count open", passports("USA"), legs(fra, mar, entrycheck.Leg{Country: "ITA"}), entrycheck.ConditionUnknown, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := evaluateTrip(t, entrycheck.TripRequest{Traveler: c.traveler, Trip: c.trip})
			sc := r.Schengen
			if sc == nil {
				t.Fatal("no Schengen account")
			}
			n := 0
			for _, sl := range sc.Legs {
				if sl.Counted {
					n++
				}
			}
			if sc.Status != c.status || n != c.counted {
				t.Errorf("status %s with %d legs counted, want %s with %d: %s", sc.Status, n, c.status, c.counted, sc.Detail)
			}
			if c.traveler.Passports[0].Country == "IND" {
				if cond := condition(t, r.Legs[0], entrycheck.ConditionSchengen); cond.Status != entrycheck.ConditionAdvisory || !strings.Contains(cond.Detail, "same 90-in-180 limit") {
					t.Errorf("visa leg: %+v", cond)
				}
			}
		})
	}
}

func TestTripYellowFeverFollowsTheItinerary(t *testing.T) {
	r := evaluateTrip(t, loadTrip(t, "yellow-fever.json"))
	tha := r.Legs[1]
	c := condition(t, tha, entrycheck.ConditionYellowFever)
	if c.Status != entrycheck.ConditionAdvisory || !c.ActionNeeded || !strings.Contains(c.Detail, "Kenya") || c.Source == nil || tha.Status != entrycheck.TripActionNeeded {
		t.Errorf("THA after KEN: %s %+v", tha.Status, c)
	}
	// Checked alone, Thailand asks nothing of a German passport.
	if y := check(t, entrycheck.CheckRequest{Passport: "DEU", Destination: "THA"}).EntryRules.YellowFever; y == nil || *y.AppliesToThisPassport {
		t.Fatalf("DEU to THA alone: %+v", y)
	}
	tha2 := func(before ...entrycheck.Leg) entrycheck.Trip {
		return legs(append(before, entrycheck.Leg{Country: "THA"})...)
	}
	cases := []struct {
		name     string
		traveler entrycheck.Traveler
		trip     entrycheck.Trip
		applies  bool
		mentions string
	}{
		{"no risk country before", passports("DEU"), tha2(entrycheck.Leg{Country: "JPN"}), false, "Japan"},
		{"arriving from a risk country through a transit", passports("DEU"), tha2(entrycheck.Leg{Country: "KEN"}, entrycheck.Leg{Country: "ARE", Transit: true}), true, "Kenya"},
		{"transiting a risk country", passports("DEU"), tha2(entrycheck.Leg{Country: "JPN"}, entrycheck.Leg{Country: "NGA", Transit: true}), true, "Nigeria"},
		{"a risk country earlier in the trip", passports("DEU"), tha2(entrycheck.Leg{Country: "NGA"}, entrycheck.Leg{Country: "JPN"}), true, "earlier"},
		{"the assumed starting point", passports("NGA"), tha2(), true, "starting point"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := evaluateTrip(t, entrycheck.TripRequest{Traveler: c.traveler, Trip: c.trip})
			y := condition(t, r.Legs[len(r.Legs)-1], entrycheck.ConditionYellowFever)
			if y.ActionNeeded != c.applies || !strings.Contains(y.Detail, c.mentions) {
				t.Errorf("applies %v (%s), want %v mentioning %q: %s", y.ActionNeeded, y.Status, c.applies, c.mentions, y.Detail)
			}
		})
	}
}

func TestTripPassportValidity(t *testing.T) {
	r := evaluateTrip(t, loadTrip(t, "passport-expiring.json"))
	l := r.Legs[0]
	// Thailand's rule is documented for British travellers: it holds for GBR.
	rule := check(t, entrycheck.CheckRequest{Passport: "GBR", Destination: "THA"}).EntryRules.PassportValidity
	if rule == nil || rule.Applies != entrycheck.AppliesYes || rule.Value.CountedFrom == nil || *rule.Value.CountedFrom != "entry" {
		t.Fatalf("Thailand's rule is no longer counted from entry: %+v", rule)
	}
	needed := entrycheck.DateOf(l.Arrival.Time().AddDate(0, *rule.Value.MinMonthsRemaining, 0))
	c := condition(t, l, entrycheck.ConditionPassportValidity)
	if c.Status != entrycheck.ConditionNotMet || !c.ActionNeeded || !strings.Contains(c.Detail, needed.String()) || c.Source == nil {
		t.Errorf("validity: %+v, want not_met naming %s", c, needed)
	}
	if l.Status != entrycheck.TripActionNeeded || r.Summary.Status != entrycheck.TripActionNeeded || l.Alternatives[0].PassportValidity != entrycheck.ConditionNotMet {
		t.Errorf("leg %s, summary %s", l.Status, r.Summary.Status)
	}

	tha := func(expires, arrival, departure string) entrycheck.TripRequest {
		return entrycheck.TripRequest{
			Traveler: entrycheck.Traveler{Passports: []entrycheck.PassportHeld{{Country: "GBR", Expires: expires}}},
			Trip:     legs(entrycheck.Leg{Country: "THA", Arrival: arrival, Departure: departure}),
		}
	}
	// USA passport in France then Germany: the Schengen rule counts from leaving the area.
	schengen := func(expires string) entrycheck.TripRequest {
		return entrycheck.TripRequest{
			Traveler: entrycheck.Traveler{Passports: []entrycheck.PassportHeld{{Country: "USA", Expires: expires}}},
			Trip: legs(entrycheck.Leg{Country: "FRA", Arrival: "2027-03-01", Departure: "2027-03-10"},
				entrycheck.Leg{Country: "DEU", Arrival: "2027-03-10", Departure: "2027-04-30"}),
		}
	}
	// Turkey counts from the end of the permitted stay (90 days for DEU:
	// 2027-01-10 to 2027-04-09), Kenya does not say from which day.
	at := func(country, expires string) entrycheck.TripRequest {
		r := tha(expires, "2027-01-10", "2027-01-20")
		r.Trip.Legs[0].Country = country
		r.Traveler.Passports[0].Country = "DEU"
		return r
	}
	cases := []struct {
		name string
		req  entrycheck.TripRequest
		want entrycheck.ConditionStatus
	}{
		{"end of permitted stay, exactly", at("TUR", "2027-06-09"), entrycheck.ConditionMet},
		{"end of permitted stay, a day short", at("TUR", "2027-06-08"), entrycheck.ConditionNotMet},
		{"unstated basis, enough either way", at("KEN", "2027-07-20"), entrycheck.ConditionMet},
		{"unstated basis, enough from entry only", at("KEN", "2027-07-15"), entrycheck.ConditionUnknown},
		{"unstated basis, short either way", at("KEN", "2027-07-09"), entrycheck.ConditionNotMet},
		{"exactly six months", tha(needed.String(), "2027-01-10", "2027-01-24"), entrycheck.ConditionMet},
		{"a day short", tha(needed.AddDays(-1).String(), "2027-01-10", "2027-01-24"), entrycheck.ConditionNotMet},
		{"expired before arrival", tha("2026-12-31", "2027-01-10", "2027-01-24"), entrycheck.ConditionNotMet},
		{"no expiry given", tha("", "2027-01-10", "2027-01-24"), entrycheck.ConditionUnknown},
		{"no dates given", tha("2027-05-01", "", ""), entrycheck.ConditionUnknown},
		{"leaving Schengen after the later leg", schengen("2027-07-15"), entrycheck.ConditionNotMet},
		{"valid past leaving Schengen", schengen("2027-07-30"), entrycheck.ConditionMet},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := evaluateTrip(t, c.req)
			got := condition(t, r.Legs[0], entrycheck.ConditionPassportValidity)
			if got.Status != c.want || (got.Status == entrycheck.ConditionNotMet) != got.ActionNeeded {
				t.Errorf("= %s (action %v): %s; want %s", got.Status, got.ActionNeeded, got.Detail, c.want)
			}
			if c.req.Traveler.Passports[0].Expires == "" && !strings.Contains(got.Detail, "/traveler/passports/0/expires") {
				t.Errorf("an unknown expiry does not say how to give it: %s", got.Detail)
			}
		})
	}
}

func TestTripStayDuration(t *testing.T) {
	cases := []struct {
		departure string
		want      entrycheck.ConditionStatus
	}{
		{"2027-03-10", entrycheck.ConditionMet},    // 60 days, the limit
		{"2027-03-11", entrycheck.ConditionNotMet}, // 61 days
	}
	for _, c := range cases {
		r := evaluateTrip(t, entrycheck.TripRequest{Traveler: passports("DEU"), Trip: legs(entrycheck.Leg{Country: "THA", Arrival: "2027-01-10", Departure: c.departure})})
		if got := condition(t, r.Legs[0], entrycheck.ConditionStayDuration); got.Status != c.want {
			t.Errorf("THA until %s: %s, want %s: %s", c.departure, got.Status, c.want, got.Detail)
		}
	}
}

// TestTripStatusPrecedence: an unknown leg makes the trip unknown, unless a
// leg admits none of the passports; nothing is hidden from the counts.
func TestTripStatusPrecedence(t *testing.T) {
	r := evaluateTrip(t, loadTrip(t, "unknown-leg.json"))
	pri := r.Legs[1]
	if pri.Requirement != entrycheck.Unknown || pri.Status != entrycheck.TripUnknown || pri.Action != entrycheck.ActionCheckOfficialAuthority {
		t.Errorf("PRI leg: %s %s %s", pri.Requirement, pri.Status, pri.Action)
	}
	// The Thai leg has a reliable verdict: ready, to check, or needing
	// action (its verdict may be old), but not unknown.
	if r.Summary.Status != entrycheck.TripUnknown || r.Summary.Counts.Unknown != 1 || r.Summary.Counts.Ready+r.Summary.Counts.CheckNeeded+r.Summary.Counts.ActionNeeded != 1 || !contains(r.Summary.Attention, "Puerto Rico") {
		t.Errorf("summary %+v", r.Summary)
	}
	cases := []struct {
		name     string
		traveler entrycheck.Traveler
		trip     entrycheck.Trip
		want     entrycheck.TripStatus
		leg      entrycheck.TripStatus // of the first leg
	}{
		{"unknown beats action needed", passports("GBR"), legs(entrycheck.Leg{Country: "USA"}, entrycheck.Leg{Country: "PRI"}), entrycheck.TripUnknown, entrycheck.TripActionNeeded},
		{"not possible beats unknown", passports("ISR"), legs(entrycheck.Leg{Country: "IRN"}, entrycheck.Leg{Country: "PRI"}), entrycheck.TripNotPossible, entrycheck.TripNotPossible},
		{"no admission with an unknown passport is unknown", passports("ISR", "PRI"), legs(entrycheck.Leg{Country: "IRN"}), entrycheck.TripUnknown, entrycheck.TripUnknown},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := evaluateTrip(t, entrycheck.TripRequest{Traveler: c.traveler, Trip: c.trip})
			if r.Summary.Status != c.want || r.Legs[0].Status != c.leg {
				t.Errorf("summary %s, first leg %s; want %s, %s", r.Summary.Status, r.Legs[0].Status, c.want, c.leg)
			}
		})
	}
	// Needs review is unknown: USA to BRA conflicts with an official
	// statement in the previous snapshot.
	r, err := datatest.EvaluatorOf(t, datatest.Previous).EvaluateTrip(entrycheck.TripRequest{Traveler: passports("USA"), Trip: legs(entrycheck.Leg{Country: "BRA"})}, "req_test", today)
	if err != nil {
		t.Fatal(err)
	}
	if r.Summary.Status != entrycheck.TripUnknown || r.Legs[0].Status != entrycheck.TripUnknown || r.Summary.Counts.NeedsReview != 1 || r.Summary.Counts.Unknown != 1 {
		t.Errorf("needs_review: summary %s, first leg %s, counts %+v; want unknown, unknown, one needs_review", r.Summary.Status, r.Legs[0].Status, r.Summary.Counts)
	}
}

func TestTripTransitLegs(t *testing.T) {
	r := evaluateTrip(t, loadTrip(t, "transit.json"))
	sgp := r.Legs[0]
	direct := check(t, entrycheck.CheckRequest{Passport: "IND", Destination: "SGP"})
	c := condition(t, sgp, entrycheck.ConditionTransit)
	if !direct.Requirement.NeedsAction() || sgp.Requirement != direct.Requirement || sgp.Action != entrycheck.ActionNone || sgp.Status != entrycheck.TripReady || c.Status != entrycheck.ConditionAdvisory || c.Source == nil {
		t.Errorf("IND through SGP: %s %s %s, transit %+v", sgp.Requirement, sgp.Action, sgp.Status, c)
	}
	eligible := false
	for _, p := range sgp.TransitPrograms {
		eligible = eligible || (p.EligibleForThisPassport != nil && *p.EligibleForThisPassport)
	}
	if !eligible || condition(t, sgp, entrycheck.ConditionStayDuration).Status != entrycheck.ConditionNotApplicable {
		t.Errorf("programmes %+v", sgp.TransitPrograms)
	}
	// A connection longer than a programme's 96 hours is not covered: the
	// facility for CIS nationals has that limit (the Indian one records none).
	long := loadTrip(t, "transit.json")
	long.Traveler.Passports[0].Country = "KAZ"
	long.Trip.Legs[0].Departure, long.Trip.Legs[1].Arrival = "2027-07-06", "2027-07-06"
	r = evaluateTrip(t, long)
	if l := r.Legs[0]; l.Action != entrycheck.ActionApplyBeforeTravel || condition(t, l, entrycheck.ConditionTransit).Status != entrycheck.ConditionNotMet {
		t.Errorf("five-day transit: %s %+v", l.Action, l.Conditions)
	}
	// Visa-free entry needs no programme.
	r = evaluateTrip(t, entrycheck.TripRequest{Traveler: passports("DEU"), Trip: legs(entrycheck.Leg{Country: "SGP", Transit: true}, entrycheck.Leg{Country: "AUS"})})
	if c := condition(t, r.Legs[0], entrycheck.ConditionTransit); c.Status != entrycheck.ConditionNotApplicable {
		t.Errorf("DEU through SGP: %+v", c)
	}
	found := false
	for _, d := range r.DefaultsApplied {
		found = found || (d.Field == "trip.legs[].transit" && d.Value == "airside" && len(d.Indexes) == 1 && d.Indexes[0] == 0)
	}
	if !found {
		t.Errorf("the airside assumption is not listed: %+v", r.DefaultsApplied)
	}
}

// TestTripDefaultsListEverythingAssumed: a bare request lists every default.
func TestTripDefaultsListEverythingAssumed(t *testing.T) {
	r := evaluateTrip(t, entrycheck.TripRequest{Traveler: passports("DEU"), Trip: legs(entrycheck.Leg{Country: "THA"}, entrycheck.Leg{Country: "JPN"})})
	fields := map[string]bool{}
	for _, d := range r.DefaultsApplied {
		fields[d.Field] = true
		if d.Reason == "" || d.Value == "" {
			t.Errorf("default without value or reason: %+v", d)
		}
	}
	for _, f := range []string{"trip.legs[].purpose", "document_type", "stay_type", "travel_date", "trip.legs[].arrival", "trip.legs[].departure", "traveler.passports[].expires", "trip.origin", "held_documents"} {
		if !fields[f] {
			t.Errorf("defaults_applied lacks %s", f)
		}
	}
	if r.Summary.Counts.ConditionsUnknown == 0 || !strings.Contains(r.Summary.Text, "could not be checked") {
		t.Errorf("unchecked conditions are not admitted in the summary: %+v", r.Summary)
	}
}

func TestTripJSONIsStableAndSnakeCase(t *testing.T) {
	ev := datatest.Evaluator(t)
	req := loadTrip(t, "ten-legs-three-passports.json")
	var out [2][]byte
	for i := range out {
		r, err := ev.EvaluateTrip(req, "req_fixed", today)
		if err != nil {
			t.Fatal(err)
		}
		if out[i], err = json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Error("the same request and clock give different JSON")
	}
	var m map[string]any
	if err := json.Unmarshal(out[0], &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"summary", "legs", "schengen", "defaults_applied", "assumptions", "dataset_version", "evaluated_at", "request_id", "disclaimer"} {
		if _, ok := m[k]; !ok {
			t.Errorf("result lacks %s", k)
		}
	}
	leg := m["legs"].([]any)[0].(map[string]any)
	for _, k := range []string{"index", "country", "passport", "requirement", "requirement_label", "allowed_stay_days", "action", "why", "conditions", "verdict_verification", "entry_rules_verification", "alternatives", "status"} {
		if _, ok := leg[k]; !ok {
			t.Errorf("leg lacks %s", k)
		}
	}
}

func TestDecodeTripRequestForms(t *testing.T) {
	req, err := evaluation.DecodeTripRequest(strings.NewReader(`{"traveler": {"passports": ["deu", {"country": "USA", "expires": "2030-01-31"}, null]}, "trip": {"legs": [{"country": "THA", "transit": false}]}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []entrycheck.PassportHeld{{Country: "deu"}, {Country: "USA", Expires: "2030-01-31"}, {}}
	if len(req.Traveler.Passports) != 3 || req.Traveler.Passports[0] != want[0] || req.Traveler.Passports[1] != want[1] || req.Traveler.Passports[2] != want[2] {
		t.Errorf("passports %+v", req.Traveler.Passports)
	}
}

// TestInvalidTripRequests lists every problem of a bad body, each at its JSON pointer.
func TestInvalidTripRequests(t *testing.T) {
	type want struct{ field, code string }
	many := func(n int, item string) string { return strings.TrimSuffix(strings.Repeat(item+",", n), ",") }
	leg := `{"country": "THA"}`
	cases := []struct {
		name string
		body string
		want []want
	}{
		{"empty body", ``, []want{{"", entrycheck.ProblemMissing}}},
		{"not JSON", `{"traveler": {"passports": ["DEU"]}, "trip": {"legs": [{"country": "THA",]}}`, []want{{"/trip/legs/0", entrycheck.ProblemMalformedBody}}},
		{"cut short", `{"traveler": {"passports": ["DEU"]}, "trip": {"legs": [`, []want{{"/trip/legs", entrycheck.ProblemMalformedBody}}},
		{"two objects", `{"traveler": {"passports": ["DEU"]}, "trip": {"legs": [` + leg + `]}} {}`, []want{{"", entrycheck.ProblemTrailingData}}},
		{"not an object", `["DEU"]`, []want{{"", entrycheck.ProblemWrongType}}},
		{"too large", `{"traveler": {"passports": ["DEU"]}, "trip": {"legs": [` + leg + `]}}` + strings.Repeat(" ", entrycheck.MaxTripBodyBytes), []want{{"", entrycheck.ProblemBodyTooLarge}}},
		{"unknown fields, all of them", `{"traveller": {}, "trip": {"legs": [{"country": "THA", "arival": "2027-01-01"}]}, "traveler": {"passports": [{"country": "DEU", "expiry": "2030-01-01"}]}}`,
			[]want{{"/traveller", entrycheck.ProblemUnknownField}, {"/trip/legs/0/arival", entrycheck.ProblemUnknownField}, {"/traveler/passports/0/expiry", entrycheck.ProblemUnknownField}}},
		{"wrong types, all of them", `{"traveler": {"passports": [42], "visas_of": "USA"}, "trip": {"legs": [{"country": "THA", "transit": "yes"}]}}`,
			[]want{{"/traveler/passports/0", entrycheck.ProblemWrongType}, {"/traveler/visas_of", entrycheck.ProblemWrongType}, {"/trip/legs/0/transit", entrycheck.ProblemWrongType}}},
		{"pointer escaping", `{"trip": {"a/b~c": 1}}`, []want{{"/trip/a~1b~0c", entrycheck.ProblemUnknownField}}},
		{"nothing given", `{}`, []want{{"/traveler/passports", entrycheck.ProblemMissing}, {"/trip/legs", entrycheck.ProblemMissing}}},
		{"too many passports and legs", `{"traveler": {"passports": [` + many(entrycheck.MaxTripPassports+1, `"DEU"`) + `]}, "trip": {"legs": [` + many(entrycheck.MaxTripLegs+1, leg) + `]}}`,
			// the first five passports are examined too: the same passport five times
			[]want{{"/traveler/passports", entrycheck.ProblemTooMany}, {"/traveler/passports/1", entrycheck.ProblemDuplicatePassport}, {"/traveler/passports/2", entrycheck.ProblemDuplicatePassport},
				{"/traveler/passports/3", entrycheck.ProblemDuplicatePassport}, {"/traveler/passports/4", entrycheck.ProblemDuplicatePassport}, {"/trip/legs", entrycheck.ProblemTooMany}}},
		{"too many held documents", `{"traveler": {"passports": ["DEU"], "visas_of": [` + many(entrycheck.MaxHeldDocuments+1, `"USA"`) + `]}, "trip": {"legs": [` + leg + `]}}`,
			[]want{{"/traveler/visas_of", entrycheck.ProblemTooMany}}},
		{"codes", `{"traveler": {"passports": ["G3R", {"country": "GER"}], "residence_permits_of": ["SCHENGEN", ""]}, "trip": {"legs": [{"country": ""}, {}]}}`,
			[]want{{"/traveler/passports/0", entrycheck.ProblemMalformedCode}, {"/traveler/passports/1", entrycheck.ProblemUnknownCode},
				{"/traveler/residence_permits_of/1", entrycheck.ProblemMissing}, {"/trip/legs/0/country", entrycheck.ProblemMissing}, {"/trip/legs/1/country", entrycheck.ProblemMissing}}},
		{"dates", `{"traveler": {"passports": [{"country": "DEU", "expires": "31.12.2030"}]}, "trip": {"legs": [
			{"country": "THA", "arrival": "2027-02-30"},
			{"country": "VNM", "arrival": "2027-03-10", "departure": "2027-03-01"},
			{"country": "JPN", "departure": "2027-03-05"}]}}`,
			[]want{{"/traveler/passports/0/expires", entrycheck.ProblemInvalidDate}, {"/trip/legs/0/arrival", entrycheck.ProblemInvalidDate},
				{"/trip/legs/1/departure", entrycheck.ProblemDepartureBeforeArrival}, {"/trip/legs/2/departure", entrycheck.ProblemLegsOutOfOrder}}},
		{"purpose", `{"traveler": {"passports": ["DEU"]}, "trip": {"legs": [{"country": "THA", "purpose": "study"}, {"country": "JPN", "purpose": "Business"}]}}`,
			[]want{{"/trip/legs/0/purpose", entrycheck.ProblemUnsupportedPurpose}}},
		{"the invalid example", "", []want{
			{"/traveler/passports/0", entrycheck.ProblemUnknownCode}, {"/traveler/passports/1/expires", entrycheck.ProblemInvalidDate},
			{"/traveler/passports/2", entrycheck.ProblemDuplicatePassport}, {"/traveler/visas_of/1", entrycheck.ProblemMalformedCode},
			{"/trip/legs/0/departure", entrycheck.ProblemDepartureBeforeArrival}, {"/trip/legs/0/purpose", entrycheck.ProblemUnsupportedPurpose},
			{"/trip/legs/1/country", entrycheck.ProblemMissing}, {"/trip/legs/2/arrival", entrycheck.ProblemLegsOutOfOrder}}},
	}
	ev := datatest.Evaluator(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := c.body
			if c.name == "the invalid example" {
				b, err := os.ReadFile(filepath.Join("testdata", "trips", "invalid.json"))
				if err != nil {
					t.Fatal(err)
				}
				body = string(b)
			}
			req, err := evaluation.DecodeTripRequest(strings.NewReader(body))
			if err == nil {
				err = ev.ValidateTrip(req)
				if _, evalErr := ev.EvaluateTrip(req, "", today); (evalErr == nil) != (err == nil) {
					t.Fatalf("ValidateTrip says %v, EvaluateTrip %v", err, evalErr)
				}
			}
			var e *entrycheck.Error
			if !errors.As(err, &e) || e.Code != entrycheck.EINVALID {
				t.Fatalf("error %v, want EINVALID", err)
			}
			got := make([]want, len(e.Problems))
			for i, p := range e.Problems {
				got[i] = want{p.Field, p.Code}
				if p.Message == "" {
					t.Errorf("problem without a message: %+v", p)
				}
			}
			if len(got) != len(c.want) {
				t.Fatalf("problems %v, want %v\n%v", got, c.want, e)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Errorf("problem %d = %v, want %v (%s)", i, got[i], c.want[i], e.Problems[i].Message)
				}
			}
		})
	}
	// Country codes get the same suggestions as in Check.
	req, _ := evaluation.DecodeTripRequest(strings.NewReader(`{"traveler": {"passports": ["GER"]}, "trip": {"legs": [{"country": "UK"}]}}`))
	err := ev.ValidateTrip(req)
	var e *entrycheck.Error
	if !errors.As(err, &e) || len(e.Problems) != 2 || len(e.Problems[0].Suggestions) == 0 || e.Problems[0].Suggestions[0].ISO3 != "DEU" ||
		len(e.Problems[1].Suggestions) == 0 || e.Problems[1].Suggestions[0].ISO3 != "GBR" {
		t.Errorf("suggestions: %+v", err)
	}
}

// TestTripLongStaysStayCheap: a stay of thousands of years is counted in
// bounded time and reported as over the limit.
func TestTripLongStaysStayCheap(t *testing.T) {
	r := evaluateTrip(t, entrycheck.TripRequest{Traveler: passports("USA"), Trip: legs(
		entrycheck.Leg{Country: "FRA", Arrival: "0001-01-01", Departure: "9999-12-31"},
	)})
	sc := r.Schengen
	if sc == nil || sc.Status != entrycheck.ConditionNotMet || sc.ExceededOn == nil || sc.ExceededOn.String() != "0001-04-01" || sc.PeakDays != 180 {
		t.Errorf("schengen = %+v", sc)
	}
	if c := condition(t, r.Legs[0], entrycheck.ConditionStayDuration); c.Status != entrycheck.ConditionNotMet {
		t.Errorf("stay: %+v", c)
	}
}

// TestTripConcurrent: evaluations share the evaluator and nothing else.
func TestTripConcurrent(t *testing.T) {
	ev := datatest.Evaluator(t)
	req := loadTrip(t, "ten-legs-three-passports.json")
	want, err := ev.EvaluateTrip(req, "req_same", today)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON, _ := json.Marshal(want)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			r, err := ev.EvaluateTrip(req, "req_same", today)
			if err == nil {
				if b, _ := json.Marshal(r); !bytes.Equal(b, wantJSON) {
					err = fmt.Errorf("a concurrent evaluation differs")
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// TestTripsConcurrently: evaluations running at once share the evaluator;
// each answer must be what it is alone.
func TestTripsConcurrently(t *testing.T) {
	ev := datatest.Evaluator(t)
	names := []string{"dual-passport.json", "schengen-over-90.json", "ten-legs-three-passports.json", "transit.json", "yellow-fever.json"}
	want := map[string]string{}
	for _, n := range names {
		res, err := ev.EvaluateTrip(loadTrip(t, n), "req_concurrent", today)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res)
		want[n] = string(b)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 50 {
				n := names[(g+i)%len(names)]
				res, err := ev.EvaluateTrip(loadTrip(t, n), "req_concurrent", today)
				if b, _ := json.Marshal(res); err != nil || string(b) != want[n] {
					errs <- n
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for n := range errs {
		t.Errorf("%s differs when evaluated concurrently", n)
	}
}

// TestTripNeverReadyWithUnknowns: the dual-passport example has conditions
// that could not be checked and a leg to a destination whose rules are not
// curated (Bhutan): its summary is check_needed (action_needed when a leg
// also needs action, such as confirming an old verdict), not ready, and
// names each of them as something to check.
func TestTripNeverReadyWithUnknowns(t *testing.T) {
	r := evaluateTrip(t, loadTrip(t, "dual-passport.json"))
	s := r.Summary
	want := entrycheck.TripCheckNeeded
	if s.Counts.ActionNeeded > 0 {
		want = entrycheck.TripActionNeeded
	}
	if s.Status != want || s.Counts.CheckNeeded == 0 || s.Counts.ConditionsUnknown == 0 || !strings.Contains(s.Text, "could not be checked") {
		t.Fatalf("summary %s (%d unknown conditions): %s", s.Status, s.Counts.ConditionsUnknown, s.Text)
	}
	unknown := 0
	for _, l := range r.Legs {
		for _, c := range l.Conditions {
			if c.Status != entrycheck.ConditionUnknown {
				continue
			}
			unknown++
			if !contains(s.Attention, c.Detail) {
				t.Errorf("leg %d (%s): the unknown %s condition is not in attention", l.Index, l.Country.Name, c.Kind)
			}
			if l.Status == entrycheck.TripReady {
				t.Errorf("leg %d (%s) is ready with an unknown %s condition", l.Index, l.Country.Name, c.Kind)
			}
		}
		if l.Coverage != entrycheck.CoverageExtended && l.Passport.Country.ISO3 != l.Country.ISO3 &&
			(l.Status == entrycheck.TripReady || !contains(s.Attention, "no entry rule of "+l.Country.Name+" could be cited")) {
			t.Errorf("leg %d (%s) is not curated but %s, attention %v", l.Index, l.Country.Name, l.Status, s.Attention)
		}
	}
	if unknown != s.Counts.ConditionsUnknown || !contains(s.Attention, "Bhutan") {
		t.Errorf("%d unknown conditions, counted %d; attention %v", unknown, s.Counts.ConditionsUnknown, s.Attention)
	}
}

// TestTripTextsWriteDatesAsDateString: dates in a trip's texts read as
// Date.String writes them, four-digit years included.
func TestTripTextsWriteDatesAsDateString(t *testing.T) {
	for _, d := range []entrycheck.Date{{Year: 1, Month: 4, Day: 1}, {Year: 2027, Month: 12, Day: 31}, {Year: 999, Month: 1, Day: 9}} {
		r := evaluateTrip(t, entrycheck.TripRequest{Traveler: passports("USA@" + d.String()), Trip: legs(
			entrycheck.Leg{Country: "THA", Arrival: "2027-01-10", Departure: "2027-01-20"},
		)})
		if c := condition(t, r.Legs[0], entrycheck.ConditionPassportValidity); !strings.Contains(c.Detail, " expires on "+d.String()) && !strings.Contains(c.Detail, "expiring on "+d.String()) {
			t.Errorf("%s: %s", d, c.Detail)
		}
	}
}

// TestTripRanksExemptionsForEachPassport: ranking a leg's passports reads a
// held-document exemption for the passport it ranks, as the full check
// does, so an exemption limited to some nationalities neither helps the
// others nor is lost for those it names. Every option agrees with GET
// /free/check of its own passport.
func TestTripRanksExemptionsForEachPassport(t *testing.T) {
	ev := datatest.Evaluator(t)
	for _, codes := range [][]string{{"PAK", "IND"}, {"IND", "PAK"}, {"MKD", "BLZ"}, {"NGA", "CHN", "IND"}} {
		traveler := passports(codes...)
		traveler.VisasOf = []string{"GBR"}
		r := evaluateTrip(t, entrycheck.TripRequest{Traveler: traveler, Trip: legs(entrycheck.Leg{Country: "IRL"})})
		l := r.Legs[0]
		if len(l.Alternatives) != len(codes) {
			t.Fatalf("%v: %d options listed, want every passport", codes, len(l.Alternatives))
		}
		for _, o := range l.Alternatives {
			iso3 := o.Passport.Country.ISO3
			want, err := ev.Check(entrycheck.CheckRequest{Passport: iso3, Destination: "IRL", VisasOf: []string{"GBR"}}, entrycheck.FixedClock(today))
			if err != nil {
				t.Fatal(err)
			}
			if o.Requirement != want.Requirement || o.ExemptionApplied != (want.ExemptionApplied != nil) {
				t.Errorf("%v to IRL with a UK visa: %s ranked as %s (exemption %v), its check says %s (exemption %v)",
					codes, iso3, o.Requirement, o.ExemptionApplied, want.Requirement, want.ExemptionApplied != nil)
			}
			if o.Chosen && (o.Requirement != l.Requirement || iso3 != l.Passport.Country.ISO3) {
				t.Errorf("%v: the chosen option %s %s is not the leg's %s %s", codes, iso3, o.Requirement, l.Passport.Country.ISO3, l.Requirement)
			}
		}
	}
}

// authorityFor is what an old verdict of destination asks the traveller to
// confirm it with, read from the curated layer as the destination answer
// gives it: the official page for every passport (information first), or
// none.
func authorityFor(t *testing.T, destination string, r entrycheck.Requirement) *entrycheck.Apply {
	t.Helper()
	d, err := datatest.Evaluator(t).Destination(destination, today.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{entrycheck.ApplyOfficialInfo, entrycheck.ApplyOfficialPortal} {
		for _, a := range d.Apply {
			if a.Kind == kind && a.AppliesTo == nil && (kind == entrycheck.ApplyOfficialInfo || slices.Contains(a.Requirements, r)) {
				return &a.Apply
			}
		}
	}
	return nil
}

// TestTripLegWithOldVerdictIsNeverReady: at the test clock the snapshot is
// older than VerdictOldAfterDays, so a trip to Japan in 2027 on a British
// passport, visa-free and otherwise in order, needs action: its verdict
// must be confirmed with Japan's official authority, named by the curated
// page, and the summary says so. Evaluated while the snapshot is young, the
// same trip has no such condition.
func TestTripLegWithOldVerdictIsNeverReady(t *testing.T) {
	req := entrycheck.TripRequest{Traveler: passports("GBR@2031-01-01"), Trip: legs(entrycheck.Leg{Country: "JPN", Arrival: "2027-03-01", Departure: "2027-03-10"})}
	r := evaluateTrip(t, req)
	l := r.Legs[0]
	if !l.VerdictVerification.Old || l.Requirement != entrycheck.VisaFree {
		t.Fatalf("GBR to JPN at the test clock: %s, old %v (old from %s); the test needs an old visa-free verdict", l.Requirement, l.VerdictVerification.Old, l.VerdictVerification.OldFrom)
	}
	if l.Status != entrycheck.TripActionNeeded || r.Summary.Status != entrycheck.TripActionNeeded {
		t.Errorf("leg %s, trip %s; want action_needed for an old verdict: %v", l.Status, r.Summary.Status, r.Summary.Attention)
	}
	c := condition(t, l, entrycheck.ConditionVerdictAge)
	direct := check(t, entrycheck.CheckRequest{Passport: "GBR", Destination: "JPN", TravelDate: entrycheck.Date{Year: 2027, Month: 3, Day: 1}})
	page := authorityFor(t, "JPN", entrycheck.VisaFree)
	if page == nil {
		t.Fatal("JPN has no curated official page for every passport; the test needs one to be named")
	}
	if !c.ActionNeeded || c.Detail != direct.VerdictVerification.Confirm || c.Detail != entrycheck.OldVerdictWordsIn(entrycheck.English(), l.VerdictVerification.AsOf, "Japan", page) ||
		!strings.Contains(c.Detail, page.URL) || !strings.Contains(c.Detail, "confirm it with the official authority of Japan before you travel") {
		t.Errorf("verdict_age condition %+v; the check says %q", c, direct.VerdictVerification.Confirm)
	}
	if !contains(r.Summary.Attention, c.Detail) {
		t.Errorf("the summary's attention does not ask to confirm the verdict: %v", r.Summary.Attention)
	}
	if !strings.Contains(r.Summary.Text, "The verdict of leg 1 (Japan) is older than 180 days and may have changed: confirm it with the official authority of Japan") {
		t.Errorf("the summary does not say the verdict must be confirmed: %q", r.Summary.Text)
	}
	// Before old_from the verdict is young: no condition, and the leg is
	// what its other conditions make it.
	young, err := datatest.Evaluator(t).EvaluateTrip(req, "req_test", entrycheck.FixedClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)))
	if err != nil {
		t.Fatal(err)
	}
	if yl := young.Legs[0]; yl.VerdictVerification.Old || yl.VerdictVerification.Confirm != "" {
		t.Fatalf("GBR to JPN on 1 March 2026 is old: %+v", yl.VerdictVerification)
	}
	for _, yc := range young.Legs[0].Conditions {
		if yc.Kind == entrycheck.ConditionVerdictAge {
			t.Errorf("a young verdict has a verdict_age condition: %+v", yc)
		}
	}
}

// TestOldVerdictAsksForConfirmation: every check whose matrix verdict is
// old ends its action sentence with the confirmation, naming the
// destination's curated official page or, without one, its embassy,
// consulate or immigration service; a citizen's own country and a route
// without a reliable verdict have none.
func TestOldVerdictAsksForConfirmation(t *testing.T) {
	for _, c := range []struct {
		passport, destination string
		confirm               bool
	}{
		{"GBR", "JPN", true}, {"DEU", "THA", true}, {"IND", "USA", true}, {"DEU", "BTN", true}, {"ISR", "IRN", true},
		{"JPN", "JPN", false}, {"PRI", "IRN", false},
	} {
		r := check(t, entrycheck.CheckRequest{Passport: c.passport, Destination: c.destination})
		confirm := r.VerdictVerification.Confirm
		if !r.VerdictVerification.Old {
			t.Fatalf("%s to %s is not old at the test clock", c.passport, c.destination)
		}
		if (confirm != "") != c.confirm {
			t.Errorf("%s to %s (%s): confirm %q, want one: %v", c.passport, c.destination, r.Requirement, confirm, c.confirm)
			continue
		}
		if !c.confirm {
			if strings.Contains(r.ActionSentence(), "more than") {
				t.Errorf("%s to %s: %q", c.passport, c.destination, r.ActionSentence())
			}
			continue
		}
		want := entrycheck.OldVerdictWordsIn(entrycheck.English(), r.VerdictVerification.AsOf, r.Destination.Name, authorityFor(t, c.destination, r.Requirement))
		if confirm != want || !strings.HasSuffix(r.ActionSentence(), " "+want) || !strings.HasPrefix(r.ActionSentence(), r.Action.Sentence(r.Requirement, false)) {
			t.Errorf("%s to %s: action %q, want it to end with %q", c.passport, c.destination, r.ActionSentence(), want)
		}
		// Without a curated page, no address is guessed.
		if page := authorityFor(t, c.destination, r.Requirement); page == nil && strings.Contains(confirm, "://") {
			t.Errorf("%s has no curated page, but the confirmation names one: %q", c.destination, confirm)
		}
	}
}
