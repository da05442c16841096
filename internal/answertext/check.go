package answertext

import (
	"fmt"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
)

// Check is the answer to a check in words: the verdict with its date and
// its own facts, then the destination's entry rules for this passport,
// what official pages say for other passports, the transit country,
// where the verdict comes from, the defaults and the assumptions.
func Check(r entrycheck.CheckResult) Answer {
	a := Answer{
		Title:      entrycheck.RouteWords(r.Passport.Name+" ("+r.Passport.ISO3+")", r.Destination.Name+" ("+r.Destination.ISO3+")"),
		Verdict:    entrycheck.VerdictWords(r.RequirementLabel, r.Requirement, r.AllowedStayDays),
		Age:        r.VerdictVerification.AgeWords(),
		Lines:      []Line{{Label: entrycheck.LabelAction, Text: r.Action.Words() + ".", Detail: r.ActionSentence()}},
		Footer:     footer(r.DatasetVersion, r.RequestID, r.EvaluatedAt),
		Disclaimer: r.Disclaimer,
	}
	a.Lines = append(a.Lines, verdictLines(r.ExemptionApplied, r.Apply, r.VerdictVerification.OfficialStatements)...)
	lines := r.RuleLines()
	a.Sections = append(a.Sections, entryRules(r.Destination.Name, entrycheck.LinesForThisPassport(lines), r.EntryRules, r.EntryRulesVerification))
	if others := entrycheck.LinesForOtherPassports(lines); len(others) > 0 {
		a.Sections = append(a.Sections, Section{Heading: entrycheck.LabelForOtherPassports, Lines: RuleLines(others)})
	}
	if t := r.Transit; t != nil {
		a.Sections = append(a.Sections, transit(*t))
	}
	a.Sections = append(a.Sections, verdictBasis(r), checkDefaults(r.DefaultsApplied), assumptions(r.Assumptions))
	return a
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
func Apply(a entrycheck.Apply) Line {
	src := a.Source
	return Line{Label: entrycheck.ApplyKindLabel(a.Kind), Text: a.Note, URL: a.URL, Source: &src}
}

// Statement is an official statement about the verdict, headed by its standing.
func Statement(s entrycheck.CheckedStatement) Line {
	src := s.Source
	return Line{Label: s.Label(), Text: s.Text, Source: &src}
}

// verdictLines are what stands behind a verdict, for a check or a trip
// leg: the exemption that changed it, where to obtain the document, and the
// official statements about it.
func verdictLines(x *entrycheck.AppliedExemption, p *entrycheck.Apply, statements []entrycheck.CheckedStatement) []Line {
	var out []Line
	if x != nil {
		out = append(out, Exemption(*x))
	}
	if p != nil {
		out = append(out, Apply(*p))
	}
	for _, s := range statements {
		out = append(out, Statement(s))
	}
	return out
}

// Exemption is a curated exemption that changed the matrix verdict because
// the traveller holds a qualifying visa or residence permit.
func Exemption(x entrycheck.AppliedExemption) Line {
	src := x.Source
	return Line{
		Label: entrycheck.LabelExemption,
		Text: "holding a " + strings.ReplaceAll(x.HeldDocument, "_", " ") + " changes the requirement from " +
			x.MatrixRequirement.ShortLabel() + " to " + x.Exemption.Effect.ShortLabel() + ".",
		Detail: x.Exemption.Text,
		Source: &src,
	}
}

// entryRules is the destination's rules under their verification state,
// with what no official source covers yet.
func entryRules(destination string, lines []entrycheck.RuleLine, er entrycheck.EntryRules, v entrycheck.EntryRulesVerification) Section {
	s := Section{
		Heading: entrycheck.LabelEntryRulesOf + " " + destination,
		Lead:    []string{capital(entrycheck.RulesStatusWords(v.Status)) + "; " + v.ReadWords() + ".", v.Note},
		Lines:   RuleLines(lines),
	}
	if label, words := entrycheck.NotCitedWords(destination, er.NotCitedNames(), len(s.Lines) > 0); words != "" {
		s.Lines = append(s.Lines, Line{Label: label, Text: words})
	}
	return s
}

// transit is the advisory lookup for the transit country, with its
// transit-without-visa programmes as the rules name them.
func transit(t entrycheck.Transit) Section {
	s := Section{
		Heading: fmt.Sprintf("%s %s (%s)", entrycheck.LabelTransitThrough, t.Country.Name, t.Country.ISO3),
		Status:  entrycheck.VerdictWords(t.RequirementLabel, t.Requirement, t.AllowedStayDays),
		Lead:    []string{t.Note},
	}
	for _, p := range t.Programs {
		rule := &entrycheck.PassportRule[[]entrycheck.TWOVProgram]{Applies: entrycheck.AppliesYes, Value: []entrycheck.TWOVProgram{p.TWOVProgram}}
		if t.ProgramsSource != nil {
			rule.Source = *t.ProgramsSource
		}
		for _, l := range Rules(entrycheck.EntryRules{TWOV: rule}) {
			l.Status = eligibility(p.EligibleForThisPassport)
			if t.ProgramsSource == nil {
				l.Source = nil
			}
			s.Lines = append(s.Lines, l)
		}
	}
	return s
}

func eligibility(eligible *bool) string {
	switch {
	case eligible == nil:
		return "read the conditions"
	case *eligible:
		return "this passport is eligible"
	}
	return "this passport is not eligible"
}

// verdictBasis says how the verdict was sourced and what the matrix gives.
func verdictBasis(r entrycheck.CheckResult) Section {
	v, src := r.VerdictVerification, r.Source
	before, after := entrycheck.SourceWords(src)
	return Section{
		Heading: entrycheck.LabelVerdictBasis,
		Lead:    []string{capital(entrycheck.VerdictStatusWords(v.Status)) + ".", v.Note},
		Lines:   []Line{{Label: entrycheck.LabelSource, Text: before + src.Name + after + ".", URL: src.URL}},
	}
}

func checkDefaults(ds []entrycheck.Default) Section {
	s := Section{Heading: entrycheck.LabelDefaultsApplied}
	for _, d := range ds {
		s.Lines = append(s.Lines, Line{Text: d.Reason})
	}
	return s
}

func assumptions(as []string) Section {
	s := Section{Heading: entrycheck.LabelAssumptions, Secondary: true}
	for _, a := range as {
		s.Lines = append(s.Lines, Line{Text: a})
	}
	return s
}

func footer(dataset, request string, at time.Time) string {
	return "Dataset " + dataset + ", request " + request + ", evaluated " + at.Format("2006-01-02 15:04:05 MST") + "."
}
