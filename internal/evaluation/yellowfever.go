package evaluation

import (
	"slices"

	"github.com/entrycheck/entrycheck"
)

// Why a yellow-fever rule applies, in plain words (applies_because): the
// messages of the catalogs (internal/locale), worded once per language in
// newYellowFever.
const (
	yfAllTravellers        = "yellow_fever.all_travellers"
	yfAllTravellersFromAge = "yellow_fever.all_travellers_from_age"
	yfNone                 = "yellow_fever.none"
	yfUnknown              = "yellow_fever.unknown"
	yfNoRisk               = "yellow_fever.no_risk"
	// The messages of a traveller arriving from or transiting a risk
	// country end in who_list or own_list, by why it is one.
	yfFrom               = "yellow_fever.from."
	yfTransit            = "yellow_fever.transit."
	yfTransitNotCounted  = "yellow_fever.transit_not_counted."
	yfWhoListSuffix      = "who_list"
	yfOwnListSuffix      = "own_list"
	yfTransitHoursSuffix = "_hours"
)

// yellowFever is a destination's yellow-fever rule as it applies to each
// kind of traveller, worked out once in every language: arriving from each
// of its risk countries (from), transiting one (via), or neither (other).
type yellowFever struct {
	rule *entrycheck.Rule[entrycheck.YellowFever]
	// slot is each risk country's place in from and via.
	slot map[string]int
	// other, from and via are indexed by the language's words.index; from
	// and via then by slot.
	from, via [][]entrycheck.YellowFeverRule
	other     []*entrycheck.YellowFeverRule
	// extra holds the destination's own risk countries beyond the WHO list.
	extra map[string]bool
}

// newYellowFever works out the rule of destination dest for every risk
// country it knows: the WHO list and its own extra_risk_countries.
func (e *Evaluator) newYellowFever(dest entrycheck.Country, yf entrycheck.Rule[entrycheck.YellowFever]) *yellowFever {
	y := &yellowFever{rule: &yf, other: make([]*entrycheck.YellowFeverRule, len(e.words))}
	for _, c := range yf.Value.ExtraRiskCountries {
		if y.extra == nil {
			y.extra = map[string]bool{}
		}
		y.extra[c] = true
	}
	base := entrycheck.YellowFeverRule{Value: yf.Value, Source: yf.Source}
	c := yf.Value.CertificateRequired
	var why func(w *words) string
	switch {
	case c == nil:
		why = func(w *words) string { return w.Text(yfUnknown) }
	case *c == entrycheck.YellowFeverAllTravellers:
		base.AppliesToThisPassport = applies(true)
		why = func(w *words) string {
			if m := yf.Value.MinAgeMonths; m != nil {
				return w.Count(yfAllTravellersFromAge, *m)
			}
			return w.Text(yfAllTravellers)
		}
	case *c == entrycheck.YellowFeverNone:
		base.AppliesToThisPassport = applies(false)
		why = func(w *words) string { return w.Text(yfNone) }
	}
	if c == nil || *c != entrycheck.YellowFeverFromRiskCountries {
		for _, w := range e.words {
			r := base
			if why != nil {
				r.AppliesBecause = why(w)
			}
			y.other[w.index] = &r
		}
		return y
	}
	who := e.snap.Curated.YellowFever.RiskList.Source
	base.RiskListSource = &who
	other := base
	other.AppliesToThisPassport = applies(false)
	for _, w := range e.words {
		r := other
		r.AppliesBecause = w.Text(yfNoRisk)
		y.other[w.index] = &r
	}
	codes := slices.Concat(e.snap.Curated.YellowFever.RiskList.Countries, yf.Value.ExtraRiskCountries)
	risk := make([]entrycheck.Country, 0, len(codes))
	y.slot = make(map[string]int, len(codes))
	for _, code := range codes {
		if _, ok := y.slot[code]; ok {
			continue // on both lists: the WHO list says it
		}
		if rc, ok := e.snap.Countries.ByISO3(code); ok { // the loader accepts only known codes
			y.slot[code] = len(risk)
			risk = append(risk, rc)
		}
	}
	y.from, y.via = make([][]entrycheck.YellowFeverRule, len(e.words)), make([][]entrycheck.YellowFeverRule, len(e.words))
	for _, w := range e.words {
		y.from[w.index], y.via[w.index] = make([]entrycheck.YellowFeverRule, len(risk)), make([]entrycheck.YellowFeverRule, len(risk))
	}
	for i, rc := range risk {
		y.fromAndVia(e, base, dest, rc, i)
	}
	return y
}

// fromAndVia works out, in every language, the rule for a traveller
// arriving from the risk country rc, and for one transiting it, in slot i.
// The languages of a slot share its applies_to_this_passport, which none
// changes.
func (y *yellowFever) fromAndVia(e *Evaluator, base entrycheck.YellowFeverRule, dest, rc entrycheck.Country, i int) {
	list, whoDecides := y.riskList(e, rc)
	from, via := base, base
	if !whoDecides {
		from.RiskListSource, via.RiskListSource = nil, nil
	}
	v := &y.rule.Value
	from.AppliesToThisPassport = applies(true)
	transit := yfTransitNotCounted
	if v.IncludesTransit == nil || *v.IncludesTransit {
		transit = yfTransit
		via.AppliesToThisPassport = from.AppliesToThisPassport
	} else {
		via.AppliesToThisPassport = applies(false)
	}
	for _, w := range e.words {
		args := []string{"country", w.Country(rc.ISO2, rc.Name), "destination", w.Country(dest.ISO2, dest.Name)}
		f, t := from, via
		f.AppliesBecause = w.Text(yfFrom+list, args...)
		if transit == yfTransit && v.TransitHours != nil {
			t.AppliesBecause = w.Count(transit+list+yfTransitHoursSuffix, *v.TransitHours, args...)
		} else {
			t.AppliesBecause = w.Text(transit+list, args...)
		}
		y.from[w.index][i], y.via[w.index][i] = f, t
	}
}

// applies is a rule's own applies_to_this_passport.
func applies(b bool) *bool { return &b }

// riskList is the suffix of the messages that say why rc is a risk
// country for the destination (who_list or own_list), and whether the WHO
// list is the reason.
func (y *yellowFever) riskList(e *Evaluator, rc entrycheck.Country) (suffix string, who bool) {
	if e.riskList[rc.ISO3] {
		return yfWhoListSuffix, true
	}
	return yfOwnListSuffix, false
}

// isRisk reports whether the destination treats code as a risk country.
func (y *yellowFever) isRisk(e *Evaluator, code string) bool {
	return e.riskList[code] || y.extra[code]
}

// forTraveller is the rule, in the language of w, as it applies to a
// traveller arriving from origin (the passport country, assumed) through
// transit ("" for none). The rules are shared and must not be changed.
func (y *yellowFever) forTraveller(w *words, origin, transit string) *entrycheck.YellowFeverRule {
	if i, ok := y.slot[origin]; ok {
		return &y.from[w.index][i]
	}
	if i, ok := y.slot[transit]; ok {
		return &y.via[w.index][i]
	}
	return y.other[w.index]
}
