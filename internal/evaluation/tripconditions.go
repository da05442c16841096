package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// legConditions assesses a leg's plan against every entry condition, in the
// order the answer lists them: passport validity, stay, the Schengen
// account's share, transit, onward ticket, yellow fever, the destination's
// blank-page and other health rules, then the age of the verdict. It
// returns the transit programmes of a transit leg and whether one covers
// the connection.
func (e *Evaluator) legConditions(legs []tripLeg, c legChoice, i int, schengen schengenAccount, origin entrycheck.Country) ([]entrycheck.Condition, transitAnswer) {
	leg, best, r := legs[i], c.best(), &c.result
	dest := e.destination(leg.country.ISO3)
	says := validitySays(dest.country.Name, r.EntryRules.PassportValidity, leg.schengen)
	freeMovement := leg.schengen && e.destination(best.passport.country.ISO3).schengen
	conds := []entrycheck.Condition{
		validityCondition(best.validity, r.EntryRules.PassportValidity, says, best.passport, leg),
		stayCondition(leg, best, r, freeMovement),
	}
	if leg.schengen {
		conds = append(conds, schengen.conditions[i])
	}
	var transit transitAnswer
	if leg.transit {
		transit = transitCondition(leg, r, dest.curated, e.traveller(r.Passport.ISO3, r.Requirement, ruleDay(leg, r)))
		conds = append(conds, transit.condition)
	}
	conds = append(conds, onwardCondition(leg, best, r, dest.curated), e.yellowFeverCondition(legs, i, origin))
	if !best.own {
		conds = append(conds, ruleConditions(r.EntryRules)...)
	}
	// A connection a transit programme covers rests on the programme, not
	// on the verdict for entering the country.
	if c, old := verdictAgeCondition(r); old && !transit.covered {
		conds = append(conds, c)
	}
	return conds, transit
}

// verdictAgeCondition asks for an old verdict to be confirmed before the
// leg: the check says so (VerdictVerification.Confirm) when the verdict
// comes from the matrix and is older than VerdictOldAfterDays at
// evaluated_at, the age every answer reports. It needs action, since a plan
// resting on a verdict that may have changed is not ready; old is false
// when the verdict is not old.
func verdictAgeCondition(r *entrycheck.CheckResult) (c entrycheck.Condition, old bool) {
	confirm := r.VerdictVerification.Confirm
	if confirm == "" {
		return c, false
	}
	return entrycheck.Condition{Kind: entrycheck.ConditionVerdictAge, Status: entrycheck.ConditionAdvisory, ActionNeeded: true, Detail: confirm}, true
}

// stayCondition compares the planned stay with the stay the verdict allows.
func stayCondition(leg tripLeg, best option, r *entrycheck.CheckResult, freeMovement bool) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionStayDuration, Status: entrycheck.ConditionNotApplicable}
	switch {
	case leg.transit:
		c.Detail = "Transit leg: no stay is planned; the transit programme's time limit is checked under the transit condition."
	case best.own:
		c.Detail = "You are entering your own country: no limit applies to the stay of a citizen."
	case r.Requirement == entrycheck.NoAdmission:
		c.Detail = "No stay is possible: the verdict is no admission."
	case r.Requirement == entrycheck.Unknown || r.Requirement == entrycheck.NeedsReview:
		c.Status = entrycheck.ConditionUnknown
		c.Detail = "There is no reliable verdict, so the allowed stay is not known: check with the official authority."
	case freeMovement:
		c.Detail = "A passport of a Schengen state in a Schengen state: free movement, no short-stay limit."
	case r.Requirement.NeedsAction():
		c.Status = entrycheck.ConditionAdvisory
		c.Detail = "The stay you may make is set by the " + r.Requirement.Document() + " you obtain: make sure it covers the whole leg."
		if days, dated := stayDays(leg.plannedLeg); dated {
			c.Detail += " You plan " + entrycheck.Plural(days, "day") + ", " + leg.arrival.String() + " to " + leg.departure.String() + ", both included."
		}
	default:
		c.Status, c.ActionNeeded, c.Detail = visaFreeStay(leg, r.AllowedStayDays)
	}
	return c
}

// visaFreeStay compares a visa-free leg's days with the verdict's limit.
func visaFreeStay(leg tripLeg, allowed entrycheck.Days) (entrycheck.ConditionStatus, bool, string) {
	days, dated := stayDays(leg.plannedLeg)
	switch {
	case !allowed.Valid:
		return entrycheck.ConditionUnknown, false, "The secondary visa table gives no number of days for this visa-free route, so the stay cannot be compared with a limit: check with the official authority for a long stay."
	case !dated:
		return entrycheck.ConditionUnknown, false, "Visa-free stays are limited to " + entrycheck.Plural(allowed.N, "day") + "; give this leg's arrival and departure dates to compare."
	case days <= allowed.N:
		return entrycheck.ConditionMet, false, "You plan " + entrycheck.Plural(days, "day") + " (arrival and departure days included), within the visa-free limit of " + entrycheck.Plural(allowed.N, "day") + "."
	}
	return entrycheck.ConditionNotMet, true, "You plan " + entrycheck.Plural(days, "day") + " (arrival and departure days included), more than the visa-free limit of " + entrycheck.Plural(allowed.N, "day") + ": shorten the stay or obtain a visa that allows it."
}

// onwardCondition reads the destination's onward-ticket rule against the itinerary.
func onwardCondition(leg tripLeg, best option, r *entrycheck.CheckResult, curated bool) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionOnwardTicket, Status: entrycheck.ConditionUnknown}
	field := r.EntryRules.OnwardTicket
	rule := field.Holding()
	name := leg.country.Name
	switch {
	case best.own:
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, "You are entering your own country: no onward ticket is asked of citizens."
	case field != nil && rule == nil:
		c.Detail = name + "'s curated onward-ticket rule is not a rule for your passport: " + field.Note + " Carry proof of onward or return travel to be safe."
	case rule == nil && curated:
		c.Detail = "No official source for " + name + "'s onward-ticket rule was found; carry proof of onward or return travel to be safe."
	case rule == nil:
		c.Detail = name + "'s entry rules are not curated; carry proof of onward or return travel to be safe."
	default:
		c.Source, c.RuleText = &rule.Source, rule.Value.Text
		asks := name + " requires proof of onward or return travel"
		if rule.Value.Required == entrycheck.OnwardMayBeAsked {
			asks = "Border officers in " + name + " may ask for proof of onward or return travel"
		}
		if leg.next != "" {
			c.Status, c.Detail = entrycheck.ConditionMet, asks+"; your itinerary continues to "+leg.next+": carry proof of that booking."
		} else {
			c.Status, c.Detail = entrycheck.ConditionAdvisory, asks+"; the itinerary ends here, so carry proof of your return or onward ticket."
		}
	}
	return c
}

// ruleConditions lists the destination's blank-page and other health
// rules, which apply as stated and cannot be checked against a plan.
func ruleConditions(rules entrycheck.EntryRules) []entrycheck.Condition {
	var out []entrycheck.Condition
	if bp := rules.BlankPages.Holding(); bp != nil {
		out = append(out, entrycheck.Condition{
			Kind: entrycheck.ConditionBlankPages, Status: entrycheck.ConditionAdvisory, Source: &bp.Source, RuleText: bp.Value.Text,
			Detail: "Keep at least " + entrycheck.Plural(bp.Value.Pages, "blank page") + " in the passport.",
		})
	}
	if h := rules.OtherHealth.Holding(); h != nil {
		for _, rule := range h.Value {
			out = append(out, entrycheck.Condition{
				Kind: entrycheck.ConditionOtherHealth, Status: entrycheck.ConditionAdvisory, Source: &h.Source, RuleText: rule.Text,
				Detail: "Health rule: " + rule.Topic + ".",
			})
		}
	}
	return out
}
