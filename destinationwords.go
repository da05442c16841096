package entrycheck

import (
	"strings"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// The words of a destination's answer: its rules as every traveller reads
// them, on the destination pages and their markdown.

// RuleLines lists what the destination's rules say to every traveller: a
// line for each variant and item, in the order of RuleFields but for yellow
// fever, which comes last since whether it holds depends on the route.
func (a DestinationAnswer) RuleLines() []RuleLine { return a.RuleLinesIn(English()) }

// RuleLinesIn is RuleLines in the language of c, for an answer asked in
// it (whom a variant holds for is named in its words): the labels, details
// and notes in the language, the sources' words as they are, marked as
// cited. The destination is named as the answer names it.
func (a DestinationAnswer) RuleLinesIn(c *locale.Catalog) []RuleLine {
	r := a.EntryRules
	var out []RuleLine
	for _, f := range curatedRuleFields() {
		out = append(out, f.curated.destinationLines(c, r)...)
	}
	if y := r.YellowFever; y != nil {
		out = append(out, RuleLine{Field: FieldYellowFever, Label: RuleLabelIn(c, FieldYellowFever), Text: y.Value.Text, Cited: y.Value.Text, Detail: y.CoversIn(c, a.Destination.Name), Source: y.Source})
	}
	for i := range out {
		out[i].Text = TravellerText(out[i].Text)
		if out[i].Cited = TravellerText(out[i].Cited); !strings.HasSuffix(out[i].Text, out[i].Cited) {
			out[i].Cited = ""
		}
	}
	return out
}

// NotCitedNames names, in the order of RuleFields and as
// EntryRules.NotCitedNames does, the fields of the destination for which no
// official source gives a rule.
func (a DestinationAnswer) NotCitedNames() []string { return a.NotCitedNamesIn(English()) }

// NotCitedNamesIn is NotCitedNames in the language of c.
func (a DestinationAnswer) NotCitedNamesIn(c *locale.Catalog) []string {
	cited := map[string]bool{}
	for _, l := range a.RuleLinesIn(c) {
		cited[l.Field] = true
	}
	var out []string
	for _, f := range ruleFields() {
		if !cited[f.Name] {
			out = append(out, InSentenceIn(c, f.LabelIn(c)))
		}
	}
	return out
}

// variantLines are the lines of each variant of a field, in the language
// of c, read as the field of a check whose passport it holds for: with the
// documented-for note of its source, and after whom it holds for when that
// is not everyone.
func variantLines[T any](c *locale.Catalog, vs []Variant[T], rules func(*PassportRule[T]) EntryRules) []RuleLine {
	var out []RuleLine
	for _, v := range vs {
		p := &PassportRule[T]{Applies: AppliesYes, Value: v.Value, Source: v.Source}
		if v.DocumentedFor != "" {
			p.Applies, p.Note = AppliesDocumentedForOthers, documentedNoteIn(c, v.DocumentedFor)
		}
		lines := rules(p).LinesIn(c)
		for i := range lines {
			if v.For != "" {
				lines[i].Text = c.Text("rule.for_whom", "whom", v.For, "text", lines[i].Text)
			}
		}
		out = append(out, lines...)
	}
	return out
}

// itemOf is a list field holding the one item p.
func itemOf[T any](p *PassportRule[T]) *PassportRule[[]T] {
	return &PassportRule[[]T]{Applies: p.Applies, Value: []T{p.Value}, Source: p.Source, Note: p.Note}
}

// Covers says whom a destination's certificate rule covers, naming the
// countries it treats as risk countries beyond the WHO list.
func (y DestinationYellowFever) Covers(destination string) string {
	return y.CoversIn(English(), destination)
}

// CoversIn is Covers in the language of c; destination is the country's
// name in that language.
func (y DestinationYellowFever) CoversIn(c *locale.Catalog, destination string) string {
	if y.Value.CertificateRequired == nil {
		return c.Text("rule.yellow_fever.covers.unknown")
	}
	d := wordsOr(c, "rule.yellow_fever.covers."+*y.Value.CertificateRequired, "")
	if y.Value.MinAgeMonths != nil {
		d = c.Count("rule.yellow_fever.min_age", *y.Value.MinAgeMonths, "text", d)
	}
	if len(y.ExtraRiskCountries) > 0 {
		names := make([]string, len(y.ExtraRiskCountries))
		for i, x := range y.ExtraRiskCountries {
			names[i] = c.Country(x.ISO2, x.Name)
		}
		d = c.Text("rule.yellow_fever.extra_risk", "text", d, "country", destination, "countries", listIn(c, "list.comma", names))
	}
	return c.Text("words.sentence", "text", d)
}
