package evaluation

import (
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
func assessValidity(field *entrycheck.PassportRule[entrycheck.PassportValidity], p plannedPassport, lc *legContext, allowed entrycheck.Days, own bool) validityCheck {
	if own {
		return validityCheck{status: entrycheck.ConditionNotApplicable}
	}
	// Only a rule that holds for this passport is a condition.
	rule := field.Holding()
	// The required days depend on the leg, the allowed stay and the rule
	// only: the passports of a leg mostly share them.
	m, key := &lc.required, keyOf(rule)
	if !m.ok || m.allowed != allowed || m.rule != key {
		*m = requiredMemo{ok: true, allowed: allowed, rule: key, v: requiredDays(rule, lc, allowed)}
	}
	v := m.v
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

// requiredMemo keeps the last requiredDays of a leg.
type requiredMemo struct {
	ok      bool
	allowed entrycheck.Days
	rule    ruleKey
	v       validityCheck
}

// ruleKey is what requiredDays reads of a rule.
type ruleKey struct {
	curated, margin bool
	months          int
	countedFrom     string
}

func keyOf(rule *entrycheck.PassportRule[entrycheck.PassportValidity]) ruleKey {
	if rule == nil {
		return ruleKey{}
	}
	k := ruleKey{curated: true, countedFrom: countedFrom(rule.Value)}
	if m := rule.Value.MinMonthsRemaining; m != nil {
		k.margin, k.months = true, *m
	}
	return k
}

// requiredDays computes the days until which a passport must be valid for
// a leg: least under the most lenient reading, most under the strictest.
func requiredDays(rule *entrycheck.PassportRule[entrycheck.PassportValidity], lc *legContext, allowed entrycheck.Days) validityCheck {
	arr, dep := valueOf(lc.leg.arrival), valueOf(lc.leg.departure)
	// endOfStay is the last day the verdict allows, for legs without a departure.
	var endOfStay entrycheck.Date
	if !arr.IsZero() && allowed.Valid && allowed.N > 0 {
		endOfStay = addDays(arr, allowed.N-1)
	}
	v := validityCheck{least: either(dep, arr), most: either(dep, endOfStay)}
	if rule != nil {
		var least, most entrycheck.Date
		switch countedFrom(rule.Value) {
		case "entry":
			least, most = arr, arr
			if arr.IsZero() {
				most, v.why = dep, "the arrival date is not given"
			}
		case "departure":
			leave := dep
			if lc.schengen {
				leave = valueOf(lc.areaDeparture)
			}
			least, most = either(leave, either(dep, arr)), leave
			switch {
			case leave.IsZero() && !lc.schengen:
				most = endOfStay
			case leave.IsZero():
				v.why = "the day you leave the Schengen area is not given"
			}
			if most.IsZero() && v.why == "" {
				v.why = "the departure date is not given"
			}
		case "end_of_permitted_stay":
			least, most = endOfStay, endOfStay
			if endOfStay.IsZero() {
				least, v.why = either(dep, arr), "the permitted stay is not known as a number of days"
			}
		default:
			least, most = either(arr, dep), either(dep, endOfStay)
			v.why = "the source does not say from which day the months count"
			if most.IsZero() {
				v.why = "the source does not say from which day the months count, and the departure date is not given"
			}
		}
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
	}
	return v
}

func countedFrom(v entrycheck.PassportValidity) string {
	if v.CountedFrom == nil {
		return ""
	}
	return *v.CountedFrom
}

// validitySays is the first sentence of a leg's passport-validity
// condition: the destination's rule in words, computed once per destination
// (one for legs in the Schengen area, one for others).
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
func validityCondition(t *textArena, v validityCheck, field *entrycheck.PassportRule[entrycheck.PassportValidity], ruleSays string, p plannedPassport, lc *legContext) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionPassportValidity, Status: v.status}
	if v.status == entrycheck.ConditionNotApplicable {
		c.Detail = "You are entering your own country: the passport-validity rules for foreign visitors do not apply to citizens."
		return c
	}
	name := lc.leg.country.Name
	rule := field.Holding()
	if rule != nil {
		c.Source, c.RuleText = &rule.Source, rule.Value.Text
	}
	holder := p.country.ISO3
	switch {
	case v.status == entrycheck.ConditionNotMet:
		c.ActionNeeded = true
		c.Detail = t.join(ruleSays, "Your ", holder, " passport expires on ", p.expiresText, " but must be valid until at least ", t.date(v.least), ": renew it before this leg or travel on another passport.")
	case v.status == entrycheck.ConditionMet:
		c.Detail = t.join(ruleSays, "Your ", holder, " passport, expiring on ", p.expiresText, ", is valid until at least ", t.date(v.most), " as required.")
	case p.expires == nil:
		ask := t.join(ruleSays, "Give its expiry (/traveler/passports/", t.itoa(p.index), "/expires) to check it")
		switch {
		case !v.most.IsZero():
			c.Detail = t.join(ask, ": it must be valid until at least ", t.date(v.most), ".")
		case !v.least.IsZero():
			c.Detail = t.join(ask, ": it must be valid until at least ", t.date(v.least), ", and later if ", orDates(v.why), ".")
		default:
			c.Detail = t.join(ask, "; the leg's dates are needed as well.")
		}
	case rule == nil:
		c.Detail = t.join(ruleSays, "Your ", holder, " passport (expiring on ", p.expiresText, ") covers the stay as planned, but ", name, " may ask for more: check with its official authority.")
	case v.why == noMargin:
		c.Detail = t.join(ruleSays, "Your ", holder, " passport (expiring on ", p.expiresText, ") covers the stay as planned; whether it needs a further margin depends on the list the rule names: check it before you travel.")
	default:
		until := "the end of the stay plus the rule's months"
		if !v.most.IsZero() {
			until = t.date(v.most)
		}
		c.Detail = t.join(ruleSays, "Your ", holder, " passport expires on ", p.expiresText, ", which may not be enough because ", orDates(v.why), "; to be safe it must be valid until at least ", until, ". Check before you travel.")
	}
	return c
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
