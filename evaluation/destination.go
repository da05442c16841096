package evaluation

import (
	"slices"

	"github.com/entrycheck/entrycheck"
)

// destination holds the parts of an answer that depend on the destination
// only (and, for yellow fever, on whether the passport country is a risk
// country).
type destination struct {
	country  entrycheck.Country
	curated  bool
	rules    entrycheck.EntryRules // yellow fever left nil; set per passport
	exempts  *entrycheck.Rule[[]entrycheck.Exemption]
	twov     *entrycheck.Rule[[]entrycheck.TWOVProgram]
	apply    map[entrycheck.Requirement]*entrycheck.Apply
	lastDate *entrycheck.Date
	// yellowFever holds the rule as it applies to travellers from a risk
	// country [0] and from elsewhere [1]; both nil when the table has no entry.
	yellowFever [2]*entrycheck.YellowFeverRule
	yfRule      *entrycheck.Rule[entrycheck.YellowFever]
	// flagged lists rule fields a curator must review.
	flagged []string
}

func (e *Evaluator) newDestination(c entrycheck.Country) *destination {
	d := &destination{country: c, apply: map[entrycheck.Requirement]*entrycheck.Apply{}}
	d.rules.Coverage = entrycheck.CoverageBasic
	if cur, ok := e.snap.Curated.Destinations[c.ISO3]; ok {
		d.curated = true
		r := cur.Rules
		d.rules = r.EntryRules()
		d.rules.Coverage = entrycheck.CoverageExtended
		d.exempts, d.twov = r.ResidencePermitExemptions, r.TWOV
		d.apply = choosePortals(cur.Apply)
	}
	if yf, ok := e.snap.Curated.YellowFever.Countries[c.ISO3]; ok {
		d.yfRule = &yf
		d.yellowFever[0] = e.yellowFeverRule(yf, true, false)
		d.yellowFever[1] = e.yellowFeverRule(yf, false, false)
	}
	return d
}

// verify sets the destination's verification from its cited records and
// their state: the rules are as fresh as their least recently verified
// source, and a field is flagged while a change of its source awaits a
// curator. Official statements do not date the rules (they are about the
// verdict) but their flags are shown.
func (d *destination) verify(records []entrycheck.CitedRecord, v entrycheck.Verification) {
	d.lastDate, d.flagged = nil, nil
	for _, r := range records {
		s := v.StateOf(r)
		if s.Flagged && !slices.Contains(d.flagged, r.Field) {
			d.flagged = append(d.flagged, r.Field)
		}
		if r.Field == entrycheck.FieldOfficialStatement {
			continue
		}
		if d.lastDate == nil || s.LastVerified.Before(*d.lastDate) {
			date := s.LastVerified
			d.lastDate = &date
		}
	}
	d.rules.LastVerified = d.lastDate
}

// choosePortals picks, for each requirement, the curated portal to show:
// an application portal before an information page, then the curators' order.
func choosePortals(entries []entrycheck.ApplyEntry) map[entrycheck.Requirement]*entrycheck.Apply {
	out := map[entrycheck.Requirement]*entrycheck.Apply{}
	for _, kind := range []string{entrycheck.ApplyOfficialPortal, entrycheck.ApplyOfficialInfo, entrycheck.ApplyEmbassyFinder} {
		for i := range entries {
			if entries[i].Kind != kind {
				continue
			}
			for _, r := range entries[i].Requirements {
				if out[r] == nil {
					out[r] = &entries[i].Apply
				}
			}
		}
	}
	return out
}

// yellowFeverRule says whether the certificate applies to a traveller who
// arrives from a risk country (fromRisk) or transits one (viaRisk).
func (e *Evaluator) yellowFeverRule(yf entrycheck.Rule[entrycheck.YellowFever], fromRisk, viaRisk bool) *entrycheck.YellowFeverRule {
	r := &entrycheck.YellowFeverRule{Value: yf.Value, Source: yf.Source}
	yes, no := true, false
	c := yf.Value.CertificateRequired
	switch {
	case c == nil:
		r.AppliesBecause = "The source does not say whom the certificate rule covers; read its text."
	case *c == entrycheck.YellowFeverAllTravellers:
		r.AppliesToThisPassport = &yes
		r.AppliesBecause = "A certificate is required of all travellers (check the minimum age)."
	case *c == entrycheck.YellowFeverNone:
		r.AppliesToThisPassport = &no
		r.AppliesBecause = "The source says no yellow-fever certificate is required."
	default:
		risk := e.snap.Curated.YellowFever.RiskList.Source
		r.RiskListSource = &risk
		switch {
		case viaRisk && (yf.Value.IncludesTransit == nil || *yf.Value.IncludesTransit):
			r.AppliesToThisPassport = &yes
			r.AppliesBecause = "A certificate is required of travellers arriving from or transiting a yellow-fever risk country, and the transit country is on the risk list."
		case fromRisk:
			r.AppliesToThisPassport = &yes
			r.AppliesBecause = "A certificate is required of travellers arriving from a yellow-fever risk country; the passport country is on the risk list and the traveller is assumed to arrive from it."
		default:
			r.AppliesToThisPassport = &no
			r.AppliesBecause = "A certificate is required only of travellers arriving from (or, per the rule, transiting) a yellow-fever risk country; the passport country is not on the risk list. It applies if your itinerary passes through one."
		}
	}
	return r
}
