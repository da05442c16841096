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
// Every text of the answer is worded in the language the request asks
// for (Language, else AcceptLanguage), English when it asks for none or for
// one the service does not speak, which defaults_applied then says; the
// codes, and so every decision, are the same in every language.
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
	w, fallback := e.wordsFor(req.Language, req.AcceptLanguage)
	now := clock.Now().UTC() // one instant for every leg
	legs := e.tripLegs(w, plan)
	choices := make([]legChoice, len(legs))
	for i, leg := range legs {
		choices[i] = e.choose(w, plan, leg, requestID, now)
	}
	schengen := e.schengenAccount(w, legs, choices)
	// The first leg's chosen passport stands for where the trip starts.
	origin := choices[0].best().passport.country
	decisions := make([]entrycheck.LegDecision, len(legs))
	for i := range legs {
		decisions[i] = e.decide(w, plan, legs, choices, i, schengen, origin)
	}
	res := entrycheck.TripResult{
		Summary:         summarize(w, decisions),
		Legs:            decisions,
		Schengen:        schengen.stay,
		DefaultsApplied: tripDefaults(w, plan, origin, schengen.stay),
		Assumptions:     tripAssumptions(w, legs, choices, now),
		DatasetVersion:  e.snap.Version(),
		EvaluatedAt:     now,
		RequestID:       requestID,
		Disclaimer:      w.disclaimer,
	}
	if req.Language != "" || req.AcceptLanguage != "" {
		res.Language = w.Code
	}
	if fallback != nil {
		res.DefaultsApplied = append(res.DefaultsApplied, entrycheck.TripDefault{Field: fallback.Field, Value: fallback.Value, Reason: fallback.Reason})
	}
	return res, nil
}
