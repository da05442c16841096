package entrycheck_test

import (
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
)

func day(y, m, d int) entrycheck.Date { return entrycheck.Date{Year: y, Month: time.Month(m), Day: d} }

// TestVariantOutsideItsPeriod: a variant for the passport applies only
// inside its period; outside it the next variant that holds applies, and
// the one out of period is shown under not_in_force, never as in force.
func TestVariantOutsideItsPeriod(t *testing.T) {
	until, from := day(2026, 10, 31), day(2027, 1, 1)
	six, three := 6, 3
	src := entrycheck.Citation{Name: "Test source", URL: "https://example.gov/", RetrievedAt: day(2026, 11, 1)}
	temporary := entrycheck.PassportValidity{Scope: entrycheck.Scope{Period: entrycheck.Period{EffectiveUntil: &until}}, MinMonthsRemaining: &three, Text: "three months, for now"}
	standing := entrycheck.PassportValidity{MinMonthsRemaining: &six, Text: "six months"}
	upcoming := entrycheck.PassportValidity{Scope: entrycheck.Scope{Period: entrycheck.Period{EffectiveFrom: &from}}, MinMonthsRemaining: &three, Text: "three months, from next year"}
	on := func(d entrycheck.Date) entrycheck.Traveller { return entrycheck.Traveller{Passport: "DEU", On: d} }
	both := &entrycheck.Rule[[]entrycheck.PassportValidity]{Source: src, Value: []entrycheck.PassportValidity{temporary, standing}}

	r := entrycheck.SelectVariant(both, on(day(2026, 9, 1)))
	if r.Applies != entrycheck.AppliesYes || r.Value.Text != temporary.Text || r.Value.Status != entrycheck.PeriodInForce || r.NotInForce != nil {
		t.Errorf("on 2026-09-01: %+v, want the temporary variant in force", r)
	}
	r = entrycheck.SelectVariant(both, on(day(2026, 11, 27)))
	if r.Applies != entrycheck.AppliesYes || r.Value.Text != standing.Text || r.NotInForce == nil || r.NotInForce.Text != temporary.Text || r.NotInForce.Status != entrycheck.PeriodEnded {
		t.Errorf("on 2026-11-27: %+v, want the standing variant, the temporary one ended", r)
	}
	// The last day of a period is in it.
	if r := entrycheck.SelectVariant(both, on(until)); r.Value.Text != temporary.Text {
		t.Errorf("on its last day the temporary variant is %+v", r)
	}

	alone := &entrycheck.Rule[[]entrycheck.PassportValidity]{Source: src, Value: []entrycheck.PassportValidity{upcoming}}
	r = entrycheck.SelectVariant(alone, on(day(2026, 11, 27)))
	if r.Applies != entrycheck.AppliesUpcoming || r.Value.Text != "" || r.NotInForce == nil || r.NotInForce.Status != entrycheck.PeriodUpcoming {
		t.Errorf("a variant from 2027 on 2026-11-27: %+v, want upcoming, not applied", r)
	}
	if r.Holding() != nil {
		t.Error("a rule not in force holds as a condition")
	}
	lines := entrycheck.EntryRules{PassportValidity: r}.Lines()
	if len(lines) != 1 || !strings.HasPrefix(lines[0].Text, "From 1 January 2027; not applied yet: ") {
		t.Errorf("lines %+v", lines)
	}
}

// TestItemsOutsideTheirPeriod: list items out of their period are kept
// apart, and a field whose only items for the passport are out of period
// is ended, not a gap and not in force.
func TestItemsOutsideTheirPeriod(t *testing.T) {
	until := day(2026, 10, 31)
	src := entrycheck.Citation{Name: "Test source", URL: "https://example.gov/", RetrievedAt: day(2026, 11, 1)}
	ended := entrycheck.ArrivalFormality{Scope: entrycheck.Scope{Period: entrycheck.Period{EffectiveUntil: &until}}, Name: "old card", Kind: "arrival_card", Text: "old card"}
	standing := entrycheck.ArrivalFormality{Name: "new card", Kind: "arrival_card", Text: "new card"}
	t1 := entrycheck.Traveller{Passport: "DEU", On: day(2026, 11, 27)}
	r := entrycheck.SelectItems(&entrycheck.Rule[[]entrycheck.ArrivalFormality]{Source: src, Value: []entrycheck.ArrivalFormality{ended, standing}}, t1)
	if r.Applies != entrycheck.AppliesYes || len(r.Value) != 1 || r.Value[0].Name != "new card" || r.NotInForce == nil || len(*r.NotInForce) != 1 || (*r.NotInForce)[0].Status != entrycheck.PeriodEnded {
		t.Errorf("%+v, want the new card in force and the old one ended", r)
	}
	r = entrycheck.SelectItems(&entrycheck.Rule[[]entrycheck.ArrivalFormality]{Source: src, Value: []entrycheck.ArrivalFormality{ended}}, t1)
	if r.Applies != entrycheck.AppliesEnded || len(r.Value) != 0 || r.Note != "" {
		t.Errorf("%+v, want ended without a note that the rule is for other passports", r)
	}
	lines := entrycheck.EntryRules{ArrivalFormalities: r}.Lines()
	if len(lines) != 1 || lines[0].Text != "Ended on 31 October 2026; not applied: old card" {
		t.Errorf("lines %+v", lines)
	}
	if held := t1.ItemHolds(ended.Scope); held == nil || *held {
		t.Errorf("an ended item holds: %v", held)
	}
}
