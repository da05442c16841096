package evaluation

import (
	"math"

	"github.com/entrycheck/entrycheck"
)

// option is one passport's answer for one leg: the parts of its check that
// the ranking and the alternatives need. The full check result is kept for
// the best option only (legWork.result), which keeps a trip's memory small.
type option struct {
	passport    *plannedPassport
	requirement entrycheck.Requirement
	days        entrycheck.Days
	exemption   bool
	validity    validityCheck
	// own is true when the passport is the destination's: a citizen entering.
	own bool
}

func newOption(p *plannedPassport, r *entrycheck.CheckResult, lc *legContext) option {
	o := option{
		passport: p, requirement: r.Requirement, days: r.AllowedStayDays,
		exemption: r.ExemptionApplied != nil, own: p.country.ISO3 == lc.leg.country.ISO3,
	}
	o.validity = assessValidity(r.EntryRules.PassportValidity, *p, lc, r.AllowedStayDays, o.own)
	return o
}

// rankStep names the step of the ranking that put one option before another.
type rankStep int

// The ranking of a traveller's passports for one leg. Each step only breaks
// the ties left by the steps before it:
//
//  1. A passport that fails the leg's passport-validity rule (not_met) comes
//     after every passport that does not: as planned, the border would
//     refuse it, however easy its requirement.
//  2. The easier requirement, by Requirement.Rank: visa_free,
//     visa_on_arrival, eta, e_visa, visa_required, no_admission, and last
//     unknown and needs_review, which promise nothing.
//  3. The destination's own passport: a citizen enters as a citizen.
//  4. The longer visa-free stay, no stated limit first: in the matrix a
//     visa-free route without a number of days is free movement (EU and EEA
//     citizens within the EU, for instance), which a day count can only
//     restrict; then more days before fewer.
//  5. Validity confirmed (met) before validity that could not be checked.
//  6. The order of traveler.passports, so that the traveller decides ties.
const (
	byOrder rankStep = iota
	byValidityRule
	byRequirement
	byOwnCountry
	byStay
	byValidityKnown
)

// compareOptions returns a negative number when a ranks before b, a
// positive one when after, and the step that decided.
func compareOptions(a, b *option) (int, rankStep) {
	if fa, fb := a.validity.status == entrycheck.ConditionNotMet, b.validity.status == entrycheck.ConditionNotMet; fa != fb {
		return boolOrder(fb), byValidityRule
	}
	if ra, rb := a.requirement.Rank(), b.requirement.Rank(); ra != rb {
		return ra - rb, byRequirement
	}
	if a.own != b.own {
		return boolOrder(a.own), byOwnCountry
	}
	if sa, sb := stayKey(a), stayKey(b); sa != sb {
		return sb - sa, byStay
	}
	if ma, mb := a.validity.status == entrycheck.ConditionMet, b.validity.status == entrycheck.ConditionMet; ma != mb {
		return boolOrder(ma), byValidityKnown
	}
	return a.passport.index - b.passport.index, byOrder
}

// boolOrder is -1 when the first of two differing conditions is the one that holds.
func boolOrder(aHolds bool) int {
	if aHolds {
		return -1
	}
	return 1
}

// stayKey orders visa-free stays, no stated limit highest; other
// requirements carry no stay to compare.
func stayKey(o *option) int {
	if o.requirement != entrycheck.VisaFree {
		return 0
	}
	if !o.days.Valid {
		return math.MaxInt
	}
	return o.days.N
}

// rankOptions fills order with the option indexes, best first. There are at
// most MaxTripPassports options, so an insertion sort is enough and allocates nothing.
func rankOptions(opts []option, order []int) {
	for i := range order {
		order[i] = i
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0; j-- {
			if c, _ := compareOptions(&opts[order[j]], &opts[order[j-1]]); c >= 0 {
				break
			}
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
}

// choiceWhy explains which passport was chosen and what set it apart from the runner-up.
func choiceWhy(w *legWork) string {
	t, best := w.text, w.best()
	if len(w.options) == 1 {
		return t.join("Passport: ", best.passport.country.ISO3, ", your only passport.")
	}
	next := &w.options[w.order[1]]
	_, step := compareOptions(best, next)
	dest, chosen, other := w.ctx.leg.country.Name, best.passport.country.ISO3, next.passport.country.ISO3
	// One text per case, written at once.
	const lead, over, because = "Passport: ", ", chosen over ", " because "
	switch step {
	case byValidityRule:
		return t.join(lead, chosen, over, other, because, "the ", other, " passport does not meet ", dest, "'s passport-validity rule for this leg.")
	case byRequirement:
		return t.join(lead, chosen, over, other, because, requirementPhrase(best.requirement), " is easier than ", requirementPhrase(next.requirement), " with the ", other, " passport.")
	case byOwnCountry:
		return t.join(lead, chosen, over, other, because, "it is ", dest, "'s own passport, so you enter as a citizen.")
	case byStay:
		return t.join(lead, chosen, over, other, because, "its visa-free stay is longer (", t.stayText(best.days), ", against ", t.stayText(next.days), " with the ", other, " passport).")
	case byValidityKnown:
		return t.join(lead, chosen, over, other, because, "its validity is confirmed for this leg, the ", other, " passport's could not be checked.")
	}
	return t.join(lead, chosen, over, other, because, "your passports give the same answer here and it is listed before the ", other, " passport.")
}

// alternatives fills out with every passport's answer in the order given,
// with its rank. Check sets label and action from the requirement alone.
func alternatives(w *legWork, out []entrycheck.PassportOption) []entrycheck.PassportOption {
	for rank, i := range w.order {
		o := &w.options[i]
		out[i] = entrycheck.PassportOption{
			Passport:         tripPassport(o.passport),
			Requirement:      o.requirement,
			RequirementLabel: o.requirement.Label(),
			AllowedStayDays:  o.days,
			Action:           o.requirement.Action(),
			ExemptionApplied: o.exemption,
			PassportValidity: o.validity.status,
			Rank:             rank + 1,
			Chosen:           rank == 0,
		}
	}
	return out
}

func tripPassport(p *plannedPassport) entrycheck.TripPassport {
	return entrycheck.TripPassport{Index: p.index, Country: p.country, Expires: p.expires}
}
