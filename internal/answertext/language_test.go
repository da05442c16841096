package answertext_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/answertext"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// TestCheckSpeaksEveryLanguage words a DEU->THA answer in every language:
// its headings and labels are the language's, and no English label is left
// where the language has its own (a message still awaiting its translation
// reads as the English, and is not counted against it).
func TestCheckSpeaksEveryLanguage(t *testing.T) {
	ev := datatest.Evaluator(t)
	en := locale.Embedded().English()
	labels := []entrycheck.Label{entrycheck.LabelAction, entrycheck.LabelSource, entrycheck.LabelVerdictBasis,
		entrycheck.LabelDefaultsApplied, entrycheck.LabelForOtherPassports, entrycheck.LabelNotCited}
	for _, c := range locale.Embedded().List() {
		r, err := ev.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", Language: c.Code, RequestID: "req_language"}, clock)
		if err != nil {
			t.Fatal(err)
		}
		text := answertext.Text(answertext.Check(r))
		thailand := c.Country(r.Destination.ISO2, r.Destination.Name)
		if h := entrycheck.EntryRulesOf(c, thailand); !strings.Contains(text, "\n"+h+":") {
			t.Errorf("%s: no heading %q:\n%s", c.Code, h, text)
		}
		for _, l := range labels {
			if !strings.Contains(text, l.In(c)+":") {
				t.Errorf("%s: no label %q", c.Code, l.In(c))
			}
			if l.In(c) != l.String() && strings.Contains(text, l.String()+":") {
				t.Errorf("%s: the English label %q is left", c.Code, l.String())
			}
		}
		for _, l := range r.RuleLines() {
			if f := l.Field; l.Label == entrycheck.RuleLabelIn(c, f) && entrycheck.RuleLabelIn(c, f) != entrycheck.RuleLabelIn(en, f) && strings.Contains(text, entrycheck.RuleLabelIn(en, f)+":") {
				t.Errorf("%s: the English label of %s is left", c.Code, f)
			}
		}
		if en := entrycheck.EntryRulesOf(en, "Thailand"); c.Text("label.entry_rules_of") != entrycheck.English().Text("label.entry_rules_of") && strings.Contains(text, en) {
			t.Errorf("%s: the English heading %q is left", c.Code, en)
		}
	}
}

// TestTripSpeaksEveryLanguage words a trip of several legs (a Schengen
// count passed, a document to obtain) in every language: its title, leg
// headings, labels and statuses are the language's, and none of the
// English ones is left where the language has its own.
func TestTripSpeaksEveryLanguage(t *testing.T) {
	ev := datatest.Evaluator(t)
	req := exampleTrip(t, "schengen-over-90")
	en := locale.Embedded().English()
	for _, c := range locale.Embedded().List() {
		req.Language = c.Code
		r, err := ev.EvaluateTrip(req, "req_language", clock)
		if err != nil {
			t.Fatal(err)
		}
		for frame, text := range map[string]string{"text": answertext.Text(answertext.Trip(r)), "compact": answertext.Compact(answertext.Trip(r))} {
			for _, id := range []string{"trip.text.leg", "trip.text.conditions", "trip.text.status." + string(r.Summary.Status)} {
				want := strings.SplitN(c.Text(id, "number", c.Number(1)), "{", 2)[0]
				if !strings.Contains(text, want) {
					t.Errorf("%s %s: no %s %q", c.Code, frame, id, want)
				}
				if english := strings.SplitN(en.Text(id, "number", "1"), "{", 2)[0]; c.Code != locale.English && english != want && strings.Contains(text, english+":") {
					t.Errorf("%s %s: the English %q is left", c.Code, frame, english)
				}
			}
			if title := c.Count("trip.text.title", r.Summary.Counts.Legs); !strings.HasPrefix(text, title) {
				t.Errorf("%s %s: does not open with %q", c.Code, frame, title)
			}
			if strings.Contains(text, "[trip.") || regexp.MustCompile(`\{[a-z_]+\}`).MatchString(text) {
				t.Errorf("%s %s: a message is missing or a placeholder left", c.Code, frame)
			}
		}
	}
}
