// Package evaluation is the one evaluation core: it computes the check
// result for a passport and destination, and the matrix of one passport,
// from a dataset snapshot, a request and a clock. The CLI, the API, the MCP
// tools and the generated pages all call it; no rule is implemented twice.
//
// It depends on the domain, the country registry and the dataset only.
package evaluation

import (
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// Evaluator answers checks from one snapshot. Everything that does not
// depend on the request is computed once in New, so that a check is a few
// table lookups. It is immutable and safe for concurrent use.
type Evaluator struct {
	snap *dataset.Snapshot
	// dests holds the precomputed answer parts of every destination;
	// destIndex maps the country.Index3 of a code to its place in dests
	// plus one, 0 for codes the registry lacks. The index holds no
	// pointers, so the garbage collector has only the few destinations to
	// scan, not a slot for every possible code.
	dests     []*destination
	destIndex [26 * 26 * 26]uint16
	// statements holds the official statements of routes that have one,
	// each already compared with the matrix; statementRoutes lists those
	// routes in the order the statements first name them.
	statements      map[routeKey][]routeStatement
	statementRoutes []statementRoute
	// asOf is the date of the matrix snapshot; words holds each
	// language's wording of answers (English first), whose "old verdict"
	// sentence names it.
	asOf     entrycheck.Date
	catalogs *locale.Catalogs
	words    []*words
	groups   map[string]map[string]bool
	riskList map[string]bool
	source   entrycheck.Source
	// verification is the records' state the evaluator was built with.
	verification entrycheck.Verification
}

// routeKey identifies a passport to destination route by the Index3 of both codes.
type routeKey struct{ passport, destination int }

// New precomputes the evaluator of a snapshot, with every cited record
// standing as its citation says (read on its retrieved_at date, no flags).
func New(snap *dataset.Snapshot) *Evaluator { return NewVerified(snap, nil) }

// NewVerified precomputes the evaluator of a snapshot with the records'
// verification state v, computed from the verification events: the answers'
// entry_rules_verification (last verified, staleness, flagged fields) comes
// from it and the clock.
func NewVerified(snap *dataset.Snapshot, v entrycheck.Verification) *Evaluator {
	e := &Evaluator{
		snap:       snap,
		statements: map[routeKey][]routeStatement{},
		groups:     map[string]map[string]bool{},
		riskList:   map[string]bool{},
		source:     matrixSource(snap.Matrix.Provenance()),

		verification: v,
	}
	// The loader accepts only snapshot versions that are dates.
	e.asOf, _ = entrycheck.ParseDate(snap.Version())
	e.catalogs = locale.Embedded()
	for i, c := range e.catalogs.List() {
		e.words = append(e.words, newWords(c, i, e.asOf))
	}
	for code, g := range snap.Curated.Groups {
		e.groups[code] = map[string]bool{}
		for _, m := range g.Members {
			e.groups[code][m] = true
		}
	}
	for _, c := range snap.Curated.YellowFever.RiskList.Countries {
		e.riskList[c] = true
	}
	records := map[string][]entrycheck.CitedRecord{}
	for _, r := range snap.Curated.Records() {
		records[r.Destination] = append(records[r.Destination], r)
	}
	for _, c := range snap.Countries.All() {
		i, _ := country.Index3(c.ISO3)
		d := e.newDestination(c)
		d.verify(records[c.ISO3], v)
		for _, w := range e.words {
			d.notLiveWords = append(d.notLiveWords, d.notLive.words(w))
		}
		e.dests = append(e.dests, d)
		e.destIndex[i] = uint16(len(e.dests))
	}
	e.compareStatements()
	return e
}

// matrixSource cites the matrix snapshot as its pin in the lock file names it.
func matrixSource(p dataset.Provenance) entrycheck.Source {
	return entrycheck.Source{
		Kind:     entrycheck.SourceSecondaryMatrix,
		Name:     p.Name(),
		URL:      p.Source,
		Commit:   p.Commit,
		License:  p.License,
		Snapshot: p.Version,
	}
}

// RulesVerification is the verification state of a destination's entry
// rules at now, as its answers give it; ok is false for an unknown code.
func (e *Evaluator) RulesVerification(iso3 string, now time.Time) (v entrycheck.EntryRulesVerification, ok bool) {
	d := e.destination(iso3)
	if d == nil {
		return v, false
	}
	_, v = e.rulesVerification(e.words[0], d, now)
	return v, true
}

// RecordState is the verification state of a cited record the answers
// rest on.
func (e *Evaluator) RecordState(r entrycheck.CitedRecord) entrycheck.RecordState {
	return e.verification.StateOf(r)
}

// Snapshot returns the snapshot the evaluator answers from.
func (e *Evaluator) Snapshot() *dataset.Snapshot { return e.snap }

// Source returns the provenance of the matrix verdicts, as every check
// result cites it (without a route's matrix_value).
func (e *Evaluator) Source() entrycheck.Source { return e.source }

// maxAskedLanguage bounds how much of a language asked for and not spoken
// the answer echoes.
const maxAskedLanguage = 35

// wordsFor returns the wording of the language an answer is asked in,
// given explicitly (language) or by an Accept-Language header, and the
// default that says so when it is a language the service does not speak
// (then the answer is in English).
func (e *Evaluator) wordsFor(language, acceptLanguage string) (*words, *entrycheck.Default) {
	if language == "" && acceptLanguage == "" {
		return e.words[0], nil
	}
	// A language's own code (the pages' and the API's usual ask) needs no
	// matching.
	for _, w := range e.words {
		if w.Code == language {
			return w, nil
		}
	}
	c, spoken := e.catalogs.Match(language, acceptLanguage)
	w := e.words[0]
	for _, x := range e.words {
		if x.Catalog == c {
			w = x
		}
	}
	if spoken {
		return w, nil
	}
	asked := language
	if asked == "" {
		asked = acceptLanguage
	}
	if len(asked) > maxAskedLanguage {
		asked = asked[:maxAskedLanguage] + "..."
	}
	return w, &entrycheck.Default{Field: "language", Value: locale.English,
		Reason: w.Text("default.language", "asked", asked, "languages", strings.Join(locale.Codes(), ", "))}
}

func (e *Evaluator) destination(iso3 string) *destination {
	i, ok := country.Index3(iso3)
	if !ok || e.destIndex[i] == 0 {
		return nil
	}
	return e.dests[e.destIndex[i]-1]
}

// routeStatement is an official statement of a route, compared with the
// route's matrix verdict; its status depends on the travel date.
type routeStatement struct {
	src     *dataset.OfficialStatement
	checked entrycheck.CheckedStatement
}

// statementRoute is a route some official statement speaks of, with the
// matrix's verdict.
type statementRoute struct {
	key                   routeKey
	passport, destination entrycheck.Country
	matrix                dataset.Verdict
}

// compareStatements compares each curated official statement with the
// matrix verdict of every route it covers.
func (e *Evaluator) compareStatements() {
	m := e.snap.Matrix
	inGroup := func(group, code string) bool { return e.groups[group][code] }
	for i := range e.snap.Curated.Statements {
		s := &e.snap.Curated.Statements[i]
		d, inMatrix := m.Position(s.Destination)
		if !inMatrix {
			continue
		}
		for pp, pc := range m.Countries() {
			if pp == d || !s.AppliesTo.Matches(pc.ISO3, "", inGroup) {
				continue
			}
			v := m.Verdict(pp, d)
			pi, _ := country.Index3(pc.ISO3)
			di, _ := country.Index3(s.Destination)
			key := routeKey{pi, di}
			if _, seen := e.statements[key]; !seen {
				e.statementRoutes = append(e.statementRoutes, statementRoute{key: key, passport: pc, destination: m.Countries()[d], matrix: v})
			}
			e.destination(s.Destination).statements = true
			e.statements[key] = append(e.statements[key], routeStatement{src: s, checked: entrycheck.CheckedStatement{
				Statement: s.Statement,
				AgreesWithMatrix: s.Requirement == v.Requirement &&
					(!s.AllowedStayDays.Valid || !v.Days.Valid || s.AllowedStayDays == v.Days),
			}})
		}
	}
}

// statementsOn returns the verification of a route's verdict given its
// official statements on the travel day, for a purpose of travel: a
// statement in force that disagrees with the matrix makes it needs_review,
// one that agrees corroborates it; upcoming and ended statements are
// listed and decide nothing.
func statementsOn(w *words, stmts []routeStatement, day, asOf entrycheck.Date, purpose string) entrycheck.VerdictVerification {
	vv := entrycheck.VerdictVerification{
		Status:             entrycheck.VerdictSecondarySourceOnly,
		OfficialStatements: make([]entrycheck.CheckedStatement, 0, len(stmts)),
	}
	var inForce, agreeing, upcoming, endedSinceSnapshot int
	for _, s := range stmts {
		if !s.src.CoversPurpose(purpose) {
			continue
		}
		c := s.checked
		c.Status = s.src.StatusOn(day)
		switch c.Status {
		case entrycheck.StatementInForce:
			inForce++
			if c.AgreesWithMatrix {
				agreeing++
			}
		case entrycheck.StatementUpcoming:
			upcoming++
		case entrycheck.StatementEnded:
			// The matrix was read while the statement held and agreed with
			// it: the verdict may be the rule that has ended.
			if c.AgreesWithMatrix && asOf.Before(*c.EffectiveUntil) {
				endedSinceSnapshot++
			}
		}
		vv.OfficialStatements = append(vv.OfficialStatements, c)
	}
	switch {
	case agreeing < inForce:
		vv.Status, vv.Note = entrycheck.VerdictNeedsReview, w.Text(noteConflict)
	case inForce > 0:
		vv.Note = w.Text(noteCorroborated)
	case upcoming > 0:
		vv.Note = w.Text(noteUpcoming)
	case endedSinceSnapshot > 0:
		vv.Note = w.Text(noteEndedAgreed)
	case len(vv.OfficialStatements) > 0:
		vv.Note = w.Text(noteEnded)
	default:
		vv.Note = w.Text(noteSecondaryOnly)
	}
	return vv
}
