package evaluation

import (
	"strconv"

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
// leg's dates fit its time limit.
func transitCondition(leg tripLeg, r *entrycheck.CheckResult, curated bool, traveller entrycheck.Traveller) transitAnswer {
	a := transitAnswer{condition: entrycheck.Condition{Kind: entrycheck.ConditionTransit, Status: entrycheck.ConditionUnknown}}
	c, name := &a.condition, leg.country.Name
	if rule := r.EntryRules.TWOV; rule != nil {
		c.Source = &rule.Source
		a.programs = make([]entrycheck.TransitProgram, len(rule.Value))
		for i, p := range rule.Value {
			a.programs[i] = entrycheck.TransitProgram{TWOVProgram: p, EligibleForThisPassport: traveller.ItemHolds(p.Scope)}
		}
	}
	switch {
	case r.Requirement == entrycheck.VisaFree:
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, "Entering "+name+" is visa-free with this passport, so a connection needs no transit programme."
	case r.Requirement == entrycheck.Unknown || r.Requirement == entrycheck.NeedsReview || r.Requirement == entrycheck.NoAdmission:
		c.Detail = "There is no usable entry verdict for " + name + "; ask your airline whether the connection needs a transit visa."
	case a.programs == nil && curated:
		c.Detail = "No transit-without-visa programme of " + name + " was found in official sources; some nationalities need an airport transit visa even airside: ask your airline."
	case a.programs == nil:
		c.Detail = name + "'s transit programmes are not curated: ask your airline whether the connection needs a transit visa."
	default:
		a.covered = programCondition(c, leg, r.Requirement, a.programs)
	}
	return a
}

// programCondition reads the programmes for an eligible one: the first the
// passport is listed for decides; otherwise one it may be eligible for is
// described. It fills c and reports whether the connection is covered.
func programCondition(c *entrycheck.Condition, leg tripLeg, req entrycheck.Requirement, programs []entrycheck.TransitProgram) bool {
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
			c.Detail = "Your passport is eligible for " + p.Program + ", but the leg's dates exceed its limit of " + strconv.Itoa(*p.MaxHours) + " hours: without it you need " + req.DocumentWithArticle() + "."
			return false
		}
		// Advisory, not met: the programme's own conditions (routes,
		// onward documents, airline) are in its text and cannot be checked here.
		c.Status = entrycheck.ConditionAdvisory
		c.Detail = "Your passport is listed as eligible for " + p.Program + programLimits(p) + ": no visa is needed for this connection if you meet its conditions; otherwise you need " + req.DocumentWithArticle() + "."
		return true
	}
	if described != nil {
		c.Status, c.RuleText = entrycheck.ConditionUnknown, described.Text
		c.Detail = "You may be eligible for " + described.Program + programLimits(described) + " if you match its conditions (see the rule's text); otherwise the connection needs " + req.DocumentWithArticle() + "."
		return false
	}
	c.Status, c.ActionNeeded = entrycheck.ConditionNotMet, true
	c.Detail = "Your passport is not eligible for " + leg.country.Name + "'s transit-without-visa programmes: the connection needs " + req.DocumentWithArticle() + "."
	return false
}

func programLimits(p *entrycheck.TransitProgram) string {
	airside := p.AirsideOnly != nil && *p.AirsideOnly
	switch {
	case p.MaxHours != nil && airside:
		return " (up to " + strconv.Itoa(*p.MaxHours) + " hours, staying airside)"
	case p.MaxHours != nil:
		return " (up to " + strconv.Itoa(*p.MaxHours) + " hours)"
	case airside:
		return " (staying airside)"
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
