package evaluation

import (
	"github.com/entrycheck/entrycheck"
)

// yellowFeverCondition reads the destination's certificate rule against the
// itinerary so far (see yellowFeverRoute), in the language of w. A risk
// country is one on the WHO list or on the destination's own list.
func (e *Evaluator) yellowFeverCondition(w *words, legs []tripLeg, i int, origin entrycheck.Country) entrycheck.Condition {
	c := entrycheck.Condition{Kind: entrycheck.ConditionYellowFever, Status: entrycheck.ConditionUnknown}
	name := w.country(legs[i].country)
	yf := e.destination(legs[i].country.ISO3).yf
	if yf == nil {
		c.Detail = w.Text("trip.yellow_fever.no_entry", "country", name)
		return c
	}
	rule := &yf.rule.Value
	c.Source, c.RuleText = &yf.rule.Source, rule.Text
	switch cr := rule.CertificateRequired; {
	case cr == nil:
		c.Detail = w.Text("trip.yellow_fever.unknown", "country", name)
	case *cr == entrycheck.YellowFeverNone:
		c.Status, c.Detail = entrycheck.ConditionNotApplicable, w.Text("trip.yellow_fever.none", "country", name)
	case *cr == entrycheck.YellowFeverAllTravellers:
		c.Status, c.ActionNeeded = entrycheck.ConditionAdvisory, true
		c.Detail = w.Text("trip.yellow_fever.all_travellers", "country", name, "min_age", minAge(w, rule))
	default:
		c.Status, c.ActionNeeded, c.Detail = e.fromRiskCountries(w, yf, e.yellowFeverRoute(w, yf, legs, i, origin), legs[i].country)
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

func (e *Evaluator) yellowFeverRoute(w *words, yf *yellowFever, legs []tripLeg, i int, origin entrycheck.Country) yellowFeverLegs {
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
		route.fromName = w.Text("trip.yellow_fever.assumed_start", "country", w.country(origin))
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
func (e *Evaluator) fromRiskCountries(w *words, yf *yellowFever, route yellowFeverLegs, dest entrycheck.Country) (entrycheck.ConditionStatus, bool, string) {
	rule, name := &yf.rule.Value, w.country(dest)
	transitCounts := rule.IncludesTransit == nil || *rule.IncludesTransit
	asks := w.Text("trip.yellow_fever.asks.from", "country", name)
	if transitCounts {
		asks = w.Text("trip.yellow_fever.asks.from_or_transit", "country", name)
	}
	switch v := route.via; {
	case route.fromRisk:
		return entrycheck.ConditionAdvisory, true, w.Text("trip.yellow_fever.arrive_from_risk", "asks", asks, "from", route.fromName,
			"because", e.riskBecause(w, yf, dest, route.fromCountry), "min_age", minAge(w, rule))
	case v != nil && transitCounts:
		return entrycheck.ConditionAdvisory, true, w.Text("trip.yellow_fever.transit_risk", "asks", asks, "hours", transitHours(w, rule), "leg", v.name,
			"because", e.riskBecause(w, yf, dest, v.country), "min_age", minAge(w, rule))
	case route.earlier != nil:
		return entrycheck.ConditionAdvisory, true, w.Text("trip.yellow_fever.earlier_risk", "asks", asks, "leg", route.earlier.name,
			"because", e.riskBecause(w, yf, dest, route.earlier.country))
	case v != nil:
		return entrycheck.ConditionNotApplicable, false, w.Text("trip.yellow_fever.transit_not_counted", "asks", asks, "leg", v.name, "from", route.fromName, "country", name)
	}
	return entrycheck.ConditionNotApplicable, false, w.Text("trip.yellow_fever.no_risk", "asks", asks, "from", route.fromName, "country", name)
}

// riskBecause says why a country is a risk country for the destination,
// after its name: on the WHO list, which it cites, or on the destination's
// own list; "" when it is not one.
func (e *Evaluator) riskBecause(w *words, yf *yellowFever, dest, c entrycheck.Country) string {
	switch {
	case e.riskList[c.ISO3]:
		return w.Text("trip.yellow_fever.because.who_list", "source", e.snap.Curated.YellowFever.RiskList.Source.Name)
	case yf.extra[c.ISO3]:
		return w.Text("trip.yellow_fever.because.own_list", "destination", w.country(dest))
	}
	return ""
}

// minAge is the age from which the rule asks a certificate, as a
// parenthesis after what it asks; "" when the rule gives none.
func minAge(w *words, r *entrycheck.YellowFever) string {
	if r.MinAgeMonths == nil {
		return ""
	}
	return w.Count("trip.yellow_fever.min_age", *r.MinAgeMonths)
}

// transitHours is how long a transit must last to count, as a parenthesis
// after what the rule asks; "" when the rule gives no limit.
func transitHours(w *words, r *entrycheck.YellowFever) string {
	if r.TransitHours == nil {
		return ""
	}
	return w.Count("trip.yellow_fever.transit_hours", *r.TransitHours)
}
