package evaluation

import (
	"strings"

	"github.com/entrycheck/entrycheck"
)

// legWork is a leg being evaluated: every passport's answer and their ranking.
type legWork struct {
	ctx legContext
	// text holds the texts of the whole evaluation and out the slices of
	// its answer (both shared by every leg).
	text    *textArena
	out     *tripSlabs
	options []option
	// order holds the option indexes, best first (see rankOptions).
	order []int
	// covered is true for a transit leg that a transit-without-visa
	// programme covers, so that the requirement asks nothing.
	covered bool
	// schengen is the leg's share of the Schengen account, for legs in the
	// area; it fills the condition at schengenSlot of the decision.
	schengen      entrycheck.Condition
	schengenSlot  int
	schengenIndex int
	// overLimit is true when a day of the leg is beyond the short-stay
	// limit; firstDayOver is then the first such day's number.
	overLimit    bool
	firstDayOver int
}

func (w *legWork) best() *option { return &w.options[w.order[0]] }

// EvaluateTrip evaluates a whole itinerary (spec 2.4): for each leg, every
// passport of the traveller is checked with Check, the one rule
// implementation, and the best is chosen (see the ranking at rankStep); the
// plan is then assessed leg by leg against passport validity, stay length,
// the Schengen 90/180 rule across legs, transit programmes, onward tickets
// and yellow fever given the legs before. Every step is explained in the
// leg's why and every default in defaults_applied.
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
	n := len(plan.passports)
	scratch := e.scratch.get(len(plan.legs), n)
	defer e.scratch.put(scratch)
	work := e.prepareLegs(&plan, scratch.work)
	res := entrycheck.TripResult{
		Legs:           make([]entrycheck.LegDecision, len(work)),
		DatasetVersion: e.snap.Version(),
		EvaluatedAt:    now,
		RequestID:      requestID,
		Disclaimer:     entrycheck.Disclaimer,
	}
	// The options and their ranking are scratch; the alternatives are part
	// of the answer, one allocation for every leg.
	options, order := scratch.options, scratch.order
	alts := make([]entrycheck.PassportOption, len(work)*n)
	for i := range work {
		w := &work[i]
		w.options, w.order = options[i*n:(i+1)*n], order[i*n:(i+1)*n]
		best := -1
		var r entrycheck.CheckResult
		for j := range plan.passports {
			p := &plan.passports[j]
			// The request was validated as a whole; ranking needs only the
			// requirement of each passport.
			e.requirementOnly(&r, p.country, w.ctx.leg.country, legRequest(&plan, p, w, requestID))
			w.options[j] = newOption(p, &r, &w.ctx)
			if best < 0 {
				best = j
			} else if c, _ := compareOptions(&w.options[j], &w.options[best]); c < 0 {
				best = j
			}
		}
		// The whole answer, from the same evaluation as GET /v1/check, for the chosen passport.
		p := &plan.passports[best]
		result := e.evaluate(p.country, w.ctx.leg.country, nil, legRequest(&plan, p, w, requestID), now)
		rankOptions(w.options, w.order) // agrees with best: the same total order
		e.decide(&res.Legs[i], &plan, work, i, &result)
		res.Legs[i].Alternatives = alternatives(w, alts[i*n:(i+1)*n:(i+1)*n])
	}
	// The Schengen account needs every leg's choice; then each leg's status
	// can be settled.
	res.Schengen = e.schengenAccount(work)
	for i := range work {
		w, d := &work[i], &res.Legs[i]
		if w.ctx.schengen {
			d.Conditions[w.schengenSlot] = w.schengen
		}
		d.Status = legStatus(w, d)
	}
	res.Summary = summarize(work[0].text, res.Legs)
	res.DefaultsApplied = tripDefaults(&plan, work, res.Schengen)
	res.Assumptions = tripAssumptions(&plan, work, now)
	return res, nil
}

// prepareLegs sets up each leg's context in work, one element a leg: its
// successor, and for Schengen legs the day the traveller leaves the area.
func (e *Evaluator) prepareLegs(plan *tripPlan, work []legWork) []legWork {
	text := newTextArena(len(plan.legs), e.counts)
	// Texts name legs and passports' expiry dates many times: written once.
	for i := range plan.legs {
		l := &plan.legs[i]
		d := e.destination(l.country.ISO3)
		l.name, l.schengen = text.nameLeg(*l), d.schengen
	}
	for i := range plan.passports {
		if p := &plan.passports[i]; p.expires != nil {
			p.expiresText = text.date(*p.expires)
		}
	}
	out := e.newTripSlabs(plan.legs)
	for i := len(work) - 1; i >= 0; i-- {
		w := &work[i]
		w.text, w.out = text, out
		w.ctx = legContext{leg: plan.legs[i], schengen: plan.legs[i].schengen}
		if i+1 < len(work) {
			w.ctx.next = &plan.legs[i+1]
		}
		if w.ctx.schengen {
			w.ctx.areaDeparture = w.ctx.leg.departure
			if i+1 < len(work) && work[i+1].ctx.schengen {
				w.ctx.areaDeparture = work[i+1].ctx.areaDeparture
			}
		}
	}
	return work
}

// decide makes the decision d of leg i from its ranked options and the
// check result r of the best one. The Schengen condition, which needs every
// leg, is left as a placeholder, and the status is settled after it. d is
// filled in place: the decision is large and full of pointers, and a copy
// into the result would cost more than the rest of a leg's bookkeeping.
func (e *Evaluator) decide(d *entrycheck.LegDecision, plan *tripPlan, work []legWork, i int, r *entrycheck.CheckResult) {
	w := &work[i]
	best := w.best()
	leg := w.ctx.leg
	dest := e.destination(leg.country.ISO3)
	*d = entrycheck.LegDecision{
		Index:                  leg.index,
		Country:                leg.country,
		Arrival:                leg.arrival,
		Departure:              leg.departure,
		Purpose:                purposeOf(leg),
		Transit:                leg.transit,
		Passport:               tripPassport(best.passport),
		Requirement:            r.Requirement,
		RequirementLabel:       r.RequirementLabel,
		AllowedStayDays:        r.AllowedStayDays,
		Action:                 r.Action,
		Apply:                  r.Apply,
		ExemptionApplied:       r.ExemptionApplied,
		VerdictVerification:    r.VerdictVerification,
		EntryRulesVerification: r.EntryRulesVerification,
		Coverage:               r.EntryRules.Coverage,
		Source:                 r.Source,
	}
	conds := w.out.conditions.take(conditionCount(w, r))
	conds = append(conds, validityCondition(w.text, best.validity, r.EntryRules.PassportValidity, validitySays(dest.country.Name, r.EntryRules.PassportValidity, w.ctx.schengen), *best.passport, &w.ctx))
	freeMovement := w.ctx.schengen && e.destination(best.passport.country.ISO3).schengen
	conds = append(conds, stayCondition(w, r, freeMovement))
	if w.ctx.schengen {
		w.schengenSlot = len(conds)
		conds = append(conds, entrycheck.Condition{Kind: entrycheck.ConditionSchengen})
	}
	if leg.transit {
		var c entrycheck.Condition
		c, w.covered, d.TransitPrograms = transitCondition(w, r, dest.curated, e.traveller(r.Passport.ISO3, r.Requirement))
		conds = append(conds, c)
		if w.covered {
			d.Action = entrycheck.ActionNone
		}
	}
	conds = append(conds, onwardCondition(w, r, dest.curated))
	conds = append(conds, e.yellowFeverCondition(work, i, work[0].best().passport.country))
	d.Conditions = extraConditions(conds, w, r)
	d.Why = legWhy(plan, w, r, dest)
}

// tripSlabs hold the conditions and explanations of a trip's legs.
type tripSlabs struct {
	conditions slab[entrycheck.Condition]
	why        slab[string]
}

// whyPerLeg is room for a leg's usual explanations; a leg with more grows
// its own slice.
const whyPerLeg = 8

// newTripSlabs sizes the slabs for the legs: conditionCount at most, which
// is known before the passports are ranked but for the own-passport case.
func (e *Evaluator) newTripSlabs(legs []plannedLeg) *tripSlabs {
	n := 0
	for _, l := range legs {
		n += 4 // passport validity, stay, onward ticket, yellow fever
		if l.schengen {
			n++
		}
		if l.transit {
			n++
		}
		// An upper bound: every variant and item of the destination.
		r := e.destination(l.country.ISO3).cur
		if r.BlankPages != nil {
			n++
		}
		if h := r.OtherHealth; h != nil {
			n += len(h.Value)
		}
	}
	return &tripSlabs{conditions: newSlab[entrycheck.Condition](n), why: newSlab[string](len(legs) * whyPerLeg)}
}

// conditionCount is the number of conditions decide lists for a leg.
func conditionCount(w *legWork, r *entrycheck.CheckResult) int {
	n := 4 // passport validity, stay, onward ticket, yellow fever
	if w.ctx.schengen {
		n++
	}
	if w.ctx.leg.transit {
		n++
	}
	if !w.best().own {
		if r.EntryRules.BlankPages.Holding() != nil {
			n++
		}
		if h := r.EntryRules.OtherHealth.Holding(); h != nil {
			n += len(h.Value)
		}
	}
	return n
}

func purposeOf(l plannedLeg) string {
	if l.purpose == "" {
		return entrycheck.PurposeTourism
	}
	return l.purpose
}

// legStatus is ready, action_needed, not_possible or unknown. A leg is
// not_possible only when every passport meets no_admission; when the best
// is no_admission but another passport has no reliable verdict, the leg is
// unknown, since that passport may yet be admitted.
func legStatus(w *legWork, d *entrycheck.LegDecision) entrycheck.TripStatus {
	conds := d.Conditions
	req := w.best().requirement
	switch req {
	case entrycheck.Unknown, entrycheck.NeedsReview:
		return entrycheck.TripUnknown
	case entrycheck.NoAdmission:
		for i := range w.options {
			if r := w.options[i].requirement; r == entrycheck.Unknown || r == entrycheck.NeedsReview {
				return entrycheck.TripUnknown
			}
		}
		return entrycheck.TripNotPossible
	}
	if req.NeedsAction() && !w.covered {
		return entrycheck.TripActionNeeded
	}
	for _, c := range conds {
		if c.ActionNeeded {
			return entrycheck.TripActionNeeded
		}
	}
	// A citizen entering their own country meets no visitor rule.
	own := d.Passport.Country.ISO3 == d.Country.ISO3
	if !own && d.Coverage != entrycheck.CoverageExtended {
		return entrycheck.TripCheckNeeded
	}
	for _, c := range conds {
		if c.Status == entrycheck.ConditionUnknown {
			return entrycheck.TripCheckNeeded
		}
	}
	return entrycheck.TripReady
}

// legWhy explains every step of a leg's decision in plain language.
func legWhy(plan *tripPlan, w *legWork, r *entrycheck.CheckResult, dest *destination) []string {
	t, covered, name := w.text, w.covered, w.ctx.leg.country.Name
	why := w.out.why.take(whyPerLeg)
	why = append(why, choiceWhy(w), verdictWhy(w, r), r.VerdictVerification.Note)
	for _, s := range r.VerdictVerification.OfficialStatements {
		why = append(why, t.join("Official statement (", s.StatementWords(), " on the leg's date): ", s.Text, " (", s.Source.Name, ", read ", t.date(s.Source.RetrievedAt), ")."))
	}
	switch x := r.ExemptionApplied; {
	case x != nil:
		why = append(why, t.join("Your ", x.HeldDocument, " changes ", string(x.MatrixRequirement), " to ", string(x.Exemption.Effect), ": ", x.Exemption.Text, " (source: ", x.Source.Name, "). Carry that document, valid, when you travel."))
	case (len(plan.permits) > 0 || len(plan.visas) > 0) && r.Requirement.NeedsAction():
		why = append(why, assumeHeldUnused)
	}
	if w.ctx.leg.purpose == entrycheck.PurposeBusiness {
		why = append(why, assumeBusiness)
	}
	if r.Requirement == entrycheck.NoAdmission && len(w.options) > 1 {
		why = append(why, t.join("None of your passports is admitted to ", name, " on the data; a passport with no reliable verdict would make this leg unknown rather than not possible."))
	}
	if w.ctx.leg.transit {
		switch {
		case r.Requirement == entrycheck.VisaFree:
			why = append(why, t.join("Transit: entering ", name, " is visa-free with this passport, so the connection needs nothing more."))
		case covered:
			why = append(why, t.join("Transit: a transit-without-visa programme covers this connection for your passport (see transit_without_visa), so no action is needed while you stay within its limits; the requirement shown is for entering ", name, "."))
		default:
			why = append(why, t.join("Transit: no transit-without-visa programme is known to cover this connection for your passport, so the requirement for entering ", name, " is shown; ask your airline whether an airside connection needs less."))
		}
	}
	if a := r.Apply; a != nil && !covered {
		why = append(why, t.join("Apply: ", a.URL, " (", a.Kind, ", source: ", a.Source.Name, "). ", a.Note))
	}
	v := r.EntryRulesVerification
	return append(why, t.join("Entry rules of ", name, ": ", strings.ReplaceAll(v.Status, "_", " "), ", ", v.ReadWords(), "."), v.Note)
}

// verdictWhy says where the chosen passport's requirement comes from; the
// verification note follows it in the why list.
func verdictWhy(w *legWork, r *entrycheck.CheckResult) string {
	t, o := w.text, w.best()
	label, upTo, stay := r.RequirementLabel, "", ""
	if r.AllowedStayDays.Valid {
		upTo, stay = " for up to ", t.stayText(r.AllowedStayDays)
	}
	switch {
	case o.own:
		return t.join(label, upTo, stay, ": you hold ", w.ctx.leg.country.Name, "'s own passport.")
	case r.Source.MatrixValue == nil:
		return t.join(label, upTo, stay, " with the ", o.passport.country.ISO3, " passport: the route is not in the ", r.Source.Name, ".")
	}
	return t.join(label, upTo, stay, " with the ", o.passport.country.ISO3, " passport: matrix value \"", *r.Source.MatrixValue, "\" in the ", r.Source.Name, ", snapshot ", r.Source.Snapshot, ".")
}

// legRequest is the check request of one leg for one passport.
func legRequest(plan *tripPlan, p *plannedPassport, w *legWork, requestID string) entrycheck.CheckRequest {
	return entrycheck.CheckRequest{
		Passport:           p.country.ISO3,
		Destination:        w.ctx.leg.country.ISO3,
		Purpose:            w.ctx.leg.purpose,
		TravelDate:         legDay(w.ctx.leg),
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
