package evaluation_test

import (
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// wordsOf are the texts of an answer the evaluation words (not the cited
// texts, which stay in the language of their source).
func wordsOf(r entrycheck.CheckResult) []string {
	out := []string{r.RequirementLabel, r.ActionText, r.Disclaimer, r.VerdictVerification.Note, r.VerdictVerification.Confirm, r.EntryRulesVerification.Note}
	out = append(out, r.Assumptions...)
	for _, d := range r.DefaultsApplied {
		out = append(out, d.Reason)
	}
	if r.Transit != nil {
		out = append(out, r.Transit.RequirementLabel, r.Transit.Note)
	}
	return out
}

// TestEveryLanguageWordsEveryAnswer checks, in every language the service
// speaks, routes that between them reach every note the evaluation
// writes (a citizen going home, a route no data covers, an official
// statement in force, a transit with and without programmes, held
// documents): each text is the language's own, none is the English one
// and none is a message id the catalog lacks, while every code stays.
func TestEveryLanguageWordsEveryAnswer(t *testing.T) {
	ev := datatest.Evaluator(t)
	requests := []entrycheck.CheckRequest{
		{Passport: "DEU", Destination: "THA", Transit: "SGP"},
		{Passport: "JPN", Destination: "JPN"},
		{Passport: "SYR", Destination: "USA", Purpose: "business"},
		{Passport: "IND", Destination: "MEX", VisasOf: []string{"USA"}, Transit: "USA"},
		{Passport: "NGA", Destination: "GBR"},
		{Passport: "DEU", Destination: "ATA"},
	}
	for _, req := range requests {
		en, err := ev.Check(req, today)
		if err != nil {
			t.Fatalf("%+v: %v", req, err)
		}
		for _, c := range locale.Embedded().List() {
			req := req
			req.Language = c.Code
			r, err := ev.Check(req, today)
			if err != nil {
				t.Fatalf("%+v: %v", req, err)
			}
			if r.Language != c.Code || r.Requirement != en.Requirement || r.Action != en.Action || r.VerdictVerification.Status != en.VerdictVerification.Status {
				t.Errorf("%s %s->%s: language %s, %s/%s, want %s/%s", c.Code, req.Passport, req.Destination, r.Language, r.Requirement, r.Action, en.Requirement, en.Action)
			}
			got, want := wordsOf(r), wordsOf(en)
			if len(got) != len(want) {
				t.Fatalf("%s %s->%s: %d texts, in English %d", c.Code, req.Passport, req.Destination, len(got), len(want))
			}
			for i, s := range got {
				if strings.Contains(s, "[") && strings.Contains(s, "]") && !strings.Contains(want[i], "[") {
					t.Errorf("%s %s->%s: a message is missing: %q", c.Code, req.Passport, req.Destination, s)
				}
				if c.Code != locale.English && s != "" && s == want[i] {
					t.Errorf("%s %s->%s: in English: %q", c.Code, req.Passport, req.Destination, s)
				}
			}
		}
	}
}

// TestFreeTextAssumptionsInEveryLanguage: the assumptions that echo the
// free-text fallbacks are worded in the language of the answer, with the
// traveller's text quoted as given and the field names unchanged.
func TestFreeTextAssumptionsInEveryLanguage(t *testing.T) {
	ev := datatest.Evaluator(t)
	req := entrycheck.CheckRequest{Passport: "IND", Destination: "MEX", ResidencePermitsText: "green card", VisasHeldText: "US tourist visa"}
	en, err := ev.Check(req, today)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range locale.Embedded().List() {
		req.Language = c.Code
		r, err := ev.Check(req, today)
		if err != nil {
			t.Fatal(err)
		}
		permits, visas := r.Assumptions[len(r.Assumptions)-2], r.Assumptions[len(r.Assumptions)-1]
		if permits != c.Text("assumption.free_text.residence_permits", "text", "green card") || visas != c.Text("assumption.free_text.visas_held", "text", "US tourist visa") {
			t.Errorf("%s: %q, %q", c.Code, permits, visas)
		}
		if !strings.Contains(permits, "residence_permits_of") || !strings.Contains(visas, "visas_of") {
			t.Errorf("%s: a field name is translated: %q, %q", c.Code, permits, visas)
		}
		if c.Code != locale.English && (permits == en.Assumptions[len(en.Assumptions)-2] || visas == en.Assumptions[len(en.Assumptions)-1]) {
			t.Errorf("%s: in English: %q", c.Code, permits)
		}
	}
}
