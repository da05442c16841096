package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// legContext is what assessing a leg needs beyond the leg itself.
type legContext struct {
	leg plannedLeg
	// next is the following leg, nil for the last one.
	next *plannedLeg
	// schengen is true for a Schengen state; areaDeparture is then the
	// departure of the last of the consecutive Schengen legs, the day the
	// traveller leaves the area (nil when not given).
	schengen      bool
	areaDeparture *entrycheck.Date
	// required is the leg's last computation of the required validity.
	required requiredMemo
}

// stayDays is the number of days of a dated leg, both ends included.
func stayDays(l plannedLeg) (int, bool) {
	if l.arrival == nil || l.departure == nil {
		return 0, false
	}
	return dayNumber(*l.departure) - dayNumber(*l.arrival) + 1, true
}

// stayCondition compares the planned stay with the stay the verdict allows.
func stayCondition(w *legWork, r *entrycheck.CheckResult, freeMovement bool) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionStayDuration, Status: entrycheck.ConditionNotApplicable}
	t, o, leg := w.text, w.best(), w.ctx.leg
	days, dated := stayDays(leg)
	switch {
	case leg.transit:
		c.Detail = "Transit leg: no stay is planned; the transit programme's time limit is checked under transit_without_visa."
	case o.own:
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
		c.Detail = t.join("The stay you may make is set by the ", r.Requirement.Document(), " you obtain: make sure it covers the whole leg.")
		if dated {
			c.Detail = t.join(c.Detail, " You plan ", t.plural(days, "day"), ", ", t.date(*leg.arrival), " to ", t.date(*leg.departure), ", both included.")
		}
	case !r.AllowedStayDays.Valid:
		c.Status = entrycheck.ConditionUnknown
		c.Detail = "The matrix gives no number of days for this visa-free route, so the stay cannot be compared with a limit: check with the official authority for a long stay."
	case !dated:
		c.Status = entrycheck.ConditionUnknown
		c.Detail = t.join("Visa-free stays are limited to ", t.plural(r.AllowedStayDays.N, "day"), "; give this leg's arrival and departure dates to compare.")
	case days <= r.AllowedStayDays.N:
		c.Status = entrycheck.ConditionMet
		c.Detail = t.join("You plan ", t.plural(days, "day"), " (arrival and departure days included), within the visa-free limit of ", t.plural(r.AllowedStayDays.N, "day"), ".")
	default:
		c.Status, c.ActionNeeded = entrycheck.ConditionNotMet, true
		c.Detail = t.join("You plan ", t.plural(days, "day"), " (arrival and departure days included), more than the visa-free limit of ", t.plural(r.AllowedStayDays.N, "day"), ": shorten the stay or obtain a visa that allows it.")
	}
	return c
}

// onwardCondition reads the destination's onward-ticket rule against the itinerary.
func onwardCondition(w *legWork, r *entrycheck.CheckResult, curated bool) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionOnwardTicket}
	t, lc, field := w.text, &w.ctx, r.EntryRules.OnwardTicket
	rule := field.Holding()
	name := lc.leg.country.Name
	switch {
	case w.best().own:
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, "You are entering your own country: no onward ticket is asked of citizens."
		return c
	case field != nil && rule == nil:
		c.Status, c.Detail = entrycheck.ConditionUnknown, t.join(name, "'s curated onward-ticket rule is not a rule for your passport: ", field.Note, " Carry proof of onward or return travel to be safe.")
		return c
	case rule == nil && curated:
		c.Status, c.Detail = entrycheck.ConditionUnknown, t.join("No official source for ", name, "'s onward-ticket rule was found; carry proof of onward or return travel to be safe.")
		return c
	case rule == nil:
		c.Status, c.Detail = entrycheck.ConditionUnknown, t.join(name, "'s entry rules are not curated; carry proof of onward or return travel to be safe.")
		return c
	}
	c.Source, c.RuleText = &rule.Source, rule.Value.Text
	var asks string
	switch rule.Value.Required {
	case entrycheck.OnwardMayBeAsked:
		asks = t.join("Border officers in ", name, " may ask for proof of onward or return travel")
	default:
		asks = t.join(name, " requires proof of onward or return travel")
	}
	if lc.next != nil {
		c.Status = entrycheck.ConditionMet
		c.Detail = t.join(asks, "; your itinerary continues to ", lc.next.name, ": carry proof of that booking.")
	} else {
		c.Status = entrycheck.ConditionAdvisory
		c.Detail = t.join(asks, "; the itinerary ends here, so carry proof of your return or onward ticket.")
	}
	return c
}

// yellowFeverCondition reads the destination's certificate rule against the
// itinerary so far: the country the leg arrives from (the previous leg that
// is not a transit, or for the first leg the assumed starting point), the
// transit legs in between, and, conservatively, any earlier leg in a risk
// country, because how recent a stay must be is not curated. A risk country
// is one on the WHO list or on the destination's own list.
func (e *Evaluator) yellowFeverCondition(work []legWork, i int, origin entrycheck.Country) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionYellowFever}
	t, leg := work[i].text, work[i].ctx.leg
	name := leg.country.Name
	d := e.destination(leg.country.ISO3)
	if d.yf == nil {
		c.Status = entrycheck.ConditionUnknown
		c.Detail = t.join("The curated yellow-fever table has no entry for ", name, ", so whether it asks for a certificate is not known; this matters most if the trip passes through a risk country: check its health authority's rule.")
		return c
	}
	yf := d.yf
	rule := &yf.rule.Value
	c.Source, c.RuleText = &yf.rule.Source, rule.Text
	cr := rule.CertificateRequired
	switch {
	case cr == nil:
		c.Status, c.Detail = entrycheck.ConditionUnknown, t.join("The source does not say whom ", name, "'s certificate rule covers: read its text.")
		return c
	case *cr == entrycheck.YellowFeverNone:
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, t.join(name, " requires no yellow-fever certificate.")
		return c
	case *cr == entrycheck.YellowFeverAllTravellers:
		c.Status, c.ActionNeeded = entrycheck.ConditionAdvisory, true
		c.Detail = t.join(name, " requires a yellow-fever certificate of all travellers", minAge(t, rule), ": carry it.")
		return c
	}
	risky := func(j int) bool { return yf.isRisk(e, work[j].ctx.leg.country.ISO3) }
	from, fromName, fromCountry := -1, "", origin
	via := -1 // the latest transit leg in a risk country since the origin
	for j := i - 1; j >= 0; j-- {
		if !work[j].ctx.leg.transit {
			from = j
			break
		}
		if via < 0 && risky(j) {
			via = j
		}
	}
	fromRisk := yf.isRisk(e, origin.ISO3)
	if from >= 0 {
		fromRisk, fromName, fromCountry = risky(from), work[from].ctx.leg.name, work[from].ctx.leg.country
	} else {
		fromName = t.join("your assumed starting point, ", origin.Name, " (see defaults_applied)")
	}
	earlier := -1
	for k := 0; k < from; k++ {
		if risky(k) {
			earlier = k
		}
	}
	transitCounts := rule.IncludesTransit == nil || *rule.IncludesTransit
	asks := " requires a yellow-fever certificate of travellers arriving from a risk country"
	if transitCounts {
		asks = " requires a yellow-fever certificate of travellers arriving from or transiting a risk country"
	}
	// because says why a leg's country is a risk country for this destination.
	because := func(c entrycheck.Country) string {
		why, who := yf.riskWhy(e, leg.country, c)
		if who {
			return t.join(why, " (", e.snap.Curated.YellowFever.RiskList.Source.Name, ")")
		}
		return why
	}
	switch {
	case fromRisk:
		c.Status, c.ActionNeeded = entrycheck.ConditionAdvisory, true
		c.Detail = t.join(name, asks, ", and you arrive from ", fromName, because(fromCountry), ": carry the certificate", minAge(t, rule), ".")
	case via >= 0 && transitCounts:
		c.Status, c.ActionNeeded = entrycheck.ConditionAdvisory, true
		c.Detail = t.join(name, asks, transitHours(t, rule), ", and you transit ", work[via].ctx.leg.name, because(work[via].ctx.leg.country), ": carry the certificate", minAge(t, rule), ".")
	case earlier >= 0:
		c.Status, c.ActionNeeded = entrycheck.ConditionAdvisory, true
		c.Detail = t.join(name, asks, ". You were in ", work[earlier].ctx.leg.name, " earlier in the trip", because(work[earlier].ctx.leg.country), "; how recent a stay must be for the rule to apply is not curated, so carry the certificate to be safe.")
	case via >= 0:
		c.Status = entrycheck.ConditionNotApplicable
		c.Detail = t.join(name, asks, "; transiting ", work[via].ctx.leg.name, " does not count under this rule, and you arrive from ", fromName, ", which is not a risk country for ", name, ".")
	default:
		c.Status = entrycheck.ConditionNotApplicable
		c.Detail = t.join(name, asks, "; you arrive from ", fromName, " and no earlier leg is in a risk country (the WHO list or ", name, "'s own), so it does not apply.")
	}
	return c
}

func minAge(t *textArena, r *entrycheck.YellowFever) string {
	if r.MinAgeMonths == nil {
		return ""
	}
	return t.join(" (from the age of ", t.months(*r.MinAgeMonths), ")")
}

func transitHours(t *textArena, r *entrycheck.YellowFever) string {
	if r.TransitHours == nil {
		return ""
	}
	return t.join(" (a transit counts when it lasts more than ", t.itoa(*r.TransitHours), " hours, so a shorter connection may be exempt)")
}

// transitCondition decides whether a transit leg needs the entry
// requirement at all: a connection is covered when the country runs a
// transit-without-visa programme for which this passport is eligible and the
// leg's dates fit its time limit. It returns the programmes with their
// eligibility for the passport.
func transitCondition(w *legWork, r *entrycheck.CheckResult, curated bool, traveller entrycheck.Traveller) (entrycheck.Condition, bool, []entrycheck.TransitProgram) {
	c := entrycheck.Condition{Kind: entrycheck.ConditionTransit}
	t, name := w.text, w.ctx.leg.country.Name
	var programs []entrycheck.TransitProgram
	if rule := r.EntryRules.TWOV; rule != nil {
		c.Source = &rule.Source
		programs = make([]entrycheck.TransitProgram, len(rule.Value))
		for i, p := range rule.Value {
			programs[i] = entrycheck.TransitProgram{TWOVProgram: p, EligibleForThisPassport: traveller.ItemHolds(p.Scope)}
		}
	}
	switch {
	case r.Requirement == entrycheck.VisaFree:
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, t.join("Entering ", name, " is visa-free with this passport, so a connection needs no transit programme.")
		return c, false, programs
	case r.Requirement == entrycheck.Unknown || r.Requirement == entrycheck.NeedsReview || r.Requirement == entrycheck.NoAdmission:
		c.Status, c.Detail = entrycheck.ConditionUnknown, t.join("There is no usable entry verdict for ", name, "; ask your airline whether the connection needs a transit visa.")
		return c, false, programs
	case programs == nil && curated:
		c.Status, c.Detail = entrycheck.ConditionUnknown, t.join("No transit-without-visa programme of ", name, " was found in official sources; some nationalities need an airport transit visa even airside: ask your airline.")
		return c, false, programs
	case programs == nil:
		c.Status, c.Detail = entrycheck.ConditionUnknown, t.join(name, "'s transit programmes are not curated: ask your airline whether the connection needs a transit visa.")
		return c, false, programs
	}
	var described *entrycheck.TransitProgram
	for i := range programs {
		p := &programs[i]
		switch {
		case p.EligibleForThisPassport == nil:
			if described == nil {
				described = p
			}
			continue
		case !*p.EligibleForThisPassport:
			continue
		}
		c.RuleText = p.Text
		if fitsHours(w.ctx.leg, p.MaxHours) == entrycheck.ConditionNotMet {
			c.Status, c.ActionNeeded = entrycheck.ConditionNotMet, true
			c.Detail = t.join("Your passport is eligible for ", p.Program, ", but the leg's dates exceed its limit of ", t.itoa(*p.MaxHours), " hours: without it you need ", r.Requirement.DocumentWithArticle(), ".")
			return c, false, programs
		}
		// Advisory, not met: the programme's own conditions (routes,
		// onward documents, airline) are in its text and cannot be checked here.
		c.Status = entrycheck.ConditionAdvisory
		c.Detail = t.join("Your passport is listed as eligible for ", p.Program, programLimits(t, p), ": no visa is needed for this connection if you meet its conditions; otherwise you need ", r.Requirement.DocumentWithArticle(), ".")
		return c, true, programs
	}
	if described != nil {
		c.Status, c.RuleText = entrycheck.ConditionUnknown, described.Text
		c.Detail = t.join("You may be eligible for ", described.Program, programLimits(t, described), " if you match its conditions (see rule_text); otherwise the connection needs ", r.Requirement.DocumentWithArticle(), ".")
		return c, false, programs
	}
	c.Status, c.ActionNeeded = entrycheck.ConditionNotMet, true
	c.Detail = t.join("Your passport is not eligible for ", name, "'s transit-without-visa programmes: the connection needs ", r.Requirement.DocumentWithArticle(), ".")
	return c, false, programs
}

func programLimits(t *textArena, p *entrycheck.TransitProgram) string {
	airside := p.AirsideOnly != nil && *p.AirsideOnly
	switch {
	case p.MaxHours != nil && airside:
		return t.join(" (up to ", t.itoa(*p.MaxHours), " hours, staying airside)")
	case p.MaxHours != nil:
		return t.join(" (up to ", t.itoa(*p.MaxHours), " hours)")
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

// extraConditions lists the destination's blank-page and other health
// rules, which apply as stated and cannot be checked against a plan.
func extraConditions(out []entrycheck.Condition, w *legWork, r *entrycheck.CheckResult) []entrycheck.Condition {
	if w.best().own {
		return out
	}
	if bp := r.EntryRules.BlankPages.Holding(); bp != nil {
		out = append(out, entrycheck.Condition{
			Kind: entrycheck.ConditionBlankPages, Status: entrycheck.ConditionAdvisory, Source: &bp.Source, RuleText: bp.Value.Text,
			Detail: w.text.join("Keep at least ", w.text.plural(bp.Value.Pages, "blank page"), " in the passport."),
		})
	}
	if h := r.EntryRules.OtherHealth.Holding(); h != nil {
		for _, rule := range h.Value {
			out = append(out, entrycheck.Condition{
				Kind: entrycheck.ConditionOtherHealth, Status: entrycheck.ConditionAdvisory, Source: &h.Source, RuleText: rule.Text,
				Detail: w.text.join("Health rule: ", rule.Topic, "."),
			})
		}
	}
	return out
}
