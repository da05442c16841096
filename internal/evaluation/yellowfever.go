package evaluation

import (
	"slices"
	"strconv"

	"github.com/entrycheck/entrycheck"
)

// Why a yellow-fever rule applies, in plain words (applies_because).
const (
	yfWhyAll      = "required for all travellers"
	yfWhyNone     = "not required: the source says no certificate is required"
	yfWhyOpen     = "the source does not say whom it covers"
	yfWhyNoRisk   = "not required: you do not arrive from or through a risk country"
	yfWhoList     = ", on the WHO list of countries with risk of yellow-fever transmission"
	yfOwnList     = " as a risk country (its own list)"
	yfRequiredPfx = "required: "
)

// yellowFever is a destination's yellow-fever rule as it applies to each
// kind of traveller, worked out once: arriving from each of its risk
// countries (from), transiting one (via), or neither (other).
type yellowFever struct {
	rule      *entrycheck.Rule[entrycheck.YellowFever]
	from, via map[string]*entrycheck.YellowFeverRule
	other     *entrycheck.YellowFeverRule
	// extra holds the destination's own risk countries beyond the WHO list.
	extra map[string]bool
}

// newYellowFever works out the rule of destination dest for every risk
// country it knows: the WHO list and its own extra_risk_countries.
func (e *Evaluator) newYellowFever(dest entrycheck.Country, yf entrycheck.Rule[entrycheck.YellowFever]) *yellowFever {
	y := &yellowFever{rule: &yf}
	for _, c := range yf.Value.ExtraRiskCountries {
		if y.extra == nil {
			y.extra = map[string]bool{}
		}
		y.extra[c] = true
	}
	base := entrycheck.YellowFeverRule{Value: yf.Value, Source: yf.Source}
	c := yf.Value.CertificateRequired
	switch {
	case c == nil:
		base.AppliesBecause = yfWhyOpen
	case *c == entrycheck.YellowFeverAllTravellers:
		base.AppliesToThisPassport, base.AppliesBecause = applies(true), yfWhyAll+minAgeText(&yf.Value)
	case *c == entrycheck.YellowFeverNone:
		base.AppliesToThisPassport, base.AppliesBecause = applies(false), yfWhyNone
	}
	if c == nil || *c != entrycheck.YellowFeverFromRiskCountries {
		y.other = &base
		return y
	}
	who := e.snap.Curated.YellowFever.RiskList.Source
	base.RiskListSource = &who
	other := base
	other.AppliesToThisPassport, other.AppliesBecause = applies(false), yfWhyNoRisk
	y.other = &other
	y.from, y.via = map[string]*entrycheck.YellowFeverRule{}, map[string]*entrycheck.YellowFeverRule{}
	codes := slices.Concat(e.snap.Curated.YellowFever.RiskList.Countries, yf.Value.ExtraRiskCountries)
	for _, code := range codes {
		if y.from[code] != nil {
			continue // on both lists: the WHO list says it
		}
		if rc, ok := e.snap.Countries.ByISO3(code); ok { // the loader accepts only known codes
			y.from[code], y.via[code] = y.fromAndVia(e, base, dest, rc)
		}
	}
	return y
}

// fromAndVia is the rule for a traveller arriving from the risk country
// rc, and for one transiting it.
func (y *yellowFever) fromAndVia(e *Evaluator, base entrycheck.YellowFeverRule, dest, rc entrycheck.Country) (*entrycheck.YellowFeverRule, *entrycheck.YellowFeverRule) {
	why, whoDecides := y.riskWhy(e, dest, rc)
	from, via := base, base
	if !whoDecides {
		from.RiskListSource, via.RiskListSource = nil, nil
	}
	from.AppliesToThisPassport, from.AppliesBecause = applies(true), yfRequiredPfx+"you arrive from "+rc.Name+why
	v := &y.rule.Value
	if v.IncludesTransit == nil || *v.IncludesTransit {
		via.AppliesToThisPassport = applies(true)
		via.AppliesBecause = yfRequiredPfx + "you transit " + rc.Name + why + transitHoursText(dest, v)
	} else {
		via.AppliesToThisPassport = applies(false)
		via.AppliesBecause = "not required: you transit " + rc.Name + why + ", but " + dest.Name + "'s rule does not count a transit, and you do not arrive from a risk country"
	}
	return &from, &via
}

// applies is a rule's own applies_to_this_passport: each rule holds its
// answer, so that no two share one.
func applies(b bool) *bool { return &b }

// riskWhy says why code is a risk country for the destination (after its
// name: ", on the WHO list..." or ", which Nepal treats as a risk country
// (its own list)"), and whether the WHO list is the reason; "" when it is not one.
func (y *yellowFever) riskWhy(e *Evaluator, dest, c entrycheck.Country) (why string, who bool) {
	switch {
	case e.riskList[c.ISO3]:
		return yfWhoList, true
	case y.extra[c.ISO3]:
		return ", which " + dest.Name + " treats" + yfOwnList, false
	}
	return "", false
}

// isRisk reports whether the destination treats code as a risk country.
func (y *yellowFever) isRisk(e *Evaluator, code string) bool {
	return e.riskList[code] || y.extra[code]
}

// forTraveller is the rule as it applies to a traveller arriving from
// origin (the passport country, assumed) through transit ("" for none).
func (y *yellowFever) forTraveller(origin, transit string) *entrycheck.YellowFeverRule {
	if r := y.from[origin]; r != nil {
		return r
	}
	if r := y.via[transit]; r != nil {
		return r
	}
	return y.other
}

func minAgeText(v *entrycheck.YellowFever) string {
	if v.MinAgeMonths == nil {
		return ""
	}
	return " from the age of " + entrycheck.Plural(*v.MinAgeMonths, "month")
}

func transitHoursText(dest entrycheck.Country, v *entrycheck.YellowFever) string {
	if v.TransitHours == nil {
		return ""
	}
	return " (" + dest.Name + " counts a transit of more than " + strconv.Itoa(*v.TransitHours) + " hours)"
}
