package evaluation

import (
	"strconv"

	"github.com/entrycheck/entrycheck"
)

// validityCheck is one passport assessed against a leg's passport-validity
// rule. The last day the passport must be valid through is bounded from both
// sides because the plan or the rule may leave it open: least under the most
// lenient reading, most under the strictest (zero when nothing bounds it).
type validityCheck struct {
	status      entrycheck.ConditionStatus
	least, most entrycheck.Date
	// why is the message that says what left the required day open, for
	// the text: one of the open* ids, "" when nothing did.
	why string
}

// The messages of what leaves the day a passport must be valid through
// open: each completes "because ..." and "later if ...".
const (
	openNoArrival           = "trip.validity.open.no_arrival"
	openNoDeparture         = "trip.validity.open.no_departure"
	openNoAreaDeparture     = "trip.validity.open.no_area_departure"
	openNoStayDays          = "trip.validity.open.no_stay_days"
	openUnstated            = "trip.validity.open.unstated"
	openUnstatedNoDeparture = "trip.validity.open.unstated_no_departure"
	// openNoMargin is why a rule without min_months_remaining leaves the
	// required day open.
	openNoMargin = "trip.validity.open.no_margin"
	openNoDates  = "trip.validity.open.no_dates"
)

// assessValidity checks a passport's expiry against the destination's rule
// and the leg's dates. It is conservative: a rule is met only when the
// passport covers the strictest reading, and an unstated counted_from is
// read both from entry and from departure. Whatever the rule, a passport
// must be valid for the whole stay; that floor is checked even where no rule
// is curated. Dates are values here, the zero Date standing for "not known".
func assessValidity(field *entrycheck.PassportRule[entrycheck.PassportValidity], p plannedPassport, leg tripLeg, allowed entrycheck.Days, own bool) validityCheck {
	if own {
		return validityCheck{status: entrycheck.ConditionNotApplicable}
	}
	// Only a rule that holds for this passport is a condition.
	rule := field.Holding()
	v := requiredDays(rule, leg, allowed)
	switch {
	case p.expires == nil:
		v.status = entrycheck.ConditionUnknown
	case !v.least.IsZero() && dateBefore(*p.expires, v.least):
		v.status = entrycheck.ConditionNotMet
	case rule == nil:
		v.status = entrycheck.ConditionUnknown
	case !v.most.IsZero() && !dateBefore(*p.expires, v.most):
		v.status = entrycheck.ConditionMet
	default:
		v.status = entrycheck.ConditionUnknown
	}
	return v
}

// requiredDays computes the days until which a passport must be valid for
// a leg: least under the most lenient reading, most under the strictest.
// Without a rule, the passport must cover the stay.
func requiredDays(rule *entrycheck.PassportRule[entrycheck.PassportValidity], leg tripLeg, allowed entrycheck.Days) validityCheck {
	arr, dep := valueOf(leg.arrival), valueOf(leg.departure)
	// endOfStay is the last day the verdict allows, for legs without a departure.
	var endOfStay entrycheck.Date
	if !arr.IsZero() && allowed.Valid && allowed.N > 0 {
		endOfStay = addDays(arr, allowed.N-1)
	}
	v := validityCheck{least: either(dep, arr), most: either(dep, endOfStay)}
	if rule == nil {
		return v
	}
	var least, most entrycheck.Date
	least, most, v.why = countedDays(rule.Value, leg, endOfStay)
	m := rule.Value.MinMonthsRemaining
	if m == nil {
		// No computable margin: only the floor is checked, and the
		// passport is never called valid enough.
		v.least, v.most, v.why = laterOf(least, v.least), entrycheck.Date{}, openNoMargin
		return v
	}
	v.least = laterOf(addMonths(least, *m), v.least)
	if v.most = laterOf(addMonths(most, *m), v.most); most.IsZero() {
		v.most = entrycheck.Date{}
	}
	return v
}

// countedDays are the days a rule's months count from, under the most
// lenient and the strictest reading, and why the strictest is open when it is.
func countedDays(rule entrycheck.PassportValidity, leg tripLeg, endOfStay entrycheck.Date) (least, most entrycheck.Date, why string) {
	arr, dep := valueOf(leg.arrival), valueOf(leg.departure)
	switch countedFrom(rule) {
	case "entry":
		if arr.IsZero() {
			return arr, dep, openNoArrival
		}
		return arr, arr, ""
	case "departure":
		return countedFromDeparture(leg, endOfStay)
	case "end_of_permitted_stay":
		if endOfStay.IsZero() {
			return either(dep, arr), endOfStay, openNoStayDays
		}
		return endOfStay, endOfStay, ""
	}
	least, most = either(arr, dep), either(dep, endOfStay)
	if most.IsZero() {
		return least, most, openUnstatedNoDeparture
	}
	return least, most, openUnstated
}

// countedFromDeparture reads a rule counted from departure: in the Schengen
// area, the day the traveller leaves the area.
func countedFromDeparture(leg tripLeg, endOfStay entrycheck.Date) (least, most entrycheck.Date, why string) {
	arr, dep := valueOf(leg.arrival), valueOf(leg.departure)
	leave := dep
	if leg.schengen {
		leave = valueOf(leg.areaDeparture)
	}
	least, most = either(leave, either(dep, arr)), leave
	switch {
	case leave.IsZero() && leg.schengen:
		return least, most, openNoAreaDeparture
	case leave.IsZero():
		most = endOfStay
	}
	if most.IsZero() {
		return least, most, openNoDeparture
	}
	return least, most, ""
}

func countedFrom(v entrycheck.PassportValidity) string {
	if v.CountedFrom == nil {
		return ""
	}
	return *v.CountedFrom
}

// validitySays is the first sentence of a leg's passport-validity
// condition: the rule of the destination (its name in the language of w)
// in words. A rule counted from departure reads differently in the
// Schengen area.
func validitySays(w *words, name string, rule *entrycheck.PassportRule[entrycheck.PassportValidity], schengen bool) string {
	switch {
	case rule == nil:
		return w.Text("trip.validity.rule.not_curated", "country", name)
	case rule.Applies != entrycheck.AppliesYes:
		return w.Text("trip.validity.rule.not_for_you", "country", name, "note", rule.Note)
	case rule.Value.MinMonthsRemaining == nil:
		return w.Text("trip.validity.rule.no_margin", "country", name, "text", rule.Value.Text)
	}
	return requiredValidity(w, name, rule.Value, schengen)
}

// validityCondition explains the chosen passport's validity check; ruleSays
// is the destination's validitySays.
func validityCondition(w *words, v validityCheck, field *entrycheck.PassportRule[entrycheck.PassportValidity], ruleSays string, p plannedPassport, leg tripLeg) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionPassportValidity, Status: v.status}
	if v.status == entrycheck.ConditionNotApplicable {
		c.Detail = w.Text("trip.validity.own_country")
		return c
	}
	rule := field.Holding()
	if rule != nil {
		c.Source, c.RuleText = &rule.Source, rule.Value.Text
	}
	passport := w.country(p.country)
	var assessed string
	switch {
	case v.status == entrycheck.ConditionNotMet:
		c.ActionNeeded = true
		assessed = w.Text("trip.validity.not_met", "country", passport, "expires", dateText(w, *p.expires), "until", dateText(w, v.least))
	case v.status == entrycheck.ConditionMet:
		assessed = w.Text("trip.validity.met", "country", passport, "expires", dateText(w, *p.expires), "until", dateText(w, v.most))
	case p.expires == nil:
		assessed = askExpiry(w, v, p)
	case rule == nil:
		assessed = w.Text("trip.validity.no_rule", "country", passport, "expires", dateText(w, *p.expires), "destination", w.country(leg.country))
	case v.why == openNoMargin:
		assessed = w.Text("trip.validity.no_margin", "country", passport, "expires", dateText(w, *p.expires))
	case v.most.IsZero():
		assessed = w.Text("trip.validity.open_until_end", "country", passport, "expires", dateText(w, *p.expires), "why", openBecause(w, v.why))
	default:
		assessed = w.Text("trip.validity.open", "country", passport, "expires", dateText(w, *p.expires), "why", openBecause(w, v.why), "until", dateText(w, v.most))
	}
	c.Detail = sentences(w, ruleSays, assessed)
	return c
}

// askExpiry asks for a passport's expiry, by its field's JSON pointer, and
// says what it must reach.
func askExpiry(w *words, v validityCheck, p plannedPassport) string {
	field := "/traveler/passports/" + strconv.Itoa(p.index) + "/expires"
	switch {
	case !v.most.IsZero():
		return w.Text("trip.validity.ask.until", "field", field, "until", dateText(w, v.most))
	case !v.least.IsZero():
		return w.Text("trip.validity.ask.at_least", "field", field, "until", dateText(w, v.least), "why", openBecause(w, v.why))
	}
	return w.Text("trip.validity.ask.dates", "field", field)
}

// requiredValidity states a rule in a sentence, such as "Japan requires a
// passport valid for at least 6 months from the day of entry."
func requiredValidity(w *words, name string, v entrycheck.PassportValidity, schengen bool) string {
	if *v.MinMonthsRemaining == 0 {
		switch countedFrom(v) {
		case "entry":
			return w.Text("trip.validity.rule.entry_day", "country", name)
		case "end_of_permitted_stay":
			return w.Text("trip.validity.rule.end_of_permitted_stay", "country", name)
		}
		return w.Text("trip.validity.rule.whole_stay", "country", name)
	}
	return w.Count("trip.validity.rule.months."+basis(v, schengen), *v.MinMonthsRemaining, "country", name)
}

// basis names the day a rule's months count from, as the message of the
// rule ends: trip.validity.rule.months.<basis>.
func basis(v entrycheck.PassportValidity, schengen bool) string {
	switch from := countedFrom(v); from {
	case "entry", "end_of_permitted_stay":
		return from
	case "departure":
		if schengen {
			return "schengen_departure"
		}
		return from
	}
	return "unstated"
}

// openBecause says in the language of w what leaves the required day open.
func openBecause(w *words, why string) string {
	if why == "" {
		why = openNoDates
	}
	return w.Text(why)
}

// valueOf is the date or the zero Date for "not given".
func valueOf(d *entrycheck.Date) entrycheck.Date {
	if d == nil {
		return entrycheck.Date{}
	}
	return *d
}

// either returns a unless it is unknown, else b.
func either(a, b entrycheck.Date) entrycheck.Date {
	if a.IsZero() {
		return b
	}
	return a
}

// laterOf returns the later of two dates, an unknown one counting as earliest.
func laterOf(a, b entrycheck.Date) entrycheck.Date {
	if a.IsZero() || (!b.IsZero() && dateBefore(a, b)) {
		return b
	}
	return a
}
