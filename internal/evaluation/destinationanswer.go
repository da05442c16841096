package evaluation

import (
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

// Destination computes what holds for every traveller to the destination
// iso3 at now: its curated rules with every variant, its yellow-fever rule
// and portals, none selected for a passport. It returns an
// *entrycheck.Error with code EINVALID and the problem Check gives for a
// destination it does not know (missing, malformed or unknown, with
// suggestions).
func (e *Evaluator) Destination(iso3 string, now time.Time) (entrycheck.DestinationAnswer, error) {
	var problems []entrycheck.Problem
	dc, ok := e.code(&problems, "destination", iso3, true)
	if !ok {
		return entrycheck.DestinationAnswer{}, &entrycheck.Error{Code: entrycheck.EINVALID, Message: "the request has invalid parameters", Problems: problems}
	}
	d := e.destination(dc.ISO3)
	a := entrycheck.DestinationAnswer{
		Destination:    dc,
		EntryRules:     e.everyTraveller(d.cur),
		Curated:        d.curated,
		DatasetVersion: e.snap.Version(),
		EvaluatedAt:    now,
		Source:         e.source,
		Disclaimer:     entrycheck.Disclaimer,
	}
	a.EntryRules.LastVerified, a.EntryRules.Coverage = d.rules.LastVerified, d.rules.Coverage
	a.EntryRules.StalenessDays, a.EntryRulesVerification = e.rulesVerification(d, now)
	if d.yf != nil {
		a.EntryRules.YellowFever = e.destinationYellowFever(*d.yf.rule)
	}
	if cur, ok := e.snap.Curated.Destinations[dc.ISO3]; ok {
		a.Apply, a.CuratorNotes = cur.Apply, cur.CuratorNotes
	}
	return a, nil
}

// everyTraveller is the block of curated rules as it holds for every
// traveller: each variant and item, with whom it holds for and whom its
// source speaks to in words.
func (e *Evaluator) everyTraveller(r dataset.Rules) entrycheck.DestinationRules {
	return entrycheck.DestinationRules{
		PassportValidity:          variants(r.PassportValidity, e.describe),
		BlankPages:                variants(r.BlankPages, e.describe),
		OnwardTicket:              variants(r.OnwardTicket, e.describe),
		OtherHealth:               variants(r.OtherHealth, e.describe),
		TWOV:                      variants(r.TWOV, e.describe),
		ResidencePermitExemptions: variants(r.ResidencePermitExemptions, e.describe),
		ArrivalFormalities:        variants(r.ArrivalFormalities, e.describe),
	}
}

// variants lists a field's variants or items, each under its own source
// when it was read from another page than its field.
func variants[T interface{ ScopeOf() entrycheck.Scope }](r *entrycheck.Rule[[]T], describe func(*entrycheck.AppliesTo) string) []entrycheck.Variant[T] {
	if r == nil {
		return nil
	}
	out := make([]entrycheck.Variant[T], 0, len(r.Value))
	for _, v := range r.Value {
		x := entrycheck.Variant[T]{Value: v, Source: r.Source}
		if own, ok := any(v).(interface{ OwnSource() *entrycheck.Citation }); ok && own.OwnSource() != nil {
			x.Source = *own.OwnSource()
		}
		if s := v.ScopeOf(); s.AppliesTo != nil {
			x.For = describe(s.AppliesTo)
		}
		if s := v.ScopeOf(); s.DocumentedFor != nil {
			x.DocumentedFor = describe(s.DocumentedFor)
		}
		out = append(out, x)
	}
	return out
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
