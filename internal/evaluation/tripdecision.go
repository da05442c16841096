package evaluation

import (
	"slices"
	"strings"

	"github.com/entrycheck/entrycheck"
)

// decide makes the decision of leg i: the chosen passport's answer, the
// conditions of the plan, why, the status and every passport's option, in
// the language of w.
func (e *Evaluator) decide(w *words, plan tripPlan, legs []tripLeg, choices []legChoice, i int, schengen schengenAccount, origin entrycheck.Country) entrycheck.LegDecision {
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
		Alternatives:           alternatives(w, c),
	}
	conds, transit := e.legConditions(w, legs, c, i, schengen, origin)
	if transit.covered {
		d.Action = entrycheck.ActionNone
	}
	d.Conditions, d.TransitPrograms = conds, transit.programs
	d.Why = legWhy(w, plan, leg, c, transit.covered)
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

// legWhy explains every step of a leg's decision in plain language, that
// of w.
func legWhy(w *words, plan tripPlan, leg tripLeg, c legChoice, covered bool) []string {
	r, name := &c.result, w.country(leg.country)
	why := []string{choiceWhy(w, leg, c), verdictWhy(w, leg, c.best(), r), r.VerdictVerification.Note}
	for _, s := range r.VerdictVerification.OfficialStatements {
		why = append(why, w.Text("trip.why.statement", "statement", s.StatementWordsIn(w.Catalog), "text", s.Text, "source", s.Source.Name, "date", dateText(w, s.Source.RetrievedAt)))
	}
	switch x := r.ExemptionApplied; {
	case x != nil:
		why = append(why, exemptionWhy(w, x))
	case (len(plan.permits) > 0 || len(plan.visas) > 0) && r.Requirement.NeedsAction():
		why = append(why, w.Text(assumeHeldUnused))
	}
	if leg.purpose == entrycheck.PurposeBusiness {
		why = append(why, w.Text(assumeBusiness))
	}
	if r.Requirement == entrycheck.NoAdmission && len(c.options) > 1 {
		why = append(why, w.Text("trip.why.no_admission", "country", name))
	}
	if leg.transit {
		why = append(why, transitWhy(w, name, r.Requirement, covered))
	}
	if a := r.Apply; a != nil && !covered {
		why = append(why, w.Text("trip.why.apply", "kind", entrycheck.ApplyKindLabelIn(w.Catalog, a.Kind), "url", a.URL,
			"label", entrycheck.LabelSource.In(w.Catalog), "source", a.Source.Name, "note", a.Note))
	}
	v := r.EntryRulesVerification
	return append(why, w.Text("trip.why.entry_rules", "country", name, "status", w.Text("trip.rules_status."+v.Status), "read", v.ReadWordsIn(w.Catalog)), v.Note)
}

// exemptionWhy says which held document changed the requirement, from what
// to what, under which curated exemption. The document and the
// requirements are named by the codes of exemption_applied in English
// (message trip.exemption.*), and in words in the other languages.
func exemptionWhy(w *words, x *entrycheck.AppliedExemption) string {
	document := x.HeldDocument
	if kind, issuer, found := strings.Cut(x.HeldDocument, " of "); found {
		document = w.Text("trip.exemption.held", "document", w.Text("trip.exemption.document."+kind), "issuer", issuer)
	}
	return w.Text("trip.why.exemption", "document", document,
		"from", w.Text("trip.exemption.requirement."+string(x.MatrixRequirement)), "to", w.Text("trip.exemption.requirement."+string(x.Exemption.Effect)),
		"text", x.Exemption.Text, "source", x.Source.Name)
}

// transitWhy says what a transit leg asks of the traveller; name is the
// country's in the language of w.
func transitWhy(w *words, name string, req entrycheck.Requirement, covered bool) string {
	switch {
	case req == entrycheck.VisaFree:
		return w.Text("trip.why.transit.visa_free", "country", name)
	case covered:
		return w.Text("trip.why.transit.covered", "country", name)
	}
	return w.Text("trip.why.transit.not_covered", "country", name)
}

// verdictWhy says where the chosen passport's requirement comes from; the
// verification note follows it in the why list.
func verdictWhy(w *words, leg tripLeg, best option, r *entrycheck.CheckResult) string {
	verdict := r.RequirementLabel
	if r.AllowedStayDays.Valid {
		verdict = w.Text("trip.why.verdict.stay", "requirement", verdict, "stay", stayText(w, r.AllowedStayDays))
	}
	passport := w.country(best.passport.country)
	switch {
	case best.own:
		return w.Text("trip.why.verdict.own_country", "verdict", verdict, "country", w.country(leg.country))
	case r.Source.MatrixValue == nil:
		return w.Text("trip.why.verdict.not_in_table", "verdict", verdict, "country", passport, "source", r.Source.Name)
	}
	before, after := entrycheck.SourceWordsIn(w.Catalog, r.Source)
	return w.Text("trip.why.verdict.table", "verdict", verdict, "country", passport, "source", before+r.Source.Name+after)
}
