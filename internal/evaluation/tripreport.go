package evaluation

import (
	"slices"
	"time"

	"github.com/entrycheck/entrycheck"
)

// summarize takes the most serious leg status as the trip's (see
// entrycheck.TripStatus for the order), counts every status, and lists what
// needs the traveller's attention in leg order, in the language of w.
func summarize(w *words, legs []entrycheck.LegDecision) entrycheck.TripSummary {
	s := entrycheck.TripSummary{Status: entrycheck.TripReady, Attention: []string{}, Counts: countLegs(legs)}
	for _, l := range legs {
		s.Attention = append(s.Attention, legAttention(w, l)...)
		if statusOrder(l.Status) > statusOrder(s.Status) {
			s.Status = l.Status
		}
	}
	s.Text = summaryText(w, s.Status, s.Counts)
	if old := oldVerdictsText(w, legs); old != "" {
		s.Text = sentences(w, s.Text, old)
	}
	return s
}

// oldVerdictsText says in the summary which legs rest on an old verdict
// that must be confirmed, and with whom; empty when none does. Each leg's
// condition names the official page.
func oldVerdictsText(w *words, legs []entrycheck.LegDecision) string {
	var which, whom []string
	for _, l := range legs {
		for _, c := range l.Conditions {
			if c.Kind == entrycheck.ConditionVerdictAge {
				name := w.country(l.Country)
				which = append(which, w.Text("trip.summary.leg_number", "number", w.Number(l.Index+1), "country", name))
				if !slices.Contains(whom, name) {
					whom = append(whom, name)
				}
			}
		}
	}
	switch {
	case len(which) == 0:
		return ""
	case len(which) == 1:
		return w.Count("trip.summary.old_verdict", entrycheck.VerdictOldAfterDays, "leg", which[0], "country", whom[0])
	case len(whom) == 1:
		return w.Count("trip.summary.old_verdicts", entrycheck.VerdictOldAfterDays, "legs", entrycheck.JoinWordsIn(w.Catalog, which), "country", whom[0])
	}
	return w.Count("trip.summary.old_verdicts_many", entrycheck.VerdictOldAfterDays, "legs", entrycheck.JoinWordsIn(w.Catalog, which), "countries", entrycheck.JoinWordsIn(w.Catalog, whom))
}

// countLegs counts legs by status and their conditions by outcome.
func countLegs(legs []entrycheck.LegDecision) entrycheck.TripCounts {
	c := entrycheck.TripCounts{Legs: len(legs)}
	for _, l := range legs {
		switch l.Status {
		case entrycheck.TripReady:
			c.Ready++
		case entrycheck.TripActionNeeded:
			c.ActionNeeded++
		case entrycheck.TripCheckNeeded:
			c.CheckNeeded++
		case entrycheck.TripNotPossible:
			c.NotPossible++
		case entrycheck.TripUnknown:
			c.Unknown++
		}
		if l.Requirement == entrycheck.NeedsReview {
			c.NeedsReview++
		}
		for _, cond := range l.Conditions {
			switch cond.Status {
			case entrycheck.ConditionNotMet:
				c.ConditionsNotMet++
			case entrycheck.ConditionUnknown:
				c.ConditionsUnknown++
			}
		}
	}
	return c
}

// legAttention lists what a leg asks of the traveller: a verdict that
// stops or may stop the leg, the document to obtain, rules not cited, and
// every condition that needs action or could not be checked. Each item
// names its leg.
func legAttention(w *words, l entrycheck.LegDecision) []string {
	name, passport := w.country(l.Country), w.country(l.Passport.Country)
	var out []string
	item := func(id string, args ...string) {
		text := w.Text(id, args...)
		out = append(out, w.Text("trip.attention.leg", "number", w.Number(l.Index+1), "country", name, "text", text))
	}
	switch {
	case l.Status == entrycheck.TripNotPossible:
		item("trip.attention.no_admission")
	case l.Status == entrycheck.TripUnknown && l.Requirement == entrycheck.NoAdmission:
		item("trip.attention.no_admission_unknown", "country", passport)
	case l.Status == entrycheck.TripUnknown:
		item("trip.attention.no_reliable_verdict." + string(l.Requirement))
	}
	if l.Requirement.NeedsAction() && l.Action != entrycheck.ActionNone {
		if l.Apply != nil {
			item("trip.attention.obtain_at", "requirement", l.RequirementLabel, "country", passport, "action", actionText(w, l.Action), "url", l.Apply.URL)
		} else {
			item("trip.attention.obtain", "requirement", l.RequirementLabel, "country", passport, "action", actionText(w, l.Action))
		}
	}
	if own := l.Passport.Country.ISO3 == l.Country.ISO3; !own && l.Coverage != entrycheck.CoverageExtended {
		item("trip.attention.rules_not_cited", "country", name)
	}
	for _, cond := range l.Conditions {
		switch {
		case cond.ActionNeeded:
			item("trip.attention.condition", "condition", conditionLabel(w, cond.Kind), "detail", cond.Detail)
		case cond.Status == entrycheck.ConditionUnknown:
			item("trip.attention.condition_unknown", "condition", conditionLabel(w, cond.Kind), "detail", cond.Detail)
		}
	}
	return out
}

// summaryText is the trip's verdict in a sentence and its counts.
func summaryText(w *words, status entrycheck.TripStatus, c entrycheck.TripCounts) string {
	text := sentences(w, w.Text("trip.summary.status."+string(status)), w.Count("trip.summary.counts", c.Legs,
		"ready", w.Number(c.Ready), "check_needed", w.Number(c.CheckNeeded), "action_needed", w.Number(c.ActionNeeded),
		"not_possible", w.Number(c.NotPossible), "unknown", w.Number(c.Unknown)))
	if c.ConditionsUnknown > 0 {
		text = sentences(w, text, w.Count("trip.summary.conditions_unknown", c.ConditionsUnknown))
	}
	return text
}

// statusOrder ranks statuses by seriousness: not_possible, unknown,
// action_needed, check_needed, ready.
func statusOrder(s entrycheck.TripStatus) int {
	switch s {
	case entrycheck.TripNotPossible:
		return 4
	case entrycheck.TripUnknown:
		return 3
	case entrycheck.TripActionNeeded:
		return 2
	case entrycheck.TripCheckNeeded:
		return 1
	}
	return 0
}

// actionText says in the language of w what to do about a document to
// obtain.
func actionText(w *words, a entrycheck.Action) string {
	if id := "trip.attention.action." + string(a); w.Has(id) {
		return w.Text(id)
	}
	return a.WordsIn(w.Catalog)
}

// The defaults a trip applies beyond a check's, by the field left open;
// each reason is message trip.default.<name>.
const (
	tripDefaultPurpose   = "trip.default.purpose"
	tripDefaultArrival   = "trip.default.arrival"
	tripDefaultDeparture = "trip.default.departure"
	tripDefaultExpires   = "trip.default.expires"
	tripDefaultOrigin    = "trip.default.origin"
	tripDefaultAirside   = "trip.default.airside"
	tripDefaultSchengen  = "trip.default.schengen_prior_days"
	tripDefaultNoDates   = "trip.default.no_dates"
)

// What a trip's answer assumes beyond a check's.
const (
	assumeTripPassports = "assumption.trip.passports"
	assumeTripOrder     = "assumption.trip.order"
	assumeTripFuture    = "assumption.trip.future"
	assumeTripPast      = "assumption.trip.past"
	assumeTripYellow    = "assumption.trip.yellow_fever"
)

// tripDefaults lists every default the evaluation applied, with the legs or
// passports it was applied to, each with its reason (a message id) worded
// in the language of w; origin is where the trip is assumed to start.
func tripDefaults(w *words, plan tripPlan, origin entrycheck.Country, schengen *entrycheck.SchengenStay) []entrycheck.TripDefault {
	var out []entrycheck.TripDefault
	tripWide := func(field, value, reason string) {
		out = append(out, entrycheck.TripDefault{Field: field, Value: value, Reason: w.Text(reason)})
	}
	forItems := func(field, value string, indexes []int, reason string) {
		if len(indexes) > 0 {
			out = append(out, entrycheck.TripDefault{Field: field, Value: value, Indexes: indexes, Reason: w.Text(reason)})
		}
	}
	forItems("trip.legs[].purpose", entrycheck.PurposeTourism, legsWhere(plan, func(l plannedLeg) bool { return l.purpose == "" }), tripDefaultPurpose)
	tripWide(defaultDoc.Field, defaultDoc.Value, "default."+defaultDoc.Field)
	tripWide(defaultStay.Field, defaultStay.Value, "default."+defaultStay.Field)
	dated := legsWhere(plan, func(l plannedLeg) bool { return l.arrival != nil || l.departure != nil })
	if len(dated) == 0 {
		tripWide(defaultDate.Field, defaultDate.Value, tripDefaultNoDates)
	}
	forItems("trip.legs[].arrival", "not_given", legsWhere(plan, func(l plannedLeg) bool { return l.arrival == nil }), tripDefaultArrival)
	forItems("trip.legs[].departure", "not_given", legsWhere(plan, func(l plannedLeg) bool { return l.departure == nil }), tripDefaultDeparture)
	var undated []int
	for _, p := range plan.passports {
		if p.expires == nil {
			undated = append(undated, p.index)
		}
	}
	forItems("traveler.passports[].expires", "not_given", undated, tripDefaultExpires)
	tripWide("trip.origin", origin.ISO3, tripDefaultOrigin)
	forItems("trip.legs[].transit", "airside", legsWhere(plan, func(l plannedLeg) bool { return l.transit }), tripDefaultAirside)
	if len(plan.permits) == 0 && len(plan.visas) == 0 {
		tripWide(defaultHeld.Field, defaultHeld.Value, "default."+defaultHeld.Field)
	}
	if schengen != nil && schengen.Status != entrycheck.ConditionNotApplicable {
		tripWide("schengen.prior_days", "0", tripDefaultSchengen)
	}
	return out
}

// legsWhere lists the indexes of the legs that match.
func legsWhere(plan tripPlan, match func(plannedLeg) bool) []int {
	var out []int
	for _, l := range plan.legs {
		if match(l) {
			out = append(out, l.index)
		}
	}
	return out
}

// tripAssumptions lists what the answer assumes beyond its defaults, in
// the language of w.
func tripAssumptions(w *words, legs []tripLeg, choices []legChoice, now time.Time) []string {
	out := []string{w.Text(assumeTripPassports), w.Text(assumeMatrix), w.Text(assumeTripOrder), w.Text(assumeTripFuture), w.Text(assumeTripYellow)}
	today := entrycheck.DateOf(now)
	business, past, exemption, own := false, false, false, false
	for i, l := range legs {
		best := choices[i].best()
		business = business || l.purpose == entrycheck.PurposeBusiness
		own = own || best.own
		exemption = exemption || best.exemption
		if first := firstGiven(l.arrival, l.departure); first != nil && dateBefore(*first, today) {
			past = true
		}
	}
	for _, a := range []struct {
		holds bool
		text  string
	}{{own, w.Text(assumeOwn)}, {business, w.Text(assumeBusiness)}, {exemption, w.Text(assumeExemption)}, {past, w.Text(assumeTripPast)}} {
		if a.holds {
			out = append(out, a.text)
		}
	}
	return out
}
