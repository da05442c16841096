package evaluation

import (
	"time"

	"github.com/entrycheck/entrycheck"
)

// Destination computes what holds for every traveller to the destination
// iso3 at now: its curated rules with every variant, its yellow-fever rule
// and portals, none selected for a passport. It returns an
// *entrycheck.Error with code EINVALID and the problem Check gives for a
// destination it does not know (missing, malformed or unknown, with
// suggestions).
func (e *Evaluator) Destination(iso3 string, now time.Time) (entrycheck.DestinationAnswer, error) {
	return e.destinationIn(e.words[0], iso3, now)
}

// DestinationIn is Destination in the language code, as a check asked in
// it is worded (an unknown code is English): whom each variant holds for,
// the note of the rules' verification and the disclaimer. The rules keep
// the sources' words; DestinationAnswer.RuleLinesIn words the rest.
func (e *Evaluator) DestinationIn(iso3 string, now time.Time, code string) (entrycheck.DestinationAnswer, error) {
	w, _ := e.wordsFor(code, "")
	return e.destinationIn(w, iso3, now)
}

func (e *Evaluator) destinationIn(w *words, iso3 string, now time.Time) (entrycheck.DestinationAnswer, error) {
	var problems []entrycheck.Problem
	dc, ok := e.code(&problems, "destination", iso3, true)
	if !ok {
		return entrycheck.DestinationAnswer{}, &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the request has invalid parameters", Problems: problems}
	}
	d := e.destination(dc.ISO3)
	a := entrycheck.DestinationAnswer{
		Destination:    dc,
		EntryRules:     d.cur.EveryTraveller(func(a *entrycheck.AppliesTo) string { return e.describeIn(w.Catalog, a) }, entrycheck.DateOf(now)),
		Curated:        d.curated,
		DatasetVersion: e.snap.Version(),
		EvaluatedAt:    now,
		Source:         e.source,
		Disclaimer:     w.disclaimer,
	}
	a.EntryRules.LastVerified, a.EntryRules.Coverage = d.rules.LastVerified, d.rules.Coverage
	a.EntryRules.StalenessDays, a.EntryRulesVerification = e.rulesVerification(w, d, now)
	if d.yf != nil {
		a.EntryRules.YellowFever = e.destinationYellowFever(*d.yf.rule)
	}
	if cur, ok := e.snap.Curated.Destinations[dc.ISO3]; ok {
		a.Apply, a.CuratorNotes = cur.Apply, cur.CuratorNotes
	}
	return a, nil
}

// destinationYellowFever is the destination's certificate rule with its own
// risk countries named.
func (e *Evaluator) destinationYellowFever(r entrycheck.Rule[entrycheck.YellowFever]) *entrycheck.DestinationYellowFever {
	y := &entrycheck.DestinationYellowFever{Value: r.Value, Source: r.Source}
	for _, code := range r.Value.ExtraRiskCountries {
		c, ok := e.snap.Countries.ByISO3(code)
		if !ok { // the loader accepts only known codes; name it by its code all the same
			c = entrycheck.Country{ISO3: code, Name: code}
		}
		y.ExtraRiskCountries = append(y.ExtraRiskCountries, c)
	}
	return y
}
