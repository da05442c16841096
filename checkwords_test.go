package entrycheck_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestCheckAnswerCarriesItsRulesInWords: the JSON of every answer of two
// passports carries its entry rules in words, the lines the route page
// shows (EntryRules.Lines) and the sentence on the rules not cited
// (NotCitedWords), and still decodes into the same answer.
func TestCheckAnswerCarriesItsRulesInWords(t *testing.T) {
	ev := datatest.Evaluator(t)
	lines, notCited := 0, 0
	for _, p := range []string{"DEU", "IND"} {
		for _, d := range ev.Snapshot().Matrix.Countries() {
			r, err := ev.Check(entrycheck.CheckRequest{Passport: p, Destination: d.ISO3, RequestID: "test"}, entrycheck.FixedClock(time.Date(2026, 2, 17, 12, 0, 0, 0, time.UTC)))
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Lines    []entrycheck.RuleLine `json:"entry_rule_lines"`
				NotCited *struct {
					Label string `json:"label"`
					Text  string `json:"text"`
				} `json:"entry_rules_not_cited"`
			}
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			want := r.EntryRules.Lines()
			// A citizen going home is told nothing of other passports' rules.
			if p == d.ISO3 {
				want = entrycheck.LinesForThisPassport(want)
				if len(entrycheck.LinesForOtherPassports(r.EntryRules.Lines())) == 0 {
					t.Logf("%s to %s: no rule for other passports to leave out", p, d.ISO3)
				}
			}
			// Which part of a text is cited is for pages to mark; the JSON
			// gives the text whole.
			for i := range want {
				want[i].Cited = ""
			}
			if got.Lines == nil || len(got.Lines) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got.Lines, want)) {
				t.Errorf("%s to %s: entry_rule_lines %+v, want %+v", p, d.ISO3, got.Lines, want)
			}
			label, words := entrycheck.NotCitedWords(d.Name, r.EntryRules.NotCitedNames(), len(want) > 0)
			switch {
			case words == "" && got.NotCited != nil:
				t.Errorf("%s to %s: entry_rules_not_cited %+v, want null", p, d.ISO3, got.NotCited)
			case words != "" && (got.NotCited == nil || got.NotCited.Label != label || got.NotCited.Text != words):
				t.Errorf("%s to %s: entry_rules_not_cited %+v, want %q %q", p, d.ISO3, got.NotCited, label, words)
			}
			lines += len(got.Lines)
			if got.NotCited != nil {
				notCited++
			}
			var back entrycheck.CheckResult
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if again, _ := json.Marshal(back); string(again) != string(b) {
				t.Errorf("%s to %s: the answer does not decode into itself", p, d.ISO3)
			}
		}
	}
	if lines < 100 || notCited < 300 {
		t.Errorf("%d rule lines and %d sentences on rules not cited in 398 answers: too few to mean anything", lines, notCited)
	}
}
