package generator

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// TestPagesShowEveryRuleField fails when a route page or its markdown
// leaves out a rule field of entrycheck.RuleFields.
func TestPagesShowEveryRuleField(t *testing.T) {
	v := templates.RouteView{Rules: ruleViews(entrycheck.English(), datatest.FullEntryRules().Lines())}
	var html bytes.Buffer
	if err := templates.RoutePage(v).Render(context.Background(), &html); err != nil {
		t.Fatal(err)
	}
	md := string(templates.RouteMarkdown(v))
	for _, l := range datatest.FullEntryRules().Lines() {
		for _, want := range []string{l.Label, l.Text, l.Detail, l.URL} {
			if !strings.Contains(html.String(), want) || !strings.Contains(md, want) {
				t.Errorf("%s: the route page or its markdown lacks %q", l.Field, want)
			}
		}
	}
}

// TestDigestShowsEveryRuleField fails when llms-full.txt leaves out a
// curated rule field of entrycheck.RuleFields.
func TestDigestShowsEveryRuleField(t *testing.T) {
	var digest strings.Builder
	day := entrycheck.Date{Year: 2026, Month: 11, Day: 27}
	for _, l := range curatedLinesOf(datatest.FullRules(), day) {
		digest.WriteString(l.Inline() + "\n")
	}
	for _, l := range datatest.FullRules().For(entrycheck.Traveller{Passport: "USA", Requirement: entrycheck.VisaFree, On: day}).Lines() {
		for _, want := range []string{l.Label, l.Text, l.Detail} {
			if !strings.Contains(digest.String(), want) {
				t.Errorf("%s: the digest lacks %q", l.Field, want)
			}
		}
	}
}
