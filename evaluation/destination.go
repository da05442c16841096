package evaluation

import (
	"slices"

	"github.com/entrycheck/entrycheck"
)

// destination holds the parts of an answer that depend on the destination
// only (yellow fever worked out for every risk country a traveller may
// arrive from or through).
type destination struct {
	country  entrycheck.Country
	curated  bool
	rules    entrycheck.EntryRules // yellow fever left nil; set per passport
	exempts  *entrycheck.Rule[[]entrycheck.Exemption]
	twov     *entrycheck.Rule[[]entrycheck.TWOVProgram]
	apply    map[entrycheck.Requirement]*entrycheck.Apply
	lastDate *entrycheck.Date
	// yf is the yellow-fever rule worked out for each kind of traveller;
	// nil when the table has no entry.
	yf *yellowFever
	// flagged lists rule fields a curator must review.
	flagged []string
	// notLive says why the rules are not verified live, if they are not.
	notLive notLive
	// validitySays states the passport-validity rule for a trip's leg,
	// outside [0] and inside [1] the Schengen area (see validitySays).
	validitySays [2]string
	// rulesWhy says, for each status of the rules' verification, what a
	// trip's leg explains of them (see rulesWhy).
	rulesWhyText [4]string
	// schengen is set for a member of the Schengen area.
	schengen bool
	// statements is set when official statements cover some routes to the
	// destination (see Evaluator.statements).
	statements bool
}

func (e *Evaluator) newDestination(c entrycheck.Country) *destination {
	d := &destination{country: c, apply: map[entrycheck.Requirement]*entrycheck.Apply{},
		schengen: e.groups[entrycheck.GroupSchengen][c.ISO3]}
	d.rules.Coverage = entrycheck.CoverageBasic
	if cur, ok := e.snap.Curated.Destinations[c.ISO3]; ok {
		d.curated = true
		r := cur.Rules
		d.rules = r.EntryRules()
		// A curated record whose rules no official page gave (only portals,
		// say) covers no more than an uncurated one.
		d.rules.Coverage = entrycheck.CoverageBasic
		if len(d.rules.Citations()) > 0 {
			d.rules.Coverage = entrycheck.CoverageExtended
		}
		d.exempts, d.twov = r.ResidencePermitExemptions, r.TWOV
		d.apply = choosePortals(cur.Apply)
	}
	for i := range d.validitySays {
		d.validitySays[i] = validitySays(c.Name, d.rules.PassportValidity, i == 1)
	}
	if yf, ok := e.snap.Curated.YellowFever.Countries[c.ISO3]; ok {
		d.yf = e.newYellowFever(c, yf)
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
	d.notLive = notLiveOf(records, v)
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

// boolIndex is 1 for true, 0 for false.
func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}
