package evaluation_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestDestination answers for destinations of each kind of record: curated
// with rules for some nationalities only, curated with yellow fever, not
// curated, and codes it does not know.
func TestDestination(t *testing.T) {
	ev := datatest.Evaluator(t)
	snap := ev.Snapshot()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name, code string
		check      func(t *testing.T, a entrycheck.DestinationAnswer)
	}{
		{"curated with yellow fever", "THA", func(t *testing.T, a entrycheck.DestinationAnswer) {
			if !a.Curated || a.EntryRules.Coverage != entrycheck.CoverageExtended || len(a.Apply) == 0 || a.CuratorNotes == "" {
				t.Errorf("curated %v, coverage %q, %d portals, notes %q: want a curated, extended record with portals and notes", a.Curated, a.EntryRules.Coverage, len(a.Apply), a.CuratorNotes)
			}
			if a.EntryRules.YellowFever == nil || !reflect.DeepEqual(a.EntryRules.YellowFever.Value, snap.Curated.YellowFever.Countries["THA"].Value) {
				t.Errorf("yellow fever %+v: want the table's rule", a.EntryRules.YellowFever)
			}
		}},
		{"rules for some nationalities keep whom they apply to", "CAN", func(t *testing.T, a entrycheck.DestinationAnswer) {
			programs := snap.Curated.Destinations["CAN"].Rules.TWOV.Value
			if len(a.EntryRules.TWOV) != len(programs) {
				t.Fatalf("%d programmes, want all %d of the curated record", len(a.EntryRules.TWOV), len(programs))
			}
			for i, p := range a.EntryRules.TWOV {
				if !reflect.DeepEqual(p.Value.AppliesTo, programs[i].AppliesTo) || p.Value.AppliesTo == nil || p.For == "" {
					t.Errorf("programme %q: applies_to %+v, for %q: want the curated applies_to, named", p.Value.Program, p.Value.AppliesTo, p.For)
				}
			}
			if !strings.Contains(a.EntryRules.TWOV[0].For, "Indonesia") {
				t.Errorf("first programme for %q, want the holders it names (Indonesia...)", a.EntryRules.TWOV[0].For)
			}
		}},
		{"every variant of a field, not the one a passport selects", "DEU", func(t *testing.T, a entrycheck.DestinationAnswer) {
			curated := snap.Curated.Destinations["DEU"].Rules.PassportValidity.Value
			if len(a.EntryRules.PassportValidity) != len(curated) || len(curated) < 2 {
				t.Fatalf("%d passport-validity variants, want all %d of the curated record (more than one)", len(a.EntryRules.PassportValidity), len(curated))
			}
			for i, v := range a.EntryRules.PassportValidity {
				if !reflect.DeepEqual(v.Value.AppliesTo, curated[i].AppliesTo) || (v.Value.AppliesTo != nil) != (v.For != "") {
					t.Errorf("variant %d: applies_to %+v, for %q: want the curated applies_to, named", i, v.Value.AppliesTo, v.For)
				}
			}
		}},
		{"own risk countries named", "NPL", func(t *testing.T, a entrycheck.DestinationAnswer) {
			y := a.EntryRules.YellowFever
			if y == nil || !slices.ContainsFunc(y.ExtraRiskCountries, func(c entrycheck.Country) bool { return c.ISO3 == "URY" && c.Name == "Uruguay" }) {
				t.Fatalf("yellow fever %+v: want Uruguay among its own risk countries", y)
			}
			if want := "Nepal treats Uruguay as risk countries (its own list)"; !strings.Contains(y.Covers(a.Destination.Name), want) {
				t.Errorf("covers %q, want it to say %q", y.Covers(a.Destination.Name), want)
			}
		}},
		{"not curated", "AFG", func(t *testing.T, a entrycheck.DestinationAnswer) {
			if a.Curated || a.EntryRules.Coverage != entrycheck.CoverageBasic || a.EntryRulesVerification.Status != entrycheck.RulesNotCurated || a.Apply != nil {
				t.Errorf("curated %v, coverage %q, status %q, portals %v: want a basic, uncurated answer", a.Curated, a.EntryRules.Coverage, a.EntryRulesVerification.Status, a.Apply)
			}
			if got := a.NotCitedNames(); len(got) < len(entrycheck.RuleFields())-1 {
				t.Errorf("not cited %v, want every field but yellow fever at most", got)
			}
		}},
		{"lower case code", "tha", func(t *testing.T, a entrycheck.DestinationAnswer) {
			if a.Destination.ISO3 != "THA" {
				t.Errorf("destination %+v, want THA", a.Destination)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := ev.Destination(tc.code, now)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.EqualFold(a.Destination.ISO3, tc.code) || a.DatasetVersion != snap.Version() || a.Disclaimer != entrycheck.Disclaimer(entrycheck.English()) || !a.EvaluatedAt.Equal(now) {
				t.Errorf("destination %+v, version %q, evaluated %v: want %s of snapshot %s at %v with the disclaimer", a.Destination, a.DatasetVersion, a.EvaluatedAt, tc.code, snap.Version(), now)
			}
			if v, _ := ev.RulesVerification(a.Destination.ISO3, now); !reflect.DeepEqual(v, a.EntryRulesVerification) {
				t.Errorf("verification %+v, want the destination's %+v", a.EntryRulesVerification, v)
			}
			tc.check(t, a)
		})
	}
}

// TestDestinationSpeaksToNoPassport: no line of any destination's answer
// speaks of "your passport" as selected for one, or of the yellow-fever
// rule "for you".
func TestDestinationSpeaksToNoPassport(t *testing.T) {
	ev := datatest.Evaluator(t)
	for _, c := range ev.Snapshot().Matrix.Countries() {
		a, err := ev.Destination(c.ISO3, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range a.RuleLines() {
			if strings.Contains(l.Text, "Does not apply to your passport") || strings.HasPrefix(l.Detail, "For you") {
				t.Errorf("%s: %s: %q %q", c.ISO3, l.Label, l.Text, l.Detail)
			}
		}
	}
}

// TestDestinationInvalid: a code that names no country is refused as a
// check refuses it.
func TestDestinationInvalid(t *testing.T) {
	ev := datatest.Evaluator(t)
	for _, code := range []string{"", "XXX", "T1A", "Atlantis"} {
		_, err := ev.Destination(code, time.Now())
		var e *entrycheck.Error
		if !errors.As(err, &e) || e.Code != entrycheck.EINVALID || len(e.Problems) != 1 {
			t.Fatalf("%q: error %v, want EINVALID with one problem", code, err)
		}
		_, checkErr := ev.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: code}, entrycheck.SystemClock{})
		var ce *entrycheck.Error
		if !errors.As(checkErr, &ce) || !reflect.DeepEqual(ce.Problems, e.Problems) || ce.Message != e.Message {
			t.Errorf("%q: problems %+v, want those of a check %+v", code, e.Problems, ce)
		}
	}
}
