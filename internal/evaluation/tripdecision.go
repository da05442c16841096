package evaluation

import (
	"slices"
	"strings"

	"github.com/entrycheck/entrycheck"
)

// decide makes the decision of leg i: the chosen passport's answer, the
// conditions of the plan, why, the status and every passport's option.
func (e *Evaluator) decide(plan tripPlan, legs []tripLeg, choices []legChoice, i int, schengen schengenAccount, origin entrycheck.Country) entrycheck.LegDecision {
	leg, c := legs[i], choices[i]
	r := &c.result
	d := entrycheck.LegDecision{
		Index:                  leg.index,
		Country:                leg.country,
		Arrival:                leg.arrival,
		Departure:              leg.departure,
		Purpose:                purposeOf(leg.plannedLeg),
		Transit:                leg.transit,
		Passport:               tripPassport(c.best().passport),
		Verdict:                r.Verdict,
		Action:                 r.Action,
		Apply:                  r.Apply,
		ExemptionApplied:       r.ExemptionApplied,
		VerdictVerification:    r.VerdictVerification,
		EntryRulesVerification: r.EntryRulesVerification,
		Coverage:               r.EntryRules.Coverage,
		Source:                 r.Source,
		Alternatives:           alternatives(c),
	}
	conds, transit := e.legConditions(legs, c, i, schengen, origin)
	if transit.covered {
		d.Action = entrycheck.ActionNone
	}
	d.Conditions, d.TransitPrograms = conds, transit.programs
	d.Why = legWhy(plan, leg, c, transit.covered)
	d.Status = legStatus(c, transit.covered, d)
	return d
}

// legStatus is ready, action_needed, not_possible or unknown. A leg is
// not_possible only when every passport meets no_admission; when the best
// is no_admission but another passport has no reliable verdict, the leg is
// unknown, since that passport may yet be admitted.
func legStatus(c legChoice, covered bool, d entrycheck.LegDecision) entrycheck.TripStatus {
	req := c.best().requirement
	switch {
	case !reliable(req):
		return entrycheck.TripUnknown
	case req == entrycheck.NoAdmission && slices.ContainsFunc(c.options, func(o option) bool { return !reliable(o.requirement) }):
		return entrycheck.TripUnknown
	case req == entrycheck.NoAdmission:
		return entrycheck.TripNotPossible
	case req.NeedsAction() && !covered:
		return entrycheck.TripActionNeeded
	case slices.ContainsFunc(d.Conditions, func(c entrycheck.Condition) bool { return c.ActionNeeded }):
		return entrycheck.TripActionNeeded
	}
	// A citizen entering their own country meets no visitor rule.
	own := d.Passport.Country.ISO3 == d.Country.ISO3
	if !own && d.Coverage != entrycheck.CoverageExtended ||
		slices.ContainsFunc(d.Conditions, func(c entrycheck.Condition) bool { return c.Status == entrycheck.ConditionUnknown }) {
		return entrycheck.TripCheckNeeded
	}
	return entrycheck.TripReady
}

// reliable reports whether a requirement is a verdict to rely on: unknown
// and needs_review promise nothing.
func reliable(r entrycheck.Requirement) bool {
	return r != entrycheck.Unknown && r != entrycheck.NeedsReview
}

// legWhy explains every step of a leg's decision in plain language.
func legWhy(plan tripPlan, leg tripLeg, c legChoice, covered bool) []string {
	r, name := &c.result, leg.country.Name
	why := []string{choiceWhy(leg, c), verdictWhy(leg, c.best(), r), r.VerdictVerification.Note}
	for _, s := range r.VerdictVerification.OfficialStatements {
		why = append(why, "Official statement ("+s.StatementWords()+" on the leg's date): "+s.Text+" ("+s.Source.Name+", read "+s.Source.RetrievedAt.String()+").")
	}
	switch x := r.ExemptionApplied; {
	case x != nil:
		why = append(why, "Your "+x.HeldDocument+" changes "+string(x.MatrixRequirement)+" to "+string(x.Exemption.Effect)+": "+x.Exemption.Text+" (source: "+x.Source.Name+"). Carry that document, valid, when you travel.")
	case (len(plan.permits) > 0 || len(plan.visas) > 0) && r.Requirement.NeedsAction():
		why = append(why, tripText(assumeHeldUnused))
	}
	if leg.purpose == entrycheck.PurposeBusiness {
		why = append(why, tripText(assumeBusiness))
	}
	if r.Requirement == entrycheck.NoAdmission && len(c.options) > 1 {
		why = append(why, "None of your passports is admitted to "+name+" on the data; a passport with no reliable verdict would make this leg unknown rather than not possible.")
	}
	if leg.transit {
		why = append(why, transitWhy(name, r.Requirement, covered))
	}
	if a := r.Apply; a != nil && !covered {
		why = append(why, entrycheck.ApplyKindLabel(a.Kind)+": "+a.URL+" ("+entrycheck.LabelSource.String()+": "+a.Source.Name+"). "+a.Note)
	}
	v := r.EntryRulesVerification
	return append(why, "Entry rules of "+name+": "+strings.ReplaceAll(v.Status, "_", " ")+", "+v.ReadWords()+".", v.Note)
}

// transitWhy says what a transit leg asks of the traveller.
func transitWhy(name string, req entrycheck.Requirement, covered bool) string {
	switch {
	case req == entrycheck.VisaFree:
		return "Transit: entering " + name + " is visa-free with this passport, so the connection needs nothing more."
	case covered:
		return "Transit: a transit-without-visa programme covers this connection for your passport (see the transit condition), so no action is needed while you stay within its limits; the requirement shown is for entering " + name + "."
	}
	return "Transit: no transit-without-visa programme is known to cover this connection for your passport, so the requirement for entering " + name + " is shown; ask your airline whether an airside connection needs less."
}

// verdictWhy says where the chosen passport's requirement comes from; the
// verification note follows it in the why list.
func verdictWhy(leg tripLeg, best option, r *entrycheck.CheckResult) string {
	verdict := r.RequirementLabel
	if r.AllowedStayDays.Valid {
		verdict += " for up to " + stayText(r.AllowedStayDays)
	}
	switch {
	case best.own:
		return verdict + ": you hold " + leg.country.Name + "'s own passport."
	case r.Source.MatrixValue == nil:
		return verdict + " with the passport of " + best.passport.country.Name + ": the route is not in the secondary visa table (" + r.Source.Name + ")."
	}
	before, after := entrycheck.SourceWords(r.Source)
	return verdict + " with the passport of " + best.passport.country.Name + ": " + before + r.Source.Name + after + "."
}
