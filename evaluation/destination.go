package evaluation

import (
	"slices"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/dataset"
)

// destination holds the parts of an answer that depend on the destination
// only (and, for yellow fever, on whether the passport country is a risk
// country).
type destination struct {
	country entrycheck.Country
	curated bool
	// rules holds the destination-level parts of the block (coverage,
	// verification); the rule fields are selected per passport from cur.
	rules    entrycheck.EntryRules
	cur      dataset.Rules
	apply    []entrycheck.ApplyEntry
	lastDate *entrycheck.Date
	// yellowFever holds the rule as it applies to travellers from a risk
	// country [0] and from elsewhere [1]; both nil when the table has no entry.
	yellowFever [2]*entrycheck.YellowFeverRule
	yfRule      *entrycheck.Rule[entrycheck.YellowFever]
	// flagged lists rule fields a curator must review.
	flagged []string
	// rulesWhy says, for each status of the rules' verification, what a
	// trip's leg explains of them (see rulesWhy).
	rulesWhyText [4]string
	// risk is set for a country on the yellow-fever risk list, schengen
	// for a member of the Schengen area.
	risk, schengen bool
	// statements is set when official statements cover some routes to the
	// destination (see Evaluator.statements).
	statements bool
}

func (e *Evaluator) newDestination(c entrycheck.Country) *destination {
	d := &destination{country: c,
		risk: e.riskList[c.ISO3], schengen: e.groups[entrycheck.GroupSchengen][c.ISO3]}
	d.rules.Coverage = entrycheck.CoverageBasic
	if cur, ok := e.snap.Curated.Destinations[c.ISO3]; ok {
		d.curated = true
		d.cur, d.apply = cur.Rules, cur.Apply
		d.rules.Coverage = entrycheck.CoverageExtended
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
	verified := "."
	if d.lastDate != nil {
		verified = ", last verified " + d.lastDate.String() + "."
	}
	for i, status := range rulesStatuses() {
		d.rulesWhyText[i] = "Entry rules of " + d.country.Name + ": " + status + verified
	}
}

// rulesStatuses are the statuses of the rules' verification, in the order
// of destination.rulesWhyText.
func rulesStatuses() [4]string {
	return [4]string{entrycheck.RulesVerifiedOfficialSources, entrycheck.RulesStale, entrycheck.RulesNotCurated, entrycheck.RulesNeedsReview}
}

// rulesWhy is the sentence of a trip's leg on the destination's rules in
// the given verification status.
func (d *destination) rulesWhy(status string) string {
	for i, s := range rulesStatuses() {
		if s == status {
			return d.rulesWhyText[i]
		}
	}
	return "Entry rules of " + d.country.Name + ": " + status + "."
}

// rulesFor returns the block of entry rules as they hold for a traveller.
func (d *destination) rulesFor(t entrycheck.Traveller) entrycheck.EntryRules {
	r := d.cur.For(t)
	r.LastVerified, r.StalenessDays, r.Coverage = d.rules.LastVerified, d.rules.StalenessDays, d.rules.Coverage
	return r
}

// portal picks the curated portal to show for the traveller's requirement:
// one that serves the requirement and the passport, an application portal
// before an information page, then the curators' order.
func (d *destination) portal(t entrycheck.Traveller) *entrycheck.Apply {
	for _, kind := range []string{entrycheck.ApplyOfficialPortal, entrycheck.ApplyOfficialInfo, entrycheck.ApplyEmbassyFinder} {
		for i := range d.apply {
			a := &d.apply[i]
			if a.Kind == kind && slices.Contains(a.Requirements, t.Requirement) && a.AppliesTo.Matches(t.Passport, t.Requirement, t.InGroup) {
				return &a.Apply
			}
		}
	}
	return nil
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

// traveller is whom curated facts are selected for: a passport with its
// verdict for the route, groups resolved from groups.json.
func (e *Evaluator) traveller(passport string, req entrycheck.Requirement) entrycheck.Traveller {
	return entrycheck.Traveller{Passport: passport, Requirement: req, InGroup: e.inGroup, Describe: e.describe}
}

func (e *Evaluator) inGroup(group, code string) bool { return e.groups[group][code] }

// describe names the travellers an applies_to speaks of, such as "holders
// of a United Kingdom passport" or "everyone but European Union citizens".
func (e *Evaluator) describe(a *entrycheck.AppliesTo) string {
	var in, out []string
	for _, p := range a.Passports {
		in = append(in, e.countryName(p))
	}
	for _, g := range a.Groups {
		in = append(in, e.snap.Curated.Groups[g].Name)
	}
	for _, p := range a.ExceptPassports {
		out = append(out, e.countryName(p))
	}
	for _, g := range a.ExceptGroups {
		out = append(out, e.snap.Curated.Groups[g].Name)
	}
	var s string
	switch {
	case len(in) > 0:
		s = "holders of a passport of " + strings.Join(in, ", ")
	default:
		s = "all passports"
	}
	if len(out) > 0 {
		s += " except those of " + strings.Join(out, ", ")
	}
	if len(a.Requirements) > 0 {
		var reqs []string
		for _, r := range a.Requirements {
			reqs = append(reqs, r.Label())
		}
		s += " entering with: " + strings.Join(reqs, ", ")
	}
	return s
}

func (e *Evaluator) countryName(code string) string {
	if c, ok := e.snap.Countries.ByISO3(code); ok {
		return c.Name
	}
	return code
}
