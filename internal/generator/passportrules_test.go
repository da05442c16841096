package generator_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestRoutePagesShowTheRuleForThePassport: a route page shows each rule as
// it holds for its passport, with the expectations taken from the answers.
func TestRoutePagesShowTheRuleForThePassport(t *testing.T) {
	root := built(t)
	ev := datatest.Evaluator(t)
	page := func(passport, dest string) (string, entrycheck.EntryRules) {
		b, err := os.ReadFile(filepath.Join(root, "passports", strings.ToLower(passport), strings.ToLower(dest), "index.md"))
		if err != nil {
			t.Fatal(err)
		}
		r, err := ev.Check(entrycheck.CheckRequest{Passport: passport, Destination: dest}, buildDay)
		if err != nil {
			t.Fatal(err)
		}
		return string(b), r.EntryRules
	}
	fra, fraRules := page("FRA", "DEU")
	usa, usaRules := page("USA", "DEU")
	eu, three := fraRules.PassportValidity.Value.Text, usaRules.PassportValidity.Value.Text
	if eu == three || !strings.Contains(fra, eu) || strings.Contains(fra, three) || !strings.Contains(usa, three) || strings.Contains(usa, eu) {
		t.Errorf("FRA and USA passports in Germany: want only the EU citizens' rule (%q) on the first, only the three-month rule (%q) on the second", eu, three)
	}
	jpn, jpnRules := page("DEU", "JPN")
	if bp := jpnRules.BlankPages; bp == nil || bp.Applies != entrycheck.AppliesDocumentedForOthers || !strings.Contains(jpn, bp.Note) {
		t.Errorf("DEU to JPN page lacks the documented-for note of %+v", bp)
	}
}
