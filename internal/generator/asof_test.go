package generator_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestEveryVerdictSaysItsDate: every route page and its markdown show the
// date the verdict is as of; so do the pages and the digest that list
// verdicts, and the transparency page gives the matrix's age.
func TestEveryVerdictSaysItsDate(t *testing.T) {
	root := built(t)
	d, err := entrycheck.ParseDate(datatest.Current)
	if err != nil {
		t.Fatal(err)
	}
	asOf := "as of " + d.Long()
	if datatest.Current == "2026-02-17" && asOf != "as of 17 February 2026" {
		t.Fatalf("the date reads %q", asOf)
	}
	read := func(rel string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	countries := datatest.Evaluator(t).Snapshot().Matrix.Countries()
	routes := 0
	for _, p := range countries {
		pp := "passports/" + strings.ToLower(p.ISO3) + "/"
		if !strings.Contains(read(pp+"index.html"), asOf) || !strings.Contains(read(pp+"index.md"), asOf) {
			t.Errorf("/%s does not say the verdicts are %s", pp, asOf)
		}
		dp := "destinations/" + strings.ToLower(p.ISO3) + "/"
		if !strings.Contains(read(dp+"index.html"), asOf) || !strings.Contains(read(dp+"index.md"), asOf) {
			t.Errorf("/%s does not say the verdicts are %s", dp, asOf)
		}
		for _, dc := range countries {
			if dc == p {
				continue
			}
			rp := pp + strings.ToLower(dc.ISO3) + "/"
			html, md := read(rp+"index.html"), read(rp+"index.md")
			if !strings.Contains(html, "As of "+d.Long()) || !strings.Contains(md, "(as of "+d.Long()+")") {
				t.Fatalf("/%s does not show the date beside its verdict", rp)
			}
			routes++
		}
	}
	if routes != 39402 {
		t.Errorf("%d route pages read", routes)
	}
	full := read("llms-full.txt")
	if !strings.Contains(full, "Every verdict below is "+asOf) || strings.Count(full, "passport, "+asOf+" --") != len(countries) {
		t.Errorf("llms-full.txt does not date its verdicts (%d passport sections dated)", strings.Count(full, "passport, "+asOf+" --"))
	}
	ev := datatest.Evaluator(t)
	r, _ := ev.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: "GBR"}, buildDay)
	tr := read("transparency/index.html")
	if !strings.Contains(tr, "Every verdict is "+asOf) || !strings.Contains(tr, itoa(r.VerdictVerification.AgeDays)+" days old on the day of this build") {
		t.Errorf("the transparency page does not give the matrix's date and age (%d days)", r.VerdictVerification.AgeDays)
	}
}

// TestRoutePageShowsOfficialStatements: a route whose verdict an official
// statement in force contradicts says so, with the statement's period, text
// and source, in HTML and markdown; llms-full.txt lists the statement.
func TestRoutePageShowsOfficialStatements(t *testing.T) {
	root := built(t)
	ev := datatest.Evaluator(t)
	r, err := ev.Check(entrycheck.CheckRequest{Passport: "SYR", Destination: "USA"}, buildDay)
	if err != nil {
		t.Fatal(err)
	}
	if r.Requirement != entrycheck.NeedsReview || len(r.VerdictVerification.OfficialStatements) != 1 {
		t.Fatalf("SYR to USA on the build day: %s with %d statements", r.Requirement, len(r.VerdictVerification.OfficialStatements))
	}
	st := r.VerdictVerification.OfficialStatements[0]
	for _, name := range []string{"index.html", "index.md"} {
		b, err := os.ReadFile(filepath.Join(root, "passports", "syr", "usa", name))
		if err != nil {
			t.Fatal(err)
		}
		page := string(b)
		for _, want := range []string{"in force, from 1 January 2026; conflicts with the secondary visa table", st.Source.URL, "Proclamation 10998"} {
			if !strings.Contains(page, want) {
				t.Errorf("/passports/syr/usa/%s lacks %q", name, want)
			}
		}
	}
	full, err := os.ReadFile(filepath.Join(root, "llms-full.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(full), st.ID+" (in force, from 1 January 2026): no_admission for passports AFG") {
		t.Errorf("llms-full.txt does not list %s", st.ID)
	}
	// Its citation says what is known of the page, in the shared words.
	if d := st.Source.Detail(); d == "" || !strings.Contains(string(full), st.Source.URL+", "+st.Source.ReadText()+"]") {
		t.Errorf("llms-full.txt does not say %q of %s", d, st.Source.URL)
	}
}
