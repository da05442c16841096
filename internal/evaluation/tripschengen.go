package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

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
// the account and each Schengen leg's condition in the language of w.
func (e *Evaluator) schengenAccount(w *words, legs []tripLeg, choices []legChoice) schengenAccount {
	group, ok := e.snap.Curated.Groups[entrycheck.GroupSchengen]
	area := e.areaLegs(w, legs, choices)
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
		Rule: w.Text("trip.schengen.rule"), LimitDays: schengenLimitDays, WindowDays: schengenWindowDays, Source: group.Source,
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
	tally := schengenTally(w, area, days.distinct)
	incomplete := "" // the name of the last counted leg that lacks a date
	if days.undated >= 0 {
		incomplete = counted[days.undated].leg.name
	}
	settleSchengen(w, acc, days, counted, tally, incomplete)
	out := schengenAccount{stay: acc, conditions: make([]entrycheck.Condition, len(legs))}
	for _, a := range area {
		out.conditions[a.leg.index] = schengenCondition(w, acc, a, tally, incomplete)
	}
	return out
}

// areaLegs are the legs in Schengen states, each with its place in the count.
func (e *Evaluator) areaLegs(w *words, legs []tripLeg, choices []legChoice) []areaLeg {
	var area []areaLeg
	for i, l := range legs {
		if l.schengen {
			best := choices[i].best()
			area = append(area, areaLeg{leg: l, best: best, entry: e.schengenLeg(w, l, best)})
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
func (e *Evaluator) schengenLeg(w *words, leg tripLeg, best option) entrycheck.SchengenLeg {
	sl := entrycheck.SchengenLeg{Index: leg.index, Country: leg.country.ISO3}
	if n, ok := stayDays(leg.plannedLeg); ok {
		sl.Days = entrycheck.SomeDays(n)
	}
	passport := w.country(best.passport.country)
	switch {
	case leg.transit:
		sl.Reason = w.Text("trip.schengen.leg.airside")
	case e.destination(best.passport.country.ISO3).schengen:
		sl.Reason = w.Text("trip.schengen.leg.schengen_passport", "country", passport)
	case best.requirement == entrycheck.VisaFree && !best.days.Valid:
		sl.Reason = w.Text("trip.schengen.leg.free_movement", "country", passport)
	case best.requirement == entrycheck.VisaFree:
		sl.Counted = true
		sl.Reason = w.Text("trip.schengen.leg.counted", "days", countDays(w, best.days.N), "country", passport)
	case best.requirement.NeedsAction():
		sl.Reason = w.Text("trip.schengen.leg.visa", "document", best.requirement.DocumentWithArticleIn(w.Catalog))
	default:
		sl.Reason = w.Text("trip.schengen.leg.no_reliable_verdict")
	}
	return sl
}

// settleSchengen sets the account's status and says why.
func settleSchengen(w *words, acc *entrycheck.SchengenStay, days schengenDays, counted []*areaLeg, tally, incomplete string) {
	switch {
	case days.exceeded >= 0:
		over := counted[days.exceeded]
		day := over.count.firstOver
		acc.Status, acc.ExceededOn = entrycheck.ConditionNotMet, &day
		acc.Detail = w.Text("trip.schengen.exceeded", "tally", tally, "date", dateText(w, day), "leg", over.leg.name)
	case len(counted) == 0:
		acc.Status = entrycheck.ConditionNotApplicable
		acc.Detail = w.Text("trip.schengen.none_counted")
	case incomplete != "":
		acc.Status = entrycheck.ConditionUnknown
		acc.Detail = w.Text("trip.schengen.incomplete", "tally", tally, "leg", incomplete, "peak", w.Number(acc.PeakDays))
	default:
		acc.Status = entrycheck.ConditionMet
		acc.Detail = w.Text("trip.schengen.within", "tally", tally, "peak", w.Number(acc.PeakDays))
	}
}

// schengenCondition is one Schengen leg's share of the account.
func schengenCondition(w *words, acc *entrycheck.SchengenStay, a areaLeg, tally, incomplete string) entrycheck.Condition {
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
	var share string
	switch {
	case !a.count.firstOver.IsZero():
		c.Status, c.ActionNeeded = entrycheck.ConditionNotMet, true
		share = w.Text("trip.schengen.share.exceeded", "date", dateText(w, a.count.firstOver))
	case !sl.Days.Valid:
		c.Status = entrycheck.ConditionUnknown
		share = w.Text("trip.schengen.share.undated")
	case incomplete != "":
		c.Status = entrycheck.ConditionUnknown
		share = w.Text("trip.schengen.share.incomplete", "used", w.Number(sl.UsedInWindow.N), "leg", incomplete)
	default:
		c.Status = entrycheck.ConditionMet
		share = w.Text("trip.schengen.share.within", "used", w.Number(sl.UsedInWindow.N))
	}
	c.Detail = sentences(w, sl.Reason, w.Text("trip.schengen.share.together", "tally", tally), share)
	return c
}

// schengenTally lists the counted legs and their days, for the texts.
func schengenTally(w *words, area []areaLeg, distinct int) string {
	legs := ""
	for _, a := range area {
		if !a.entry.Counted {
			continue
		}
		n := w.Text("trip.schengen.undated")
		if a.entry.Days.Valid {
			n = countDays(w, a.entry.Days.N)
		}
		item := w.Text("trip.schengen.tally.leg", "leg", a.leg.name, "days", n)
		if legs == "" {
			legs = item
		} else {
			legs = w.Text("list.comma", "a", legs, "b", item)
		}
	}
	return w.Count("trip.schengen.tally", distinct, "legs", legs)
}
