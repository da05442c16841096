package entrycheck_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/answertext"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// TestEveryStatementStatusOnEverySurface: the statuses of PeriodStatuses
// are exactly those the evaluation gives a dated fact (Statement.StatusOn,
// which the evaluator calls on the travel day, and Period.StatusOn, for
// days around every kind of period), and every surface that shows an
// official statement's status shows each, in every language: its words in
// the catalog (period.status.<status>, not the raw code's fallback), the
// statement's standing, label and one-line words (the route pages, the
// trip decisions, the corroboration page and llms.txt use them) and the
// answer of a check in words (the CLI's text and the MCP tool's). A status
// added to the table that no day gives, that a catalog does not word or
// that a surface does not tell apart fails here.
func TestEveryStatementStatusOnEverySurface(t *testing.T) {
	statuses := statementsByStatus(t)
	for _, status := range entrycheck.PeriodStatuses {
		if _, ok := statuses[status]; !ok {
			t.Errorf("no travel day gives an official statement the status %q: the evaluation never sets it", status)
		}
	}
	ev := datatest.Evaluator(t)
	for _, c := range locale.Embedded().List() {
		r, err := ev.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: "THA", Language: c.Code, RequestID: "test"},
			entrycheck.FixedClock(time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)))
		if err != nil {
			t.Fatal(err)
		}
		// What each surface shows, by status: a surface must show the
		// status's words and tell every status apart.
		shown := map[string]map[string]string{}
		for _, status := range entrycheck.PeriodStatuses {
			s, ok := statuses[status]
			if !ok {
				continue
			}
			id := "period.status." + status
			if !c.Has(id) {
				t.Errorf("the %s catalog lacks %s: its surfaces would show the raw %q", c.Code, id, status)
				continue
			}
			words := entrycheck.PeriodStatusWordsIn(c, status)
			if words != c.Text(id) || words == "" {
				t.Errorf("%s: %s in words is %q, the catalog says %q", c.Code, status, words, c.Text(id))
			}
			r.VerdictVerification.OfficialStatements = []entrycheck.CheckedStatement{s}
			answer := answertext.Check(r)
			for surface, text := range map[string]string{
				"status words":         s.StatusWordsIn(c),
				"standing":             s.StandingIn(c),
				"label":                s.LabelIn(c),
				"one-line words":       s.StatementWordsIn(c),
				"answer text (CLI)":    answertext.Text(answer),
				"compact answer (MCP)": answertext.Compact(answer),
			} {
				if !strings.Contains(text, words) {
					t.Errorf("%s, %s: %s does not show %q: %s", c.Code, status, surface, words, text)
				}
				if shown[surface] == nil {
					shown[surface] = map[string]string{}
				}
				for other, was := range shown[surface] {
					if was == text {
						t.Errorf("%s: %s shows %s as %s: %s", c.Code, surface, status, other, text)
					}
				}
				shown[surface][status] = text
			}
		}
	}
}

// statementsByStatus checks official statements, dated and not, on the
// days around their periods as the evaluator does, and returns one checked
// statement of each status found; a status outside PeriodStatuses, from a
// statement or a rule item's period, fails the test.
func statementsByStatus(t *testing.T) map[string]entrycheck.CheckedStatement {
	t.Helper()
	from, until := day(2026, 3, 1), day(2026, 6, 30)
	src := entrycheck.Citation{Name: "Test ministry", URL: "https://example.gov/", RetrievedAt: day(2026, 2, 1)}
	dated := entrycheck.Statement{ID: "TST-dated", Requirement: entrycheck.VisaFree, EffectiveFrom: &from, EffectiveUntil: &until,
		Text: "Visa-free from 1 March to 30 June 2026.", Source: src}
	undated := dated
	undated.ID, undated.EffectiveFrom, undated.Text = "TST-undated", nil, "Visa-free until 30 June 2026."
	periods := []entrycheck.Period{{}, {EffectiveFrom: &from}, {EffectiveUntil: &until}, {EffectiveFrom: &from, EffectiveUntil: &until}}
	out := map[string]entrycheck.CheckedStatement{}
	for d := from.AddDays(-60); d.Before(until.AddDays(60)); d = d.AddDays(1) {
		for _, s := range []entrycheck.Statement{dated, undated} {
			status := s.StatusOn(d)
			if !slices.Contains(entrycheck.PeriodStatuses, status) {
				t.Fatalf("%s on %s: status %q is not in PeriodStatuses", s.ID, d, status)
			}
			if _, ok := out[status]; !ok {
				out[status] = entrycheck.CheckedStatement{Statement: s, Status: status, AgreesWithMatrix: true}
			}
		}
		for _, p := range periods {
			if status := p.StatusOn(d); !slices.Contains(entrycheck.PeriodStatuses, status) {
				t.Fatalf("period %+v on %s: status %q is not in PeriodStatuses", p, d, status)
			}
		}
	}
	return out
}
