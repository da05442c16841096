package evaluation

import (
	"strconv"

	"github.com/entrycheck/entrycheck"
)

// yellowFeverCondition reads the destination's certificate rule against the
// itinerary so far (see yellowFeverRoute). A risk country is one on the WHO
// list or on the destination's own list.
func (e *Evaluator) yellowFeverCondition(legs []tripLeg, i int, origin entrycheck.Country) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionYellowFever, Status: entrycheck.ConditionUnknown}
	name := legs[i].country.Name
	yf := e.destination(legs[i].country.ISO3).yf
	if yf == nil {
		c.Detail = "The curated yellow-fever table has no entry for " + name + ", so whether it asks for a certificate is not known; this matters most if the trip passes through a risk country: check its health authority's rule."
		return c
	}
	rule := &yf.rule.Value
	c.Source, c.RuleText = &yf.rule.Source, rule.Text
	switch cr := rule.CertificateRequired; {
	case cr == nil:
		c.Detail = "The source does not say whom " + name + "'s certificate rule covers: read its text."
	case *cr == entrycheck.YellowFeverNone:
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, name+" requires no yellow-fever certificate."
	case *cr == entrycheck.YellowFeverAllTravellers:
		c.Status, c.ActionNeeded = entrycheck.ConditionAdvisory, true
		c.Detail = name + " requires a yellow-fever certificate of all travellers" + minAge(rule) + ": carry it."
	default:
		c.Status, c.ActionNeeded, c.Detail = e.fromRiskCountries(yf, e.yellowFeverRoute(yf, legs, i, origin), legs[i].country)
	}
	return c
}

// yellowFeverLegs is the itinerary before a leg as a from-risk-countries
// rule reads it: the country the leg arrives from (the previous leg that is
// not a transit, or for the first leg the assumed starting point), the
// transit legs in between, and, conservatively, any earlier leg in a risk
// country, because how recent a stay must be is not curated.
type yellowFeverLegs struct {
	fromName    string
	fromCountry entrycheck.Country
	fromRisk    bool
	// via is the latest transit leg in a risk country since the leg
	// arrived from, earlier the latest leg in a risk country before that;
	// nil when there is none.
	via, earlier *tripLeg
}

func (e *Evaluator) yellowFeverRoute(yf *yellowFever, legs []tripLeg, i int, origin entrycheck.Country) yellowFeverLegs {
	risky := func(l tripLeg) bool { return yf.isRisk(e, l.country.ISO3) }
	from := -1
	route := yellowFeverLegs{fromCountry: origin, fromRisk: yf.isRisk(e, origin.ISO3)}
	for j := i - 1; j >= 0; j-- {
		if !legs[j].transit {
			from = j
			break
		}
		if route.via == nil && risky(legs[j]) {
			route.via = &legs[j]
		}
	}
	if from < 0 {
		route.fromName = "your assumed starting point, " + origin.Name + " (see the defaults applied)"
		return route
	}
	route.fromName, route.fromCountry, route.fromRisk = legs[from].name, legs[from].country, risky(legs[from])
	for k := 0; k < from; k++ {
		if risky(legs[k]) {
			route.earlier = &legs[k]
		}
	}
	return route
}

// fromRiskCountries applies a rule that asks a certificate of travellers
// from (and, unless it says otherwise, through) risk countries.
func (e *Evaluator) fromRiskCountries(yf *yellowFever, route yellowFeverLegs, dest entrycheck.Country) (entrycheck.ConditionStatus, bool, string) {
	rule, name := &yf.rule.Value, dest.Name
	transitCounts := rule.IncludesTransit == nil || *rule.IncludesTransit
	asks := " requires a yellow-fever certificate of travellers arriving from a risk country"
	if transitCounts {
		asks = " requires a yellow-fever certificate of travellers arriving from or transiting a risk country"
	}
	switch v := route.via; {
	case route.fromRisk:
		return entrycheck.ConditionAdvisory, true, name + asks + ", and you arrive from " + route.fromName + e.riskBecause(yf, dest, route.fromCountry) + ": carry the certificate" + minAge(rule) + "."
	case v != nil && transitCounts:
		return entrycheck.ConditionAdvisory, true, name + asks + transitHours(rule) + ", and you transit " + v.name + e.riskBecause(yf, dest, v.country) + ": carry the certificate" + minAge(rule) + "."
	case route.earlier != nil:
		return entrycheck.ConditionAdvisory, true, name + asks + ". You were in " + route.earlier.name + " earlier in the trip" + e.riskBecause(yf, dest, route.earlier.country) + "; how recent a stay must be for the rule to apply is not curated, so carry the certificate to be safe."
	case v != nil:
		return entrycheck.ConditionNotApplicable, false, name + asks + "; transiting " + v.name + " does not count under this rule, and you arrive from " + route.fromName + ", which is not a risk country for " + name + "."
	}
	return entrycheck.ConditionNotApplicable, false, name + asks + "; you arrive from " + route.fromName + " and no earlier leg is in a risk country (the WHO list or " + name + "'s own), so it does not apply."
}

// riskBecause says why a country is a risk country for the destination,
// citing the WHO list when it is the reason.
func (e *Evaluator) riskBecause(yf *yellowFever, dest, c entrycheck.Country) string {
	why, who := yf.riskWhy(e, dest, c)
	if who {
		return why + " (" + e.snap.Curated.YellowFever.RiskList.Source.Name + ")"
	}
	return why
}

func minAge(r *entrycheck.YellowFever) string {
	if r.MinAgeMonths == nil {
		return ""
	}
	return " (from the age of " + entrycheck.Plural(*r.MinAgeMonths, "month") + ")"
}

func transitHours(r *entrycheck.YellowFever) string {
	if r.TransitHours == nil {
		return ""
	}
	return " (a transit counts when it lasts more than " + strconv.Itoa(*r.TransitHours) + " hours, so a shorter connection may be exempt)"
}
