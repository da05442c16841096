package evaluation

import (
	"math"
	"slices"
	"time"

	"github.com/entrycheck/entrycheck"
)

// option is one passport's answer for one leg: the parts of its check that
// the ranking and the alternatives need.
type option struct {
	passport    plannedPassport
	requirement entrycheck.Requirement
	days        entrycheck.Days
	exemption   bool
	validity    validityCheck
	// own is true when the passport is the destination's: a citizen entering.
	own bool
}

// legChoice is a leg's passports ranked, and the full answer for the best.
type legChoice struct {
	// options are in the order of traveler.passports; order holds their
	// indexes, best first.
	options []option
	order   []int
	// result is the whole answer for the chosen passport, from the same
	// evaluation as GET /v1/check.
	result entrycheck.CheckResult
}

func (c legChoice) best() option { return c.options[c.order[0]] }

// choose ranks every passport for a leg and evaluates the best in full, in
// the language of w.
func (e *Evaluator) choose(w *words, plan tripPlan, leg tripLeg, requestID string, now time.Time) legChoice {
	c := legChoice{options: make([]option, len(plan.passports))}
	for j, p := range plan.passports {
		c.options[j] = e.passportOption(p, leg, legRequest(plan, p, leg, requestID), now)
	}
	c.order = rankOptions(c.options)
	best := c.best().passport
	c.result = e.evaluate(w, best.country, leg.country, nil, legRequest(plan, best, leg, requestID), now)
	return c
}

// passportOption answers a leg for one passport. The request was validated
// as a whole; ranking needs only the requirement and the validity rule.
func (e *Evaluator) passportOption(p plannedPassport, leg tripLeg, req entrycheck.CheckRequest, now time.Time) option {
	r := e.requirementOnly(p.country, leg.country, req, now)
	o := option{
		passport: p, requirement: r.Requirement, days: r.AllowedStayDays,
		exemption: r.ExemptionApplied != nil, own: p.country.ISO3 == leg.country.ISO3,
	}
	o.validity = assessValidity(r.EntryRules.PassportValidity, p, leg, r.AllowedStayDays, o.own)
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
func compareOptions(a, b option) (int, rankStep) {
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
func stayKey(o option) int {
	if o.requirement != entrycheck.VisaFree {
		return 0
	}
	if !o.days.Valid {
		return math.MaxInt
	}
	return o.days.N
}

// rankOptions returns the option indexes, best first. The order is total:
// the last step is the passports' order.
func rankOptions(opts []option) []int {
	order := make([]int, len(opts))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int {
		c, _ := compareOptions(opts[a], opts[b])
		return c
	})
	return order
}

// choiceWhy explains which passport was chosen and what set it apart from the runner-up.
func choiceWhy(w *words, leg tripLeg, c legChoice) string {
	best := c.best()
	chosen := w.country(best.passport.country)
	if len(c.options) == 1 {
		return w.Text("trip.why.choice.only", "country", chosen)
	}
	next := c.options[c.order[1]]
	_, step := compareOptions(best, next)
	return w.Text("trip.why.choice.over", "country", chosen, "other", w.country(next.passport.country), "reason", rankReason(w, step, leg.country, best, next))
}

// rankReason says what the step of the ranking found between the chosen
// passport and the runner-up.
func rankReason(w *words, step rankStep, dest entrycheck.Country, best, next option) string {
	other, destination := w.country(next.passport.country), w.country(dest)
	switch step {
	case byValidityRule:
		return w.Text("trip.why.rank.validity_rule", "other", other, "destination", destination)
	case byRequirement:
		return w.Text("trip.why.rank.requirement", "best", best.requirement.PhraseIn(w.Catalog), "next", next.requirement.PhraseIn(w.Catalog), "other", other)
	case byOwnCountry:
		return w.Text("trip.why.rank.own_country", "destination", destination)
	case byStay:
		return w.Text("trip.why.rank.stay", "best", stayText(w, best.days), "next", stayText(w, next.days), "other", other)
	case byValidityKnown:
		return w.Text("trip.why.rank.validity_known", "other", other)
	}
	return w.Text("trip.why.rank.order", "other", other)
}

// alternatives lists every passport's answer in the order of
// traveler.passports, with its rank, labelled in the language of w. Check
// sets label and action from the requirement alone.
func alternatives(w *words, c legChoice) []entrycheck.PassportOption {
	out := make([]entrycheck.PassportOption, len(c.options))
	for rank, i := range c.order {
		o := c.options[i]
		out[i] = entrycheck.PassportOption{
			Passport:         tripPassport(o.passport),
			Verdict:          entrycheck.VerdictOfIn(w.Catalog, o.requirement, o.days),
			Action:           o.requirement.Action(),
			ExemptionApplied: o.exemption,
			PassportValidity: o.validity.status,
			Rank:             rank + 1,
			Chosen:           rank == 0,
		}
	}
	return out
}

func tripPassport(p plannedPassport) entrycheck.TripPassport {
	return entrycheck.TripPassport{Index: p.index, Country: p.country, Expires: p.expires}
}
