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
	// why names what left the required day open, for the text.
	why string
}

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
		v.least, v.most, v.why = laterOf(least, v.least), entrycheck.Date{}, noMargin
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
			return arr, dep, "the arrival date is not given"
		}
		return arr, arr, ""
	case "departure":
		return countedFromDeparture(leg, endOfStay)
	case "end_of_permitted_stay":
		if endOfStay.IsZero() {
			return either(dep, arr), endOfStay, "the permitted stay is not known as a number of days"
		}
		return endOfStay, endOfStay, ""
	}
	least, most = either(arr, dep), either(dep, endOfStay)
	if most.IsZero() {
		return least, most, "the source does not say from which day the months count, and the departure date is not given"
	}
	return least, most, "the source does not say from which day the months count"
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
		return least, most, "the day you leave the Schengen area is not given"
	case leave.IsZero():
		most = endOfStay
	}
	if most.IsZero() {
		return least, most, "the departure date is not given"
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
// condition: the destination's rule in words (a rule counted from departure
// reads differently in the Schengen area).
func validitySays(name string, rule *entrycheck.PassportRule[entrycheck.PassportValidity], schengen bool) string {
	switch {
	case rule == nil:
		return "No official source for " + name + "'s passport-validity rule has been curated; at the least a passport must be valid for the whole stay. "
	case rule.Applies != entrycheck.AppliesYes:
		return name + "'s curated passport-validity rule is not a rule for your passport (" + rule.Note + "); at the least a passport must be valid for the whole stay. "
	case rule.Value.MinMonthsRemaining == nil:
		return name + "'s passport-validity rule gives no margin that can be computed: " + rule.Value.Text + " "
	}
	return name + " requires a passport " + requiredValidity(rule.Value, schengen) + ". "
}

// noMargin is why a rule without min_months_remaining leaves the required day open.
const noMargin = "the source gives no computable margin"

// validityCondition explains the chosen passport's validity check; ruleSays
// is the destination's validitySays.
func validityCondition(v validityCheck, field *entrycheck.PassportRule[entrycheck.PassportValidity], ruleSays string, p plannedPassport, leg tripLeg) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionPassportValidity, Status: v.status}
	if v.status == entrycheck.ConditionNotApplicable {
		c.Detail = "You are entering your own country: the passport-validity rules for foreign visitors do not apply to citizens."
		return c
	}
	rule := field.Holding()
	if rule != nil {
		c.Source, c.RuleText = &rule.Source, rule.Value.Text
	}
	switch {
	case v.status == entrycheck.ConditionNotMet:
		c.ActionNeeded = true
		c.Detail = ruleSays + "Your passport of " + p.country.Name + " expires on " + p.expires.String() + " but must be valid until at least " + v.least.String() + ": renew it before this leg or travel on another passport."
	case v.status == entrycheck.ConditionMet:
		c.Detail = ruleSays + "Your passport of " + p.country.Name + ", expiring on " + p.expires.String() + ", is valid until at least " + v.most.String() + " as required."
	case p.expires == nil:
		c.Detail = ruleSays + askExpiry(v, p)
	case rule == nil:
		c.Detail = ruleSays + "Your passport of " + p.country.Name + " (expiring on " + p.expires.String() + ") covers the stay as planned, but " + leg.country.Name + " may ask for more: check with its official authority."
	case v.why == noMargin:
		c.Detail = ruleSays + "Your passport of " + p.country.Name + " (expiring on " + p.expires.String() + ") covers the stay as planned; whether it needs a further margin depends on the list the rule names: check it before you travel."
	default:
		until := "the end of the stay plus the rule's months"
		if !v.most.IsZero() {
			until = v.most.String()
		}
		c.Detail = ruleSays + "Your passport of " + p.country.Name + " expires on " + p.expires.String() + ", which may not be enough because " + orDates(v.why) + "; to be safe it must be valid until at least " + until + ". Check before you travel."
	}
	return c
}

// askExpiry asks for a passport's expiry and says what it must reach.
func askExpiry(v validityCheck, p plannedPassport) string {
	ask := "Give its expiry (/traveler/passports/" + strconv.Itoa(p.index) + "/expires) to check it"
	switch {
	case !v.most.IsZero():
		return ask + ": it must be valid until at least " + v.most.String() + "."
	case !v.least.IsZero():
		return ask + ": it must be valid until at least " + v.least.String() + ", and later if " + orDates(v.why) + "."
	}
	return ask + "; the leg's dates are needed as well."
}

// requiredValidity states a rule in words, such as "valid for at least 6
// months from the day of entry".
func requiredValidity(v entrycheck.PassportValidity, schengen bool) string {
	if *v.MinMonthsRemaining == 0 {
		switch countedFrom(v) {
		case "entry":
			return "valid on the day of entry"
		case "end_of_permitted_stay":
			return "valid until the end of the permitted stay"
		}
		return "valid for the whole stay, until the day you leave"
	}
	return "valid for at least " + entrycheck.Plural(*v.MinMonthsRemaining, "month") + " " + basis(v, schengen)
}

func basis(v entrycheck.PassportValidity, schengen bool) string {
	switch countedFrom(v) {
	case "entry":
		return "from the day of entry"
	case "departure":
		if schengen {
			return "after the day you leave the Schengen area (the departure of the last of the consecutive Schengen legs)"
		}
		return "after the day you leave"
	case "end_of_permitted_stay":
		return "after the end of the permitted stay"
	}
	return "(the source does not say from which day; checked from both entry and departure)"
}

func orDates(why string) string {
	if why == "" {
		return "the leg's dates are not given"
	}
	return why
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
