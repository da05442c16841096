package datatest

import (
	"regexp"
	"strings"

	"github.com/entrycheck/entrycheck"
)

// LabelledRequests are real checks whose answers, together, hold every
// kind of fact a text surface shows: a curated destination with a
// transit-without-visa rule, a transit country with its programmes (one
// this passport is eligible for), an exemption applied and the rules that
// grant it, an application portal, an official statement, and a
// destination without curated rules.
func LabelledRequests() []entrycheck.CheckRequest {
	return []entrycheck.CheckRequest{
		{Passport: "DEU", Destination: "THA", Transit: "SGP"},
		{Passport: "IND", Destination: "MEX", VisasOf: []string{"USA"}, Transit: "SGP"},
		{Passport: "GBR", Destination: "USA"},
		{Passport: "SYR", Destination: "USA"},
		{Passport: "DEU", Destination: "AFG"},
	}
}

// AnswerWords lists what every text surface (the CLI, the MCP text, a
// route page's markdown) shows of r, in the domain's words and never a
// surface's own: the labels, each of which a surface must follow with its
// fact, and the phrases of the verdict. An exemption applied and a transit
// country, which only a request with held documents or a transit asks
// for, are in it only when r has them.
func AnswerWords(r entrycheck.CheckResult) (labels, phrases []string) {
	lines := r.EntryRules.Lines()
	for _, l := range lines {
		labels = append(labels, l.Label)
	}
	for _, s := range r.VerdictVerification.OfficialStatements {
		labels = append(labels, s.Label())
	}
	if r.Apply != nil {
		labels = append(labels, entrycheck.ApplyKindLabelIn(entrycheck.English(), r.Apply.Kind))
	}
	if len(labels) > 0 {
		labels = append(labels, entrycheck.LabelSource.String())
	}
	label, notCited := entrycheck.NotCitedWords(r.Destination.Name, r.EntryRules.NotCitedNames(), len(lines) > 0)
	if label != "" {
		labels = append(labels, label)
	}
	if r.ExemptionApplied != nil {
		labels = append(labels, entrycheck.LabelExemption.String())
	}
	if t := r.Transit; t != nil {
		labels = append(labels, entrycheck.TransitThrough(entrycheck.English(), t.Country.Name+" ("+t.Country.ISO3+")"))
		item := ""
		for _, f := range entrycheck.RuleFields() {
			if f.Name == entrycheck.FieldTWOV {
				item = f.Item
			}
		}
		for _, p := range t.Programs {
			labels = append(labels, item+p.Program)
		}
	}
	phrases = []string{r.RequirementLabel, "as of " + r.VerdictVerification.AsOf.Long(), r.ActionSentence(),
		capital(entrycheck.VerdictStatusWordsIn(entrycheck.English(), r.VerdictVerification.Status)), capital(entrycheck.RulesStatusWords(r.EntryRulesVerification.Status)), r.Disclaimer}
	if s := entrycheck.StayWordsIn(entrycheck.English(), r.Requirement, r.AllowedStayDays); s != "" {
		phrases = append(phrases, s)
	}
	if notCited != "" {
		phrases = append(phrases, notCited)
	}
	return labels, phrases
}

// MissingWords returns the labels and phrases out lacks. A label counts
// only where its fact follows it: after ": " or ". ", with a markdown
// emphasis or link target, or a status in parentheses, in between; so a
// longer label of a surface's own ("Yellow fever certificate") does not
// pass for the shared one ("Yellow fever").
func MissingWords(out string, labels, phrases []string) []string {
	var missing []string
	for _, l := range labels {
		if !regexp.MustCompile(regexp.QuoteMeta(l) + `(\*\*|\]\([^)\s]*\)| \([^()]*\))?[:.] `).MatchString(out) {
			missing = append(missing, "label "+l)
		}
	}
	for _, p := range phrases {
		if !strings.Contains(out, p) {
			missing = append(missing, p)
		}
	}
	return missing
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
