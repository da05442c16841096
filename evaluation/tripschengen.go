package evaluation

import (
	"slices"

	"github.com/entrycheck/entrycheck"
)

// The Schengen short-stay rule: at most schengenLimitDays days in any
// schengenWindowDays-day period, all Schengen states together.
const (
	schengenLimitDays  = 90
	schengenWindowDays = 180
	schengenRule       = "Short stays in the Schengen area: at most 90 days in any 180-day period, all Schengen states counted together; the days of arrival and departure both count, and a day spent in two Schengen states counts once. The list of states is cited; the rule is the Schengen Borders Code's, restated in the curated Schengen exemptions."
)

// span is a run of days, both ends included, as day numbers.
type span struct{ from, to int }

// schengenAccount counts the short-stay days of the trip in Schengen states
// under the 90/180 rule and sets each Schengen leg's condition. A leg counts
// when the chosen passport's requirement there is visa_free with a number
// of days (a short stay), the passport is not one of a Schengen state, and
// the leg is not an (airside) transit. A visa-free route without a number of
// days is free movement, such as an EU citizen's, which the rule does not
// limit. Legs that need a visa do not count here: the visa issued sets the
// stay, and their condition says that a Schengen short-stay visa carries
// the same limit. It returns nil when no leg is in a Schengen state.
func (e *Evaluator) schengenAccount(work []legWork) *entrycheck.SchengenStay {
	group, ok := e.snap.Curated.Groups[entrycheck.GroupSchengen]
	if !ok || len(work) == 0 {
		return nil
	}
	t := work[0].text
	acc := &entrycheck.SchengenStay{Rule: schengenRule, LimitDays: schengenLimitDays, WindowDays: schengenWindowDays, Source: group.Source}
	n := 0
	for i := range work {
		if work[i].ctx.schengen {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	acc.Legs = make([]entrycheck.SchengenLeg, 0, n)
	spans := make([]span, 0, n)
	counted := make([]int, 0, n) // indexes into work
	incomplete := -1             // a counted leg without both dates
	for i := range work {
		w := &work[i]
		if !w.ctx.schengen {
			continue
		}
		best, leg := w.best(), w.ctx.leg
		sl := entrycheck.SchengenLeg{Index: leg.index, Country: leg.country.ISO3}
		if n, ok := stayDays(leg); ok {
			sl.Days = entrycheck.SomeDays(n)
		}
		passport := best.passport.country.ISO3
		switch {
		case leg.transit:
			sl.Reason = "An airside transit does not enter the Schengen area (transit legs are assumed airside; see defaults_applied)."
		case e.destination(passport).schengen:
			sl.Reason = t.join("The ", passport, " passport is one of a Schengen state: free movement, not limited by the short-stay rule.")
		case best.requirement == entrycheck.VisaFree && !best.days.Valid:
			sl.Reason = t.join("Visa-free without a number of days in the matrix for the ", passport, " passport: free movement (such as an EU or EEA citizen's), not limited by the short-stay rule.")
		case best.requirement == entrycheck.VisaFree:
			sl.Counted = true
			sl.Reason = t.join("Visa-free short stay (", t.plural(best.days.N, "day"), ") for the ", passport, " passport: counts toward 90 days in any 180.")
		case best.requirement.NeedsAction():
			sl.Reason = t.join("Entry needs ", best.requirement.DocumentWithArticle(), ": the stay is set by the visa issued; a Schengen short-stay visa carries the same 90-in-180 limit, so apply for one that covers all your Schengen days.")
		default:
			sl.Reason = "There is no reliable verdict for this leg, so its days are not counted: check with the official authority."
		}
		w.schengenIndex = len(acc.Legs)
		acc.Legs = append(acc.Legs, sl)
		if !sl.Counted {
			continue
		}
		counted = append(counted, i)
		a, d := leg.arrival, leg.departure
		if a == nil || d == nil {
			incomplete = i
		}
		if first := firstGiven(a, d); first != nil {
			spans = append(spans, span{dayNumber(*first), dayNumber(*firstGiven(d, a))})
		}
	}
	if len(acc.Legs) == 0 {
		return nil
	}
	union := mergeSpans(spans)
	for _, s := range union {
		acc.DaysCounted += s.to - s.from + 1
	}
	exceededLeg, peakEnd := -1, 0 // the leg with the first day past the limit
	for _, i := range counted {
		w := &work[i]
		a, d := w.ctx.leg.arrival, w.ctx.leg.departure
		if a == nil && d == nil {
			continue
		}
		from, to := dayNumber(*firstGiven(a, d)), dayNumber(*firstGiven(d, a))
		// Once a window lies wholly inside the leg, every later day of the
		// leg counts a full window: the peak and the first day past the
		// limit come before, so a long stay costs no more than 180 days.
		for day := from; day <= min(to, from+schengenWindowDays-1); day++ {
			n := countIn(union, day-schengenWindowDays+1, day)
			if n > acc.PeakDays {
				acc.PeakDays, peakEnd = n, day
			}
			if n > schengenLimitDays && !w.overLimit {
				w.overLimit, w.firstDayOver = true, day
			}
		}
		if a != nil && d != nil {
			acc.Legs[w.schengenIndex].UsedInWindow = entrycheck.SomeDays(countIn(union, to-schengenWindowDays+1, to))
		}
		if w.overLimit && (exceededLeg < 0 || w.firstDayOver < work[exceededLeg].firstDayOver) {
			exceededLeg = i
		}
	}
	if acc.PeakDays > 0 {
		end := dateOfDay(peakEnd)
		acc.PeakWindowEnd = &end
	}
	tally := schengenTally(t, acc, work)
	switch {
	case exceededLeg >= 0:
		acc.Status = entrycheck.ConditionNotMet
		day := dateOfDay(work[exceededLeg].firstDayOver)
		acc.ExceededOn = &day
		acc.Detail = t.join("Counted: ", tally, ". The limit is passed on ", t.date(day), ", during ", work[exceededLeg].ctx.leg.name, ": that day is the 91st in the 180 days ending on it.")
	case len(counted) == 0:
		acc.Status = entrycheck.ConditionNotApplicable
		acc.Detail = "No leg counts toward the short-stay limit; each leg says why."
	case incomplete >= 0:
		acc.Status = entrycheck.ConditionUnknown
		acc.Detail = t.join("Counted: ", tally, ". The count is incomplete because ", work[incomplete].ctx.leg.name, " lacks a date; the days known use at most ", t.itoa(acc.PeakDays), " of 90 in any 180-day window.")
	default:
		acc.Status = entrycheck.ConditionMet
		acc.Detail = t.join("Counted: ", tally, ". At most ", t.itoa(acc.PeakDays), " of 90 days fall in any 180-day window: within the limit.")
	}
	for i := range work {
		if work[i].ctx.schengen {
			work[i].schengen = schengenCondition(acc, work, i, tally, incomplete)
		}
	}
	return acc
}

// schengenCondition is one Schengen leg's share of the account.
func schengenCondition(acc *entrycheck.SchengenStay, work []legWork, i int, tally string, incomplete int) entrycheck.Condition {
	w := &work[i]
	t, sl := w.text, &acc.Legs[w.schengenIndex]
	c := entrycheck.Condition{Kind: entrycheck.ConditionSchengen, Source: &acc.Source}
	switch {
	case !sl.Counted && w.best().requirement.NeedsAction():
		c.Status, c.Detail = entrycheck.ConditionAdvisory, sl.Reason
		return c
	case !sl.Counted:
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, sl.Reason
		return c
	}
	switch {
	case w.overLimit:
		c.Status, c.ActionNeeded = entrycheck.ConditionNotMet, true
		c.Detail = t.join(sl.Reason, " Counted together: ", tally, ". On ", t.date(dateOfDay(w.firstDayOver)), " you pass 90 days in the 180 days ending that day: shorten your Schengen stays or obtain a visa that allows a longer stay.")
	case !sl.Days.Valid:
		c.Status = entrycheck.ConditionUnknown
		c.Detail = t.join(sl.Reason, " Counted together: ", tally, ". This leg's dates are not given, so its days cannot be counted: give its arrival and departure.")
	case incomplete >= 0:
		c.Status = entrycheck.ConditionUnknown
		c.Detail = t.join(sl.Reason, " Counted together: ", tally, ". By this leg's last day the days known use ", t.itoa(sl.UsedInWindow.N), " of 90 in the 180-day window, but ", work[incomplete].ctx.leg.name, " lacks a date, so the count may be higher.")
	default:
		c.Status = entrycheck.ConditionMet
		c.Detail = t.join(sl.Reason, " Counted together: ", tally, ". By this leg's last day you will have used ", t.itoa(sl.UsedInWindow.N), " of 90 days in the 180-day window ending then.")
	}
	return c
}

// schengenTally lists the counted legs and their days, for the texts.
func schengenTally(t *textArena, acc *entrycheck.SchengenStay, work []legWork) string {
	s := ""
	for _, sl := range acc.Legs {
		if !sl.Counted {
			continue
		}
		days := "undated"
		if sl.Days.Valid {
			days = t.plural(sl.Days.N, "day")
		}
		if s == "" {
			s = t.join(work[sl.Index].ctx.leg.name, " ", days)
		} else {
			s = t.join(s, ", ", work[sl.Index].ctx.leg.name, " ", days)
		}
	}
	return t.join(s, "; ", t.plural(acc.DaysCounted, "distinct day"), " in all")
}

// mergeSpans returns the union of spans, sorted.
func mergeSpans(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	var out []span
	for _, s := range spans {
		if n := len(out); n > 0 && s.from <= out[n-1].to+1 {
			out[n-1].to = max(out[n-1].to, s.to)
			continue
		}
		out = append(out, s)
	}
	return out
}

// countIn counts the days of a sorted union of spans between lo and hi.
func countIn(union []span, lo, hi int) int {
	n := 0
	for _, s := range union {
		if a, b := max(s.from, lo), min(s.to, hi); a <= b {
			n += b - a + 1
		}
	}
	return n
}
