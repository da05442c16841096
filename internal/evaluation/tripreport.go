package evaluation

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
)

// summarize takes the most serious leg status as the trip's (see
// entrycheck.TripStatus for the order), counts every status, and lists what
// needs the traveller's attention in leg order.
func summarize(legs []entrycheck.LegDecision) entrycheck.TripSummary {
	s := entrycheck.TripSummary{Status: entrycheck.TripReady, Attention: []string{}, Counts: countLegs(legs)}
	for _, l := range legs {
		s.Attention = append(s.Attention, legAttention(l)...)
		if statusOrder(l.Status) > statusOrder(s.Status) {
			s.Status = l.Status
		}
	}
	s.Text = summaryText(s.Status, s.Counts) + oldVerdictsText(legs)
	return s
}

// oldVerdictsText says in the summary which legs rest on an old verdict
// that must be confirmed, and with whom; empty when none does. Each leg's
// condition names the official page.
func oldVerdictsText(legs []entrycheck.LegDecision) string {
	var which, whom []string
	for _, l := range legs {
		for _, c := range l.Conditions {
			if c.Kind == entrycheck.ConditionVerdictAge {
				which = append(which, strconv.Itoa(l.Index+1)+" ("+l.Country.Name+")")
				if !slices.Contains(whom, l.Country.Name) {
					whom = append(whom, l.Country.Name)
				}
			}
		}
	}
	days := strconv.Itoa(entrycheck.VerdictOldAfterDays)
	switch len(which) {
	case 0:
		return ""
	case 1:
		return " The verdict of leg " + which[0] + " is older than " + days + " days and may have changed: confirm it with the official authority of " + whom[0] + " before you travel (see what needs attention)."
	}
	authorities := "the official authorities of " + entrycheck.JoinWords(whom)
	if len(whom) == 1 {
		authorities = "the official authority of " + whom[0]
	}
	return " The verdicts of legs " + entrycheck.JoinWords(which) + " are older than " + days + " days and may have changed: confirm them with " + authorities + " before you travel (see what needs attention)."
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
// every condition that needs action or could not be checked.
func legAttention(l entrycheck.LegDecision) []string {
	prefix := "Leg " + strconv.Itoa(l.Index+1) + " (" + l.Country.Name + "): "
	var out []string
	switch {
	case l.Status == entrycheck.TripNotPossible:
		out = append(out, prefix+"no admission with any of your passports.")
	case l.Status == entrycheck.TripUnknown && l.Requirement == entrycheck.NoAdmission:
		out = append(out, prefix+"no admission with the passport of "+l.Passport.Country.Name+" and no reliable verdict for another of your passports: check with the official authority.")
	case l.Status == entrycheck.TripUnknown:
		out = append(out, prefix+"no reliable verdict ("+string(l.Requirement)+") for any of your passports: check with the official authority before you travel.")
	}
	if l.Requirement.NeedsAction() && l.Action != entrycheck.ActionNone {
		where := "."
		if l.Apply != nil {
			where = " (" + l.Apply.URL + ")."
		}
		out = append(out, prefix+l.RequirementLabel+" with the passport of "+l.Passport.Country.Name+": "+actionText(l.Action)+where)
	}
	if own := l.Passport.Country.ISO3 == l.Country.ISO3; !own && l.Coverage != entrycheck.CoverageExtended {
		out = append(out, prefix+"still to check: no entry rule of "+l.Country.Name+" could be cited from an official source here; ask its embassy or official authority what it requires beyond the visa verdict.")
	}
	for _, cond := range l.Conditions {
		switch {
		case cond.ActionNeeded:
			out = append(out, prefix+conditionLabel(cond.Kind)+": "+cond.Detail)
		case cond.Status == entrycheck.ConditionUnknown:
			out = append(out, prefix+"still to check, "+conditionLabel(cond.Kind)+": "+cond.Detail)
		}
	}
	return out
}

// summaryText is the trip's verdict in a sentence and its counts.
func summaryText(status entrycheck.TripStatus, c entrycheck.TripCounts) string {
	var verdict string
	switch status {
	case entrycheck.TripNotPossible:
		verdict = "Not possible as planned: at least one leg admits none of your passports."
	case entrycheck.TripUnknown:
		verdict = "Unknown: at least one leg has no reliable verdict; check with the official authority before relying on this plan."
	case entrycheck.TripActionNeeded:
		verdict = "Action needed before you travel: see what needs attention."
	case entrycheck.TripCheckNeeded:
		verdict = "Nothing known stands in the way, but some rules could not be checked: see what needs attention for what to check with the official authorities before you rely on this plan."
	default:
		verdict = "Ready as planned, as far as the data and your request show."
	}
	unchecked := ""
	if c.ConditionsUnknown > 0 {
		unchecked = " " + entrycheck.Plural(c.ConditionsUnknown, "condition") + " could not be checked (status unknown): see each leg and the defaults applied."
	}
	return verdict + " Of " + entrycheck.Plural(c.Legs, "leg") + ": " + strconv.Itoa(c.Ready) + " ready, " + strconv.Itoa(c.CheckNeeded) + " to check, " + strconv.Itoa(c.ActionNeeded) + " action needed, " +
		strconv.Itoa(c.NotPossible) + " not possible, " + strconv.Itoa(c.Unknown) + " unknown." + unchecked
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

func actionText(a entrycheck.Action) string {
	switch a {
	case entrycheck.ActionApplyBeforeTravel:
		return "apply before you travel"
	case entrycheck.ActionObtainOnArrival:
		return "obtain it on arrival"
	}
	return strings.ReplaceAll(string(a), "_", " ")
}

// The fixed wording of trip defaults and assumptions.
const (
	reasonTripPurpose   = "No purpose was given for these legs; they are evaluated for a short tourist visit."
	reasonTripArrival   = "No arrival date was given for these legs: validity counted from entry, the stay length and the Schengen count cannot be fully checked for them."
	reasonTripDeparture = "No departure date was given for these legs: validity counted from departure, the stay length and the Schengen count cannot be fully checked for them."
	reasonTripExpires   = "No expiry date was given for these passports: the destinations' passport-validity rules cannot be checked (those conditions say unknown)."
	reasonTripOrigin    = "The trip's starting point is not part of the request: for yellow fever the first leg is assumed to arrive from the country of the passport used for it, and each later leg from the leg before it (through any transit legs)."
	reasonTripAirside   = "Transit legs are assumed to stay in the international transit area without passing immigration: they use the country's transit-without-visa programmes and count no Schengen days."
	reasonTripSchengen  = "Days spent in Schengen states in the 180 days before the first leg are not part of the request and are assumed to be none: add them yourself if you were there."
	reasonTripNoDates   = "No leg has a date: the rules are those known on the day of the answer."

	assumeTripPassports = "Each passport is undamaged, not reported lost or stolen, and of the ordinary kind."
	assumeTripOrder     = "The legs are listed in the order travelled; each leg arrives from the one before it."
	assumeTripFuture    = "The rules are those known on the day of the answer; they may change before your travel dates, so check again close to departure."
	assumeTripPast      = "Some dates are before the day of the answer: the answer applies today's rules, not those in force then."
	assumeTripYellow    = "Yellow fever: a stay in a risk country (on the WHO list or the destination's own list) anywhere earlier in the trip is treated as making a from-risk-countries rule apply, because how recent a stay must be is not curated."
)

// tripDefaults lists every default the evaluation applied, with the legs or
// passports it was applied to; origin is where the trip is assumed to start.
func tripDefaults(plan tripPlan, origin entrycheck.Country, schengen *entrycheck.SchengenStay) []entrycheck.TripDefault {
	var out []entrycheck.TripDefault
	tripWide := func(field, value, reason string) {
		out = append(out, entrycheck.TripDefault{Field: field, Value: value, Reason: reason})
	}
	forItems := func(field, value string, indexes []int, reason string) {
		if len(indexes) > 0 {
			out = append(out, entrycheck.TripDefault{Field: field, Value: value, Indexes: indexes, Reason: reason})
		}
	}
	forItems("trip.legs[].purpose", entrycheck.PurposeTourism, legsWhere(plan, func(l plannedLeg) bool { return l.purpose == "" }), reasonTripPurpose)
	tripWide(defaultDoc.Field, defaultDoc.Value, tripText("default."+defaultDoc.Field))
	tripWide(defaultStay.Field, defaultStay.Value, tripText("default."+defaultStay.Field))
	dated := legsWhere(plan, func(l plannedLeg) bool { return l.arrival != nil || l.departure != nil })
	if len(dated) == 0 {
		tripWide(defaultDate.Field, defaultDate.Value, reasonTripNoDates)
	}
	forItems("trip.legs[].arrival", "not_given", legsWhere(plan, func(l plannedLeg) bool { return l.arrival == nil }), reasonTripArrival)
	forItems("trip.legs[].departure", "not_given", legsWhere(plan, func(l plannedLeg) bool { return l.departure == nil }), reasonTripDeparture)
	var undated []int
	for _, p := range plan.passports {
		if p.expires == nil {
			undated = append(undated, p.index)
		}
	}
	forItems("traveler.passports[].expires", "not_given", undated, reasonTripExpires)
	tripWide("trip.origin", origin.ISO3, reasonTripOrigin)
	forItems("trip.legs[].transit", "airside", legsWhere(plan, func(l plannedLeg) bool { return l.transit }), reasonTripAirside)
	if len(plan.permits) == 0 && len(plan.visas) == 0 {
		tripWide(defaultHeld.Field, defaultHeld.Value, tripText("default."+defaultHeld.Field))
	}
	if schengen != nil && schengen.Status != entrycheck.ConditionNotApplicable {
		tripWide("schengen.prior_days", "0", reasonTripSchengen)
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

// tripAssumptions lists what the answer assumes beyond its defaults.
func tripAssumptions(legs []tripLeg, choices []legChoice, now time.Time) []string {
	out := []string{assumeTripPassports, tripText(assumeMatrix), assumeTripOrder, assumeTripFuture, assumeTripYellow}
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
	}{{own, tripText(assumeOwn)}, {business, tripText(assumeBusiness)}, {exemption, tripText(assumeExemption)}, {past, assumeTripPast}} {
		if a.holds {
			out = append(out, a.text)
		}
	}
	return out
}
