package answertext

import (
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// Check is the answer to a check in words: the verdict with its date and
// its own facts, then the destination's entry rules for this passport,
// what official pages say for other passports, the transit country,
// where the verdict comes from, the defaults and the assumptions. It is
// worded in the answer's language (CheckResult.Language); what the
// sources say is cited as they say it.
func Check(r entrycheck.CheckResult) Answer {
	c := r.Words()
	a := Answer{
		Title:      entrycheck.RouteWordsIn(c, named(c, r.Passport), named(c, r.Destination)),
		Verdict:    entrycheck.VerdictWordsIn(c, r.RequirementLabel, r.Requirement, r.AllowedStayDays),
		Age:        r.VerdictVerification.AgeWordsIn(c),
		Lines:      []Line{{Label: entrycheck.LabelAction.In(c), Text: c.Text("words.sentence", "text", r.Action.WordsIn(c)), Detail: r.ActionSentenceIn(c)}},
		Footer:     footer(c, r.DatasetVersion, r.RequestID, r.EvaluatedAt),
		Disclaimer: r.Disclaimer,
		Language:   c,
	}
	a.Lines = append(a.Lines, verdictLines(c, r.ExemptionApplied, r.Apply, r.VerdictVerification.OfficialStatements)...)
	lines := r.RuleLines()
	a.Sections = append(a.Sections, entryRules(c, c.Country(r.Destination.ISO2, r.Destination.Name), entrycheck.LinesForThisPassport(lines), r.EntryRules, r.EntryRulesVerification))
	if others := entrycheck.LinesForOtherPassports(lines); len(others) > 0 {
		a.Sections = append(a.Sections, Section{Heading: entrycheck.LabelForOtherPassports.In(c), Lines: RuleLines(others)})
	}
	if t := r.Transit; t != nil {
		a.Sections = append(a.Sections, transit(c, *t))
	}
	a.Sections = append(a.Sections, verdictBasis(c, r), checkDefaults(c, r.DefaultsApplied), assumptions(c, r.Assumptions))
	return a
}

// named is a country as a title names it: its name in the language of c
// and its code, "Germany (DEU)".
func named(c *locale.Catalog, country entrycheck.Country) string {
	return c.Country(country.ISO2, country.Name) + " (" + country.ISO3 + ")"
}

// Rules are the lines of entry rules (entrycheck.EntryRules.Lines).
func Rules(er entrycheck.EntryRules) []Line { return RuleLines(er.Lines()) }

// RuleLines are lines of entry rules in words.
func RuleLines(lines []entrycheck.RuleLine) []Line {
	var out []Line
	for _, l := range lines {
		src := l.Source
		out = append(out, Line{Label: l.Label, Text: l.Text, Detail: l.Detail, URL: l.URL, Source: &src})
	}
	return out
}

// Apply is the official place to obtain the required document, named by
// its kind as its link reads.
func Apply(a entrycheck.Apply) Line { return applyIn(entrycheck.English(), a) }

// applyIn is Apply in the language of c.
func applyIn(c *locale.Catalog, a entrycheck.Apply) Line {
	src := a.Source
	return Line{Label: entrycheck.ApplyKindLabelIn(c, a.Kind), Text: a.Note, URL: a.URL, Source: &src}
}

// statementIn is an official statement about the verdict, headed by its
// standing, in the language of c.
func statementIn(c *locale.Catalog, s entrycheck.CheckedStatement) Line {
	src := s.Source
	return Line{Label: s.LabelIn(c), Text: s.Text, Source: &src}
}

// verdictLines are what stands behind a verdict, for a check or a trip
// leg: the exemption that changed it, where to obtain the document, and the
// official statements about it.
func verdictLines(c *locale.Catalog, x *entrycheck.AppliedExemption, p *entrycheck.Apply, statements []entrycheck.CheckedStatement) []Line {
	var out []Line
	if x != nil {
		out = append(out, exemptionIn(c, *x))
	}
	if p != nil {
		out = append(out, applyIn(c, *p))
	}
	for _, s := range statements {
		out = append(out, statementIn(c, s))
	}
	return out
}

// exemptionIn is a curated exemption that changed the matrix verdict
// because the traveller holds a qualifying visa or residence permit, in the
// language of c.
func exemptionIn(c *locale.Catalog, x entrycheck.AppliedExemption) Line {
	src := x.Source
	return Line{
		Label: entrycheck.LabelExemption.In(c),
		Text: c.Text("words.exemption_applied", "document", entrycheck.HeldDocumentWordsIn(c, x.HeldDocument),
			"from", x.MatrixRequirement.ShortLabelIn(c), "to", x.Exemption.Effect.ShortLabelIn(c)),
		Detail: x.Exemption.Text,
		Source: &src,
	}
}

// entryRules is the destination's rules under their verification state,
// with what no official source covers yet; destination is the country's
// name in the language of c.
func entryRules(c *locale.Catalog, destination string, lines []entrycheck.RuleLine, er entrycheck.EntryRules, v entrycheck.EntryRulesVerification) Section {
	s := Section{
		Heading: entrycheck.EntryRulesOf(c, destination),
		Lead:    []string{c.Text("status.rules.lead", "status", capital(entrycheck.RulesStatusWordsIn(c, v.Status)), "read", v.ReadWordsIn(c)), v.Note},
		Lines:   RuleLines(lines),
	}
	if label, words := entrycheck.NotCitedWordsIn(c, destination, er.NotCitedNamesIn(c), len(s.Lines) > 0); words != "" {
		s.Lines = append(s.Lines, Line{Label: label, Text: words})
	}
	return s
}

// transit is the advisory lookup for the transit country, with its
// transit-without-visa programmes as the rules name them.
func transit(c *locale.Catalog, t entrycheck.Transit) Section {
	s := Section{
		Heading: entrycheck.TransitThrough(c, named(c, t.Country)),
		Status:  entrycheck.VerdictWordsIn(c, t.RequirementLabel, t.Requirement, t.AllowedStayDays),
		Lead:    []string{t.Note},
	}
	for _, p := range t.Programs {
		rule := &entrycheck.PassportRule[[]entrycheck.TWOVProgram]{Applies: entrycheck.AppliesYes, Value: []entrycheck.TWOVProgram{p.TWOVProgram}}
		if t.ProgramsSource != nil {
			rule.Source = *t.ProgramsSource
		}
		for _, l := range RuleLines(entrycheck.EntryRules{TWOV: rule}.LinesIn(c)) {
			l.Status = eligibility(c, p.EligibleForThisPassport)
			if t.ProgramsSource == nil {
				l.Source = nil
			}
			s.Lines = append(s.Lines, l)
		}
	}
	return s
}

func eligibility(c *locale.Catalog, eligible *bool) string {
	switch {
	case eligible == nil:
		return c.Text("words.transit.read_conditions")
	case *eligible:
		return c.Text("words.transit.eligible")
	}
	return c.Text("words.transit.not_eligible")
}

// verdictBasis says how the verdict was sourced and what the matrix gives.
func verdictBasis(c *locale.Catalog, r entrycheck.CheckResult) Section {
	v, src := r.VerdictVerification, r.Source
	before, after := entrycheck.SourceWordsIn(c, src)
	return Section{
		Heading: entrycheck.LabelVerdictBasis.In(c),
		Lead:    []string{c.Text("words.sentence", "text", capital(entrycheck.VerdictStatusWordsIn(c, v.Status))), v.Note},
		Lines:   []Line{{Label: entrycheck.LabelSource.In(c), Text: c.Text("words.sentence", "text", before+src.Name+after), URL: src.URL}},
	}
}

func checkDefaults(c *locale.Catalog, ds []entrycheck.Default) Section {
	s := Section{Heading: entrycheck.LabelDefaultsApplied.In(c)}
	for _, d := range ds {
		s.Lines = append(s.Lines, Line{Text: d.Reason})
	}
	return s
}

func assumptions(c *locale.Catalog, as []string) Section {
	s := Section{Heading: entrycheck.LabelAssumptions.In(c), Secondary: true}
	for _, a := range as {
		s.Lines = append(s.Lines, Line{Text: a})
	}
	return s
}

func footer(c *locale.Catalog, dataset, request string, at time.Time) string {
	return c.Text("words.footer", "dataset", dataset, "request", request, "at", at.Format("2006-01-02 15:04:05 MST"))
}
