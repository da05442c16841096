package generator

import (
	"html"
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// routeParts splits a route page rendered by routeContent into its entry
// rules for the passport, the closed section for other passports, and the
// markdown, each unescaped.
func routeParts(t *testing.T, page string) (rules, others, md string) {
	t.Helper()
	i := strings.Index(page, `<section aria-labelledby="rules">`)
	j := strings.Index(page, `<section aria-labelledby="basis">`)
	k := strings.Index(page, "</html>")
	if i < 0 || j < i || k < j {
		t.Fatalf("no entry rules section in %s", page)
	}
	rules, md = page[i:j], page[k:]
	if d := strings.Index(rules, `<details class="others">`); d >= 0 {
		rules, others = rules[:d], rules[d:]
	}
	return html.UnescapeString(rules), html.UnescapeString(others), md
}

// TestRoutePageListsThisPassportsRules: a route page's entry rules are
// those its sources give for the passport; what official pages say for
// other passports sits apart in a closed section with whom it is for, and
// a citizen going home is told none of it. On the real dataset: the UK's
// transit rule documented for Russian passports, on a German passport's
// page.
func TestRoutePageListsThisPassportsRules(t *testing.T) {
	ev := datatest.Evaluator(t)
	res, err := ev.Check(entrycheck.CheckRequest{Passport: "DEU", Destination: "GBR"}, entrycheck.FixedClock(contentDay))
	if err != nil {
		t.Fatal(err)
	}
	others := entrycheck.LinesForOtherPassports(res.EntryRules.Lines())
	if len(others) == 0 || !strings.Contains(others[0].Text, "Russia") {
		t.Fatalf("DEU to GBR: the test needs the rule documented for Russian passports, have %+v", others)
	}
	rules, closed, md := routeParts(t, routeContent(t, ev, "DEU", "GBR", contentDay))
	if strings.Contains(rules, "Russia") {
		t.Errorf("/passports/deu/gbr/ lists a rule documented for Russia among its entry rules:\n%s", rules)
	}
	if !strings.Contains(closed, "<summary>"+entrycheck.LabelForOtherPassports.String()+"</summary>") {
		t.Errorf("/passports/deu/gbr/ has no closed section %q:\n%s", entrycheck.LabelForOtherPassports.String(), closed)
	}
	for _, l := range others {
		if !strings.Contains(closed, l.Label) || !strings.Contains(closed, l.Text) {
			t.Errorf("/passports/deu/gbr/: %q is not under %q", l.Label, entrycheck.LabelForOtherPassports.String())
		}
		if l.Field == entrycheck.FieldTWOV && !strings.Contains(closed, "Russia") {
			t.Errorf("/passports/deu/gbr/: the transit rule does not say whom it is for")
		}
	}
	mdRules, _, apart := strings.Cut(md, "### "+entrycheck.LabelForOtherPassports.String())
	if !apart || strings.Contains(mdRules[strings.Index(mdRules, "## "+entrycheck.EntryRulesOf(entrycheck.English(), "")):], "Russia") {
		t.Errorf("the markdown of /passports/deu/gbr/ does not keep the rule for Russia apart:\n%s", md)
	}
	for _, l := range entrycheck.LinesForThisPassport(res.EntryRules.Lines()) {
		if !strings.Contains(rules, l.Text) {
			t.Errorf("/passports/deu/gbr/ leaves out %q from its entry rules", l.Label)
		}
	}

	// Japan's rules name other passports; a Japanese citizen going home is
	// told none of them.
	own, err := ev.Check(entrycheck.CheckRequest{Passport: "JPN", Destination: "JPN"}, entrycheck.FixedClock(contentDay))
	if err != nil {
		t.Fatal(err)
	}
	if len(entrycheck.LinesForOtherPassports(own.EntryRules.Lines())) == 0 {
		t.Fatal("JPN to JPN: the test needs Japan's rules to name other passports")
	}
	page := routeContent(t, ev, "JPN", "JPN", contentDay)
	if rules, closed, md := routeParts(t, page); closed != "" || strings.Contains(md, entrycheck.LabelForOtherPassports.String()) ||
		strings.Contains(rules, "Documented for") || strings.Contains(rules, "Does not apply to your passport") {
		t.Errorf("JPN to JPN lists rules for other passports:\n%s\n%s", rules, closed)
	}
	for _, l := range own.RuleLines() {
		if !l.ForThisPassport {
			t.Errorf("JPN to JPN answers with a rule for other passports: %+v", l)
		}
	}
}

// TestVisaRoutePageNamesItsNextStep: a route that requires a visa offers
// only official pages serving a visa, never a portal of another
// requirement, and names the next step: the curated page to apply on, or
// an embassy or consulate of the destination. On the real dataset:
// Nigeria to the United States, whose only curated portal is ESTA.
func TestVisaRoutePageNamesItsNextStep(t *testing.T) {
	ev := datatest.Evaluator(t)
	d, err := ev.Destination("USA", contentDay)
	if err != nil {
		t.Fatal(err)
	}
	var other []string
	for _, a := range d.Apply {
		if !slices.Contains(a.Requirements, entrycheck.VisaRequired) {
			other = append(other, a.URL)
		}
	}
	if len(other) == 0 {
		t.Fatal("USA: the test needs a curated page for another requirement than a visa (ESTA)")
	}
	res, err := ev.Check(entrycheck.CheckRequest{Passport: "NGA", Destination: "USA"}, entrycheck.FixedClock(contentDay))
	if err != nil {
		t.Fatal(err)
	}
	if res.Requirement != entrycheck.VisaRequired {
		t.Fatalf("NGA to USA: %s; the test needs a visa", res.Requirement)
	}
	page := html.UnescapeString(routeContent(t, ev, "NGA", "USA", contentDay))
	for _, u := range other {
		if strings.Contains(page, strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://")) {
			t.Errorf("/passports/nga/usa/ offers %s, which serves another requirement", u)
		}
	}
	next := entrycheck.ApplyAtEmbassyWordsIn(entrycheck.English(), "United States")
	if res.Apply != nil {
		next = res.Apply.URL
	}
	if strings.Count(page, next) < 2 {
		t.Errorf("/passports/nga/usa/ and its markdown do not name the next step %q", next)
	}
}
