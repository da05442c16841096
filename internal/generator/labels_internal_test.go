package generator

import (
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// TestRouteMarkdownUsesTheSharedLabels: a route page's markdown names
// every fact of real answers as the CLI and the MCP text do
// (datatest.AnswerWords); it fails when the page gives a fact a label of
// its own. A route page answers the route alone: no transit, no held
// documents.
func TestRouteMarkdownUsesTheSharedLabels(t *testing.T) {
	ev := datatest.Evaluator(t)
	s := &site{ev: ev, opts: Options{BaseURL: "https://entrycheck.test"}, officialPages: map[string]map[string][]officialPage{locale.English: officialPagesOf(entrycheck.English(), ev.Snapshot().Curated.Destinations)}}
	for _, req := range datatest.LabelledRequests() {
		req.Transit, req.VisasOf = "", nil
		r, err := ev.Check(req, entrycheck.SystemClock{})
		if err != nil {
			t.Fatal(err)
		}
		md := string(templates.RouteMarkdown(s.routeView(entrycheck.English(), r, entrycheck.Date{})))
		labels, phrases := datatest.AnswerWords(r)
		for _, m := range datatest.MissingWords(md, labels, phrases) {
			t.Errorf("/%s/%s/index.md lacks %s:\n%s", r.Passport.ISO3, r.Destination.ISO3, m, md)
		}
	}
}
