package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// EvaluateTrip evaluates a whole itinerary (spec 2.4): for each leg, every
// passport of the traveller is checked with the one rule implementation and
// the best is chosen (see the ranking at rankStep); the plan is then
// assessed leg by leg against passport validity, stay length, the Schengen
// 90/180 rule across legs, transit programmes, onward tickets and yellow
// fever given the legs before. Every step is explained in the leg's why and
// every default in defaults_applied.
//
// The evaluation is a pipeline of stages that each return values: the legs
// with their place in the itinerary, every passport's option for a leg, the
// choice among them, the Schengen account (which needs every leg's choice),
// each leg's conditions and decision, and the summary.
//
// It returns an *entrycheck.Error with code EINVALID listing every problem
// of the request (see ValidateTrip). Data gaps are not errors: they give
// legs and trips with status unknown. requestID identifies the evaluation;
// one is made when it is empty.
func (e *Evaluator) EvaluateTrip(req entrycheck.TripRequest, requestID string, clock entrycheck.Clock) (entrycheck.TripResult, error) {
	plan, err := e.planTrip(req)
	if err != nil {
		return entrycheck.TripResult{}, err
	}
	if requestID == "" {
		requestID = newRequestID()
	}
	now := clock.Now().UTC() // one instant for every leg
	legs := e.tripLegs(plan)
	choices := make([]legChoice, len(legs))
	for i, leg := range legs {
		choices[i] = e.choose(plan, leg, requestID, now)
	}
	schengen := e.schengenAccount(legs, choices)
	// The first leg's chosen passport stands for where the trip starts.
	origin := choices[0].best().passport.country
	decisions := make([]entrycheck.LegDecision, len(legs))
	for i := range legs {
		decisions[i] = e.decide(plan, legs, choices, i, schengen, origin)
	}
	return entrycheck.TripResult{
		Summary:         summarize(decisions),
		Legs:            decisions,
		Schengen:        schengen.stay,
		DefaultsApplied: tripDefaults(plan, origin, schengen.stay),
		Assumptions:     tripAssumptions(legs, choices, now),
		DatasetVersion:  e.snap.Version(),
		EvaluatedAt:     now,
		RequestID:       requestID,
		Disclaimer:      e.words[0].disclaimer,
	}, nil
}
