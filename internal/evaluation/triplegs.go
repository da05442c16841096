package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// tripLeg is a planned leg with what assessing it needs of the rest of the
// itinerary.
type tripLeg struct {
	plannedLeg
	// name is how texts name the leg, in the language of the answer: "leg
	// 2 (Kenya)", numbered from 1 as people count.
	name string
	// next names the following leg; "" for the last one.
	next string
	// schengen is true in a Schengen state; areaDeparture is then the
	// departure of the last of the consecutive Schengen legs, the day the
	// traveller leaves the area (nil when not given).
	schengen      bool
	areaDeparture *entrycheck.Date
}

// tripLegs is the first stage: each planned leg in its place in the
// itinerary, named in the language of w.
func (e *Evaluator) tripLegs(w *words, plan tripPlan) []tripLeg {
	legs := make([]tripLeg, len(plan.legs))
	for i, l := range plan.legs {
		legs[i] = tripLeg{
			plannedLeg: l,
			name:       legName(w, l.index, l.country),
			schengen:   e.destination(l.country.ISO3).schengen,
		}
		if i > 0 {
			legs[i-1].next = legs[i].name
		}
	}
	// The area is left on the departure of the last leg of a Schengen run.
	for i := len(legs) - 1; i >= 0; i-- {
		if !legs[i].schengen {
			continue
		}
		legs[i].areaDeparture = legs[i].departure
		if i+1 < len(legs) && legs[i+1].schengen {
			legs[i].areaDeparture = legs[i+1].areaDeparture
		}
	}
	return legs
}

// legName names the leg of index in a sentence: "leg 2 (Kenya)".
func legName(w *words, index int, c entrycheck.Country) string {
	return w.Text("trip.leg", "number", w.Number(index+1), "country", w.country(c))
}

// legRequest is the check request of one leg for one passport.
func legRequest(plan tripPlan, p plannedPassport, leg tripLeg, requestID string) entrycheck.CheckRequest {
	return entrycheck.CheckRequest{
		Passport:           p.country.ISO3,
		Destination:        leg.country.ISO3,
		Purpose:            leg.purpose,
		TravelDate:         legDay(leg.plannedLeg),
		ResidencePermitsOf: plan.permits,
		VisasOf:            plan.visas,
		RequestID:          requestID,
	}
}

// legDay is the day official statements are compared on for a leg: its
// arrival, else its departure; zero (the day of evaluation) for an undated leg.
func legDay(l plannedLeg) entrycheck.Date {
	switch {
	case l.arrival != nil:
		return *l.arrival
	case l.departure != nil:
		return *l.departure
	}
	return entrycheck.Date{}
}

// ruleDay is the day a leg's rules were read for: its own day, the day of
// evaluation for an undated leg.
func ruleDay(leg tripLeg, r *entrycheck.CheckResult) entrycheck.Date {
	if day := legDay(leg.plannedLeg); !day.IsZero() {
		return day
	}
	return entrycheck.DateOf(r.EvaluatedAt)
}

func purposeOf(l plannedLeg) string {
	if l.purpose == "" {
		return entrycheck.PurposeTourism
	}
	return l.purpose
}

// stayDays is the number of days of a dated leg, both ends included.
func stayDays(l plannedLeg) (int, bool) {
	if l.arrival == nil || l.departure == nil {
		return 0, false
	}
	return dayNumber(*l.departure) - dayNumber(*l.arrival) + 1, true
}
