package generator

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// TestPagesShowEveryRuleField fails when a route page or its markdown
// leaves out a rule field of entrycheck.RuleFields.
func TestPagesShowEveryRuleField(t *testing.T) {
	v := templates.RouteView{Rules: rulesOf(datatest.FullEntryRules())}
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
