package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// transitAnswer is how a transit leg fares with the country's
// transit-without-visa programmes.
type transitAnswer struct {
	condition entrycheck.Condition
	// covered is true when a programme the passport is eligible for covers
	// the connection, so that the requirement asks nothing.
	covered bool
	// programs are the country's programmes with their eligibility for the
	// passport; nil when none is curated.
	programs []entrycheck.TransitProgram
}

// transitCondition decides whether a transit leg needs the entry
// requirement at all: a connection is covered when the country runs a
// transit-without-visa programme for which this passport is eligible and the
// leg's dates fit its time limit. The detail is in the language of w.
func transitCondition(w *words, leg tripLeg, r *entrycheck.CheckResult, curated bool, traveller entrycheck.Traveller) transitAnswer {
	a := transitAnswer{condition: entrycheck.Condition{Kind: entrycheck.ConditionTransit, Status: entrycheck.ConditionUnknown}}
	c, name := &a.condition, w.country(leg.country)
	if rule := r.EntryRules.TWOV; rule != nil {
		c.Source = &rule.Source
		a.programs = make([]entrycheck.TransitProgram, len(rule.Value))
		for i, p := range rule.Value {
			a.programs[i] = entrycheck.TransitProgram{TWOVProgram: p, EligibleForThisPassport: traveller.ItemHolds(p.Scope)}
		}
	}
	switch {
	case r.Requirement == entrycheck.VisaFree:
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, w.Text("trip.transit.visa_free", "country", name)
	case r.Requirement == entrycheck.Unknown || r.Requirement == entrycheck.NeedsReview || r.Requirement == entrycheck.NoAdmission:
		c.Detail = w.Text("trip.transit.no_verdict", "country", name)
	case a.programs == nil && curated:
		c.Detail = w.Text("trip.transit.no_programs", "country", name)
	case a.programs == nil:
		c.Detail = w.Text("trip.transit.not_curated", "country", name)
	default:
		a.covered = programCondition(w, c, leg, r.Requirement, a.programs)
	}
	return a
}

// programCondition reads the programmes for an eligible one: the first the
// passport is listed for decides; otherwise one it may be eligible for is
// described. It fills c and reports whether the connection is covered.
func programCondition(w *words, c *entrycheck.Condition, leg tripLeg, req entrycheck.Requirement, programs []entrycheck.TransitProgram) bool {
	document := req.DocumentWithArticleIn(w.Catalog)
	var described *entrycheck.TransitProgram
	for i := range programs {
		p := &programs[i]
		if p.EligibleForThisPassport == nil && described == nil {
			described = p
		}
		if p.EligibleForThisPassport == nil || !*p.EligibleForThisPassport {
			continue
		}
		c.RuleText = p.Text
		if fitsHours(leg.plannedLeg, p.MaxHours) == entrycheck.ConditionNotMet {
			c.Status, c.ActionNeeded = entrycheck.ConditionNotMet, true
			c.Detail = w.Count("trip.transit.program_exceeded", *p.MaxHours, "program", p.Program, "document", document)
			return false
		}
		// Advisory, not met: the programme's own conditions (routes,
		// onward documents, airline) are in its text and cannot be checked here.
		c.Status = entrycheck.ConditionAdvisory
		c.Detail = w.Text("trip.transit.program_eligible", "program", p.Program, "limits", programLimits(w, p), "document", document)
		return true
	}
	if described != nil {
		c.Status, c.RuleText = entrycheck.ConditionUnknown, described.Text
		c.Detail = w.Text("trip.transit.program_may_apply", "program", described.Program, "limits", programLimits(w, described), "document", document)
		return false
	}
	c.Status, c.ActionNeeded = entrycheck.ConditionNotMet, true
	c.Detail = w.Text("trip.transit.not_eligible", "country", w.country(leg.country), "document", document)
	return false
}

// programLimits is a programme's time limit and whether it keeps the
// traveller airside, as a parenthesis after its name; "" when it has
// neither.
func programLimits(w *words, p *entrycheck.TransitProgram) string {
	airside := p.AirsideOnly != nil && *p.AirsideOnly
	switch {
	case p.MaxHours != nil && airside:
		return w.Count("trip.transit.limits.hours_airside", *p.MaxHours)
	case p.MaxHours != nil:
		return w.Count("trip.transit.limits.hours", *p.MaxHours)
	case airside:
		return w.Text("trip.transit.limits.airside")
	}
	return ""
}

// fitsHours compares a dated transit with a programme's time limit. Dates
// are whole days, so a connection within one day fits any limit of 24 hours
// or more, and one spanning n days lasts at least (n-1)*24 hours.
func fitsHours(l plannedLeg, maxHours *int) entrycheck.ConditionStatus {
	if maxHours == nil || l.arrival == nil || l.departure == nil {
		return entrycheck.ConditionUnknown
	}
	span := dayNumber(*l.departure) - dayNumber(*l.arrival)
	switch {
	case span == 0 && *maxHours >= 24:
		return entrycheck.ConditionMet
	case span > 0 && (span-1)*24 >= *maxHours:
		return entrycheck.ConditionNotMet
	}
	return entrycheck.ConditionUnknown
}
