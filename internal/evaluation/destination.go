package evaluation

import (
	"slices"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// destination holds the parts of an answer that depend on the destination
// only (yellow fever worked out for every risk country a traveller may
// arrive from or through).
type destination struct {
	country entrycheck.Country
	curated bool
	// rules holds the destination-level parts of the block (coverage,
	// verification); the rule fields are selected per passport from cur.
	rules    entrycheck.EntryRules
	cur      dataset.Rules
	apply    []entrycheck.ApplyEntry
	lastDate *entrycheck.Date
	// yf is the yellow-fever rule worked out for each kind of traveller;
	// nil when the table has no entry.
	yf *yellowFever
	// flagged lists rule fields a curator must review.
	flagged []string
	// notLive says why the rules are not verified live, if they are not.
	notLive notLive
	// schengen is set for a member of the Schengen area.
	schengen bool
	// statements is set when official statements cover some routes to the
	// destination (see Evaluator.statements).
	statements bool
	// confirmOld says, in each language and for each requirement, that an old verdict must be
	// confirmed with the destination's official authority
	// (entrycheck.OldVerdictWords); worded once, since it depends on the
	// destination, the requirement and the snapshot only.
	confirmOld []map[entrycheck.Requirement]string
	// notLiveWords is notLive's note in each language.
	notLiveWords []string
}

func (e *Evaluator) newDestination(c entrycheck.Country) *destination {
	d := &destination{country: c, schengen: e.groups[entrycheck.GroupSchengen][c.ISO3]}
	d.rules.Coverage = entrycheck.CoverageBasic
	if cur, ok := e.snap.Curated.Destinations[c.ISO3]; ok {
		d.curated = true
		d.cur, d.apply = cur.Rules, cur.Apply
		// A curated record whose rules no official page gave (only portals,
		// say) covers no more than an uncurated one.
		if cur.Rules.Cited() {
			d.rules.Coverage = entrycheck.CoverageExtended
		}
	}
	if yf, ok := e.snap.Curated.YellowFever.Countries[c.ISO3]; ok {
		d.yf = e.newYellowFever(c, yf)
	}
	for _, w := range e.words {
		confirm := make(map[entrycheck.Requirement]string, len(entrycheck.Requirements))
		for _, r := range entrycheck.Requirements {
			confirm[r] = entrycheck.OldVerdictWordsIn(w.Catalog, e.asOf, w.Country(c.ISO2, c.Name), d.authorityPage(r))
		}
		d.confirmOld = append(d.confirmOld, confirm)
	}
	return d
}

// authorityPage is the curated official page that names the destination's
// authority to a traveller confirming a verdict of requirement r: an
// information page before an application portal, then the curators'
// order, among those meant for every passport (a page for some
// nationalities would address the others wrongly). An application portal
// counts only for the requirements it serves: one for another (ESTA to a
// traveller who needs a visa) would send the traveller the wrong way. nil
// when the curators found none: no address is guessed.
func (d *destination) authorityPage(r entrycheck.Requirement) *entrycheck.Apply {
	for _, kind := range []string{entrycheck.ApplyOfficialInfo, entrycheck.ApplyOfficialPortal} {
		for i := range d.apply {
			if a := &d.apply[i]; a.Kind == kind && a.AppliesTo == nil && (kind == entrycheck.ApplyOfficialInfo || slices.Contains(a.Requirements, r)) {
				return &a.Apply
			}
		}
	}
	return nil
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

// traveller is whom curated facts are selected for: a passport with its
// verdict for the route, groups resolved from groups.json, travelling on day.
func (e *Evaluator) traveller(passport string, req entrycheck.Requirement, day entrycheck.Date) entrycheck.Traveller {
	return entrycheck.Traveller{Passport: passport, Requirement: req, On: day, InGroup: e.inGroup, Describe: e.describe}
}

func (e *Evaluator) inGroup(group, code string) bool { return e.groups[group][code] }

// describe names the travellers an applies_to speaks of, such as "holders
// of a passport of United Kingdom" or "all passports except those of
// Germany", in English: the words of the destination pages.
func (e *Evaluator) describe(a *entrycheck.AppliesTo) string {
	return e.describeIn(entrycheck.English(), a)
}

// describeIn is describe in the language of c; a group keeps its curated
// name.
func (e *Evaluator) describeIn(c *locale.Catalog, a *entrycheck.AppliesTo) string {
	var in, out []string
	for _, p := range a.Passports {
		in = append(in, e.countryNameIn(c, p))
	}
	for _, g := range a.Groups {
		in = append(in, e.snap.Curated.Groups[g].Name)
	}
	for _, p := range a.ExceptPassports {
		out = append(out, e.countryNameIn(c, p))
	}
	for _, g := range a.ExceptGroups {
		out = append(out, e.snap.Curated.Groups[g].Name)
	}
	s := c.Text("rule.whom.all")
	if len(in) > 0 {
		s = c.Text("rule.whom.holders", "countries", joinComma(c, in))
	}
	if len(out) > 0 {
		s = c.Text("rule.whom.except", "whom", s, "countries", joinComma(c, out))
	}
	if len(a.Requirements) > 0 {
		var reqs []string
		for _, r := range a.Requirements {
			reqs = append(reqs, r.LabelIn(c))
		}
		s = c.Text("rule.whom.entering_with", "whom", s, "requirements", joinComma(c, reqs))
	}
	return s
}

// joinComma lists names with the language's comma, as the notes list
// whom a rule is for.
func joinComma(c *locale.Catalog, names []string) string {
	s := names[len(names)-1]
	for i := len(names) - 2; i >= 0; i-- {
		s = c.Text("list.comma", "a", names[i], "b", s)
	}
	return s
}

// countryNameIn is the name of the country of code in the language of c,
// or the code when it is not a country.
func (e *Evaluator) countryNameIn(c *locale.Catalog, code string) string {
	if x, ok := e.snap.Countries.ByISO3(code); ok {
		return c.Country(x.ISO2, x.Name)
	}
	return code
}
