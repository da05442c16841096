package generator_test

import (
	"html"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestYellowFeverOnPages: a route decided by a destination's own risk list
// shows why and the destination's own source, in HTML and markdown, and
// llms-full.txt lists that list with the source.
func TestYellowFeverOnPages(t *testing.T) {
	root := built(t)
	ev := datatest.Evaluator(t)
	snap := ev.Snapshot()
	var dest, extra string
	codes := make([]string, 0, len(snap.Curated.YellowFever.Countries))
	for code := range snap.Curated.YellowFever.Countries {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		if x := snap.Curated.YellowFever.Countries[code].Value.ExtraRiskCountries; len(x) > 0 && dest == "" {
			dest, extra = code, x[0]
		}
	}
	if dest == "" {
		t.Fatal("no destination of the yellow-fever table has its own risk list")
	}
	r, err := ev.Check(entrycheck.CheckRequest{Passport: extra, Destination: dest}, buildDay)
	if err != nil {
		t.Fatal(err)
	}
	yf := r.EntryRules.YellowFever
	if yf == nil || !strings.Contains(yf.AppliesBecause, "its own list") {
		t.Fatalf("%s to %s: %+v", extra, dest, yf)
	}
	dir := filepath.Join(root, "passports", strings.ToLower(extra), strings.ToLower(dest))
	for name, why := range map[string]string{"index.html": html.EscapeString(yf.AppliesBecause), "index.md": yf.AppliesBecause} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{why, yf.Source.URL} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s/%s lacks %q", dir, name, want)
			}
		}
	}
	full, err := os.ReadFile(filepath.Join(root, "llms-full.txt"))
	if err != nil {
		t.Fatal(err)
	}
	xc, _ := snap.Countries.ByISO3(extra)
	for _, want := range []string{"== Yellow fever (cited) ==", " treats " + xc.Name, yf.Source.URL, snap.Curated.YellowFever.RiskList.Source.URL} {
		if !strings.Contains(string(full), want) {
			t.Errorf("llms-full.txt lacks %q", want)
		}
	}
}
