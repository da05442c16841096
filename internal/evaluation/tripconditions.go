package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// legConditions assesses a leg's plan against every entry condition, in the
// order the answer lists them: passport validity, stay, the Schengen
// account's share, transit, onward ticket, yellow fever, the destination's
// blank-page and other health rules, then the age of the verdict. It
// returns the transit programmes of a transit leg and whether one covers
// the connection. The details are in the language of w.
func (e *Evaluator) legConditions(w *words, legs []tripLeg, c legChoice, i int, schengen schengenAccount, origin entrycheck.Country) ([]entrycheck.Condition, transitAnswer) {
	leg, best, r := legs[i], c.best(), &c.result
	dest := e.destination(leg.country.ISO3)
	says := validitySays(w, w.country(dest.country), r.EntryRules.PassportValidity, leg.schengen)
	freeMovement := leg.schengen && e.destination(best.passport.country.ISO3).schengen
	conds := []entrycheck.Condition{
		validityCondition(w, best.validity, r.EntryRules.PassportValidity, says, best.passport, leg),
		stayCondition(w, leg, best, r, freeMovement),
	}
	if leg.schengen {
		conds = append(conds, schengen.conditions[i])
	}
	var transit transitAnswer
	if leg.transit {
		transit = transitCondition(w, leg, r, dest.curated, e.traveller(r.Passport.ISO3, r.Requirement, ruleDay(leg, r)))
		conds = append(conds, transit.condition)
	}
	conds = append(conds, onwardCondition(w, leg, best, r, dest.curated), e.yellowFeverCondition(w, legs, i, origin))
	if !best.own {
		conds = append(conds, ruleConditions(w, r.EntryRules)...)
	}
	// A connection a transit programme covers rests on the programme, not
	// on the verdict for entering the country.
	if c, old := verdictAgeCondition(r); old && !transit.covered {
		conds = append(conds, c)
	}
	return conds, transit
}

// verdictAgeCondition asks for an old verdict to be confirmed before the
// leg: the check says so (VerdictVerification.Confirm, in the answer's
// language) when the verdict comes from the matrix and is older than
// VerdictOldAfterDays at evaluated_at, the age every answer reports. It
// needs action, since a plan resting on a verdict that may have changed is
// not ready; old is false when the verdict is not old.
func verdictAgeCondition(r *entrycheck.CheckResult) (c entrycheck.Condition, old bool) {
	confirm := r.VerdictVerification.Confirm
	if confirm == "" {
		return c, false
	}
	return entrycheck.Condition{Kind: entrycheck.ConditionVerdictAge, Status: entrycheck.ConditionAdvisory, ActionNeeded: true, Detail: confirm}, true
}

// stayCondition compares the planned stay with the stay the verdict allows.
func stayCondition(w *words, leg tripLeg, best option, r *entrycheck.CheckResult, freeMovement bool) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionStayDuration, Status: entrycheck.ConditionNotApplicable}
	switch {
	case leg.transit:
		c.Detail = w.Text("trip.stay.transit")
	case best.own:
		c.Detail = w.Text("trip.stay.own_country")
	case r.Requirement == entrycheck.NoAdmission:
		c.Detail = w.Text("trip.stay.no_admission")
	case r.Requirement == entrycheck.Unknown || r.Requirement == entrycheck.NeedsReview:
		c.Status = entrycheck.ConditionUnknown
		c.Detail = w.Text("trip.stay.no_reliable_verdict")
	case freeMovement:
		c.Detail = w.Text("trip.stay.free_movement")
	case r.Requirement.NeedsAction():
		c.Status = entrycheck.ConditionAdvisory
		c.Detail = w.Text("trip.stay.set_by_document", "document", r.Requirement.DocumentIn(w.Catalog))
		if n, dated := stayDays(leg.plannedLeg); dated {
			c.Detail = sentences(w, c.Detail, w.Text("trip.stay.planned", "days", countDays(w, n), "arrival", dateText(w, *leg.arrival), "departure", dateText(w, *leg.departure)))
		}
	default:
		c.Status, c.ActionNeeded, c.Detail = visaFreeStay(w, leg, r.AllowedStayDays)
	}
	return c
}

// visaFreeStay compares a visa-free leg's days with the verdict's limit.
func visaFreeStay(w *words, leg tripLeg, allowed entrycheck.Days) (entrycheck.ConditionStatus, bool, string) {
	n, dated := stayDays(leg.plannedLeg)
	switch {
	case !allowed.Valid:
		return entrycheck.ConditionUnknown, false, w.Text("trip.stay.no_number")
	case !dated:
		return entrycheck.ConditionUnknown, false, w.Text("trip.stay.undated", "limit", countDays(w, allowed.N))
	case n <= allowed.N:
		return entrycheck.ConditionMet, false, w.Text("trip.stay.within", "days", countDays(w, n), "limit", countDays(w, allowed.N))
	}
	return entrycheck.ConditionNotMet, true, w.Text("trip.stay.over", "days", countDays(w, n), "limit", countDays(w, allowed.N))
}

// onwardCondition reads the destination's onward-ticket rule against the itinerary.
func onwardCondition(w *words, leg tripLeg, best option, r *entrycheck.CheckResult, curated bool) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionOnwardTicket, Status: entrycheck.ConditionUnknown}
	field := r.EntryRules.OnwardTicket
	rule := field.Holding()
	name := w.country(leg.country)
	switch {
	case best.own:
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, w.Text("trip.onward.own_country")
	case field != nil && rule == nil:
		c.Detail = w.Text("trip.onward.not_for_you", "country", name, "note", field.Note)
	case rule == nil && curated:
		c.Detail = w.Text("trip.onward.no_source", "country", name)
	case rule == nil:
		c.Detail = w.Text("trip.onward.not_curated", "country", name)
	default:
		c.Source, c.RuleText = &rule.Source, rule.Value.Text
		asks := "trip.onward.required"
		if rule.Value.Required == entrycheck.OnwardMayBeAsked {
			asks = "trip.onward.may_be_asked"
		}
		if leg.next != "" {
			c.Status, c.Detail = entrycheck.ConditionMet, w.Text(asks+".continues", "country", name, "next", leg.next)
		} else {
			c.Status, c.Detail = entrycheck.ConditionAdvisory, w.Text(asks+".ends", "country", name)
		}
	}
	return c
}

// ruleConditions lists the destination's blank-page and other health
// rules, which apply as stated and cannot be checked against a plan.
func ruleConditions(w *words, rules entrycheck.EntryRules) []entrycheck.Condition {
	var out []entrycheck.Condition
	if bp := rules.BlankPages.Holding(); bp != nil {
		out = append(out, entrycheck.Condition{
			Kind: entrycheck.ConditionBlankPages, Status: entrycheck.ConditionAdvisory, Source: &bp.Source, RuleText: bp.Value.Text,
			Detail: w.Count("trip.blank_pages", bp.Value.Pages),
		})
	}
	if h := rules.OtherHealth.Holding(); h != nil {
		for _, rule := range h.Value {
			// The topic is named by its curated code (polio, yellow_fever).
			out = append(out, entrycheck.Condition{
				Kind: entrycheck.ConditionOtherHealth, Status: entrycheck.ConditionAdvisory, Source: &h.Source, RuleText: rule.Text,
				Detail: w.Text("trip.health_rule", "topic", rule.Topic),
			})
		}
	}
	return out
}
