package evaluation

import (
	"strconv"

	"github.com/entrycheck/entrycheck"
)

const schengenRule = "Short stays in the Schengen area: at most 90 days in any 180-day period, all Schengen states counted together; the days of arrival and departure both count, and a day spent in two Schengen states counts once. The list of states is cited; the rule is the Schengen Borders Code's, restated in the curated Schengen exemptions."

// schengenAccount is the trip's short-stay account under the 90/180 rule
// and each Schengen leg's share of it.
type schengenAccount struct {
	// stay is nil when no leg is in a Schengen state.
	stay *entrycheck.SchengenStay
	// conditions holds, by leg index, the condition of each leg in a
	// Schengen state.
	conditions []entrycheck.Condition
}

// areaLeg is a leg in a Schengen state as the account reads it.
type areaLeg struct {
	leg   tripLeg
	best  option
	entry entrycheck.SchengenLeg
	// count is the leg's part of the count, when it is counted.
	count stayCount
}

// schengenAccount counts the short-stay days of the trip in Schengen states
// under the 90/180 rule (see schengenLeg for which legs count) and words
// the account and each Schengen leg's condition.
func (e *Evaluator) schengenAccount(legs []tripLeg, choices []legChoice) schengenAccount {
	group, ok := e.snap.Curated.Groups[entrycheck.GroupSchengen]
	area := e.areaLegs(legs, choices)
	if !ok || len(area) == 0 {
		return schengenAccount{}
	}
	var counted []*areaLeg
	var stays []datedStay
	for k := range area {
		if a := &area[k]; a.entry.Counted {
			counted = append(counted, a)
			stays = append(stays, datedStay{a.leg.arrival, a.leg.departure})
		}
	}
	days := countSchengenDays(stays)
	acc := &entrycheck.SchengenStay{
		Rule: schengenRule, LimitDays: schengenLimitDays, WindowDays: schengenWindowDays, Source: group.Source,
		DaysCounted: days.distinct, PeakDays: days.peak, Legs: make([]entrycheck.SchengenLeg, len(area)),
	}
	if days.peak > 0 {
		acc.PeakWindowEnd = &days.peakEnd
	}
	for m, a := range counted {
		a.count = days.stays[m]
		a.entry.UsedInWindow = a.count.usedAtEnd
	}
	for k, a := range area {
		acc.Legs[k] = a.entry
	}
	tally := schengenTally(area, days.distinct)
	incomplete := "" // the name of the last counted leg that lacks a date
	if days.undated >= 0 {
		incomplete = counted[days.undated].leg.name
	}
	settleSchengen(acc, days, counted, tally, incomplete)
	out := schengenAccount{stay: acc, conditions: make([]entrycheck.Condition, len(legs))}
	for _, a := range area {
		out.conditions[a.leg.index] = schengenCondition(acc, a, tally, incomplete)
	}
	return out
}

// areaLegs are the legs in Schengen states, each with its place in the count.
func (e *Evaluator) areaLegs(legs []tripLeg, choices []legChoice) []areaLeg {
	var area []areaLeg
	for i, l := range legs {
		if l.schengen {
			best := choices[i].best()
			area = append(area, areaLeg{leg: l, best: best, entry: e.schengenLeg(l, best)})
		}
	}
	return area
}

// schengenLeg says whether a leg in a Schengen state counts toward the
// short-stay limit, and why. It counts when the chosen passport's
// requirement there is visa_free with a number of days (a short stay), the
// passport is not one of a Schengen state, and the leg is not an (airside)
// transit. A visa-free route without a number of days is free movement,
// such as an EU citizen's, which the rule does not limit. Legs that need a
// visa do not count here: the visa issued sets the stay, and their
// condition says that a Schengen short-stay visa carries the same limit.
func (e *Evaluator) schengenLeg(leg tripLeg, best option) entrycheck.SchengenLeg {
	sl := entrycheck.SchengenLeg{Index: leg.index, Country: leg.country.ISO3}
	if n, ok := stayDays(leg.plannedLeg); ok {
		sl.Days = entrycheck.SomeDays(n)
	}
	passport := best.passport.country.Name
	switch {
	case leg.transit:
		sl.Reason = "An airside transit does not enter the Schengen area (transit legs are assumed airside; see the defaults applied)."
	case e.destination(best.passport.country.ISO3).schengen:
		sl.Reason = "The passport of " + passport + " is one of a Schengen state: free movement, not limited by the short-stay rule."
	case best.requirement == entrycheck.VisaFree && !best.days.Valid:
		sl.Reason = "Visa-free without a number of days in the secondary visa table for the passport of " + passport + ": free movement (such as an EU or EEA citizen's), not limited by the short-stay rule."
	case best.requirement == entrycheck.VisaFree:
		sl.Counted = true
		sl.Reason = "Visa-free short stay (" + entrycheck.Plural(best.days.N, "day") + ") for the passport of " + passport + ": counts toward 90 days in any 180."
	case best.requirement.NeedsAction():
		sl.Reason = "Entry needs " + best.requirement.DocumentWithArticle() + ": the stay is set by the visa issued; a Schengen short-stay visa carries the same 90-in-180 limit, so apply for one that covers all your Schengen days."
	default:
		sl.Reason = "There is no reliable verdict for this leg, so its days are not counted: check with the official authority."
	}
	return sl
}

// settleSchengen sets the account's status and says why.
func settleSchengen(acc *entrycheck.SchengenStay, days schengenDays, counted []*areaLeg, tally, incomplete string) {
	switch {
	case days.exceeded >= 0:
		over := counted[days.exceeded]
		day := over.count.firstOver
		acc.Status, acc.ExceededOn = entrycheck.ConditionNotMet, &day
		acc.Detail = "Counted: " + tally + ". The limit is passed on " + day.String() + ", during " + over.leg.name + ": that day is the 91st in the 180 days ending on it."
	case len(counted) == 0:
		acc.Status = entrycheck.ConditionNotApplicable
		acc.Detail = "No leg counts toward the short-stay limit; each leg says why."
	case incomplete != "":
		acc.Status = entrycheck.ConditionUnknown
		acc.Detail = "Counted: " + tally + ". The count is incomplete because " + incomplete + " lacks a date; the days known use at most " + strconv.Itoa(acc.PeakDays) + " of 90 in any 180-day window."
	default:
		acc.Status = entrycheck.ConditionMet
		acc.Detail = "Counted: " + tally + ". At most " + strconv.Itoa(acc.PeakDays) + " of 90 days fall in any 180-day window: within the limit."
	}
}

// schengenCondition is one Schengen leg's share of the account.
func schengenCondition(acc *entrycheck.SchengenStay, a areaLeg, tally, incomplete string) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionSchengen, Source: &acc.Source}
	sl := a.entry
	if !sl.Counted {
		// A visa's own stay limit is the traveller's to check.
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, sl.Reason
		if a.best.requirement.NeedsAction() {
			c.Status = entrycheck.ConditionAdvisory
		}
		return c
	}
	together := sl.Reason + " Counted together: " + tally + ". "
	switch {
	case !a.count.firstOver.IsZero():
		c.Status, c.ActionNeeded = entrycheck.ConditionNotMet, true
		c.Detail = together + "On " + a.count.firstOver.String() + " you pass 90 days in the 180 days ending that day: shorten your Schengen stays or obtain a visa that allows a longer stay."
	case !sl.Days.Valid:
		c.Status = entrycheck.ConditionUnknown
		c.Detail = together + "This leg's dates are not given, so its days cannot be counted: give its arrival and departure."
	case incomplete != "":
		c.Status = entrycheck.ConditionUnknown
		c.Detail = together + "By this leg's last day the days known use " + strconv.Itoa(sl.UsedInWindow.N) + " of 90 in the 180-day window, but " + incomplete + " lacks a date, so the count may be higher."
	default:
		c.Status = entrycheck.ConditionMet
		c.Detail = together + "By this leg's last day you will have used " + strconv.Itoa(sl.UsedInWindow.N) + " of 90 days in the 180-day window ending then."
	}
	return c
}

// schengenTally lists the counted legs and their days, for the texts.
func schengenTally(area []areaLeg, distinct int) string {
	s := ""
	for _, a := range area {
		if !a.entry.Counted {
			continue
		}
		days := "undated"
		if a.entry.Days.Valid {
			days = entrycheck.Plural(a.entry.Days.N, "day")
		}
		if s != "" {
			s += ", "
		}
		s += a.leg.name + " " + days
	}
	return s + "; " + entrycheck.Plural(distinct, "distinct day") + " in all"
}
