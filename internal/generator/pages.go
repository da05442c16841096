package generator

import (
	"bytes"
	"crypto/sha512"
	"encoding/base64"
	"fmt"

	"net/url"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// renderDestinations renders a page for every country of the matrix.
func (s *site) renderDestinations() error {
	r := newRenderer()
	snap := s.ev.Snapshot()
	for _, dc := range snap.Matrix.Countries() {
		a, err := s.ev.Destination(dc.ISO3, s.now)
		if err != nil {
			return err
		}
		v := templates.DestinationView{
			Page: s.pageOf(destinationPath(dc), "Entry requirements for "+dc.Name+": passport, health and transit rules | entrycheck",
				"Cited entry rules of "+dc.Name+": passport validity, blank pages, onward ticket, yellow fever, transit and official application portals.",
				templates.Link{Label: "Destinations", URL: "/destinations/"}),
			Country: templates.Link{Label: dc.Name, URL: destinationPath(dc)}, ISO3: dc.ISO3,
			Covered:      a.Curated,
			Coverage:     a.EntryRules.Coverage.Words(),
			RulesState:   templates.Verification{Status: entrycheck.RulesStatusWords(a.EntryRulesVerification.Status), Note: a.EntryRulesVerification.Note},
			LastVerified: a.EntryRulesVerification.ReadWords(),
			Rules:        ruleViews(entrycheck.English(), a.RuleLines()),
			NotCited:     a.NotCitedNames(),
			Authorities:  links(s.officialPages[dc.ISO3]),
			AsOf:         s.asOf(),
			Disclaimer:   a.Disclaimer,
		}
		for _, p := range a.Apply {
			reqs := make([]string, len(p.Requirements))
			for i, r := range p.Requirements {
				reqs[i] = r.Label()
			}
			v.Apply = append(v.Apply, templates.Apply{URL: p.URL, Kind: entrycheck.ApplyKindLabel(p.Kind), Note: quoted(entrycheck.English(), p.Note+" ("+strings.Join(reqs, ", ")+")"), Source: citation(entrycheck.English(), p.Source)})
		}
		for _, req := range entrycheck.Requirements {
			if n := s.summary.byDest[dc.ISO3][req]; n > 0 {
				v.Counts = append(v.Counts, templates.Count{Label: req.Label(), N: n})
			}
		}
		v.Map = s.worldMap.view("World map of the requirement of each passport for "+dc.Name,
			"Each passport's page gives its requirement for "+dc.Name+" as text.",
			mapPlace{country: dc, url: destinationPath(dc)}, "This destination", s.summary.toDest[dc.ISO3], false)
		if err := s.page(r, v.Path, templates.DestinationPage(v), templates.DestinationMarkdown(v)); err != nil {
			return err
		}
	}
	return nil
}

// renderIndexes renders the passport and destination indexes.
func (s *site) renderIndexes() error {
	r := newRenderer()
	countries := s.ev.Snapshot().Matrix.Countries()
	sorted := append([]entrycheck.Country(nil), countries...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	cited := map[string]bool{}
	for _, code := range s.ev.Snapshot().Curated.CitedCodes() {
		cited[code] = true
	}
	for _, idx := range []struct {
		path, heading, intro string
		link                 func(entrycheck.Country) string
		marked               map[string]bool
	}{
		{"/passports/", "Passports", "Choose your passport to see the requirement for every destination.", passportPath, nil},
		{"/destinations/", "Destinations", "Choose a destination to see its cited entry rules.", destinationPath, cited},
	} {
		v := templates.IndexView{Page: s.pageOf(idx.path, idx.heading+" | entrycheck", idx.intro), Heading: idx.heading, Intro: idx.intro,
			Filter: "Filter by name", NoMatch: "No country of the list has that name: try its English name or its code."}
		v.Page.Script = s.assets.js
		for _, c := range sorted {
			v.Items = append(v.Items, templates.IndexEntry{Link: templates.Link{Label: c.Name, URL: idx.link(c)}, Marked: idx.marked[c.ISO3]})
		}
		if n := len(idx.marked); n > 0 {
			v.Mark = "cited entry rules"
			v.Marked = entrycheck.Thousands(n) + " of the " + entrycheck.Thousands(len(sorted)) + " destinations have entry rules cited from official sources, marked “" + v.Mark + "”; every destination's page gives the requirement for each passport."
			v.OnlyMarked = "Only destinations with " + v.Mark
		}
		if err := s.page(r, idx.path, templates.IndexPage(v), templates.IndexMarkdown(v)); err != nil {
			return err
		}
	}
	return nil
}

func (s *site) renderHome() error {
	snap := s.ev.Snapshot()
	v := templates.HomeView{
		Page:           s.pageOf("/", templates.SiteName+": "+lowerFirst(siteTagline), "May a holder of passport P enter country D? The requirement, the allowed stay and the destination's entry rules, each with its official source."),
		DatasetVersion: snap.Version(), Routes: snap.Matrix.Routes(), Curated: len(snap.Curated.CitedCodes()), Disclaimer: entrycheck.Disclaimer(entrycheck.English()),
	}
	v.Page.Script = s.assets.js
	v.Page.JSONLD = jsonLD(map[string]any{"@context": "https://schema.org", "@type": "WebSite", "name": templates.SiteName, "url": s.opts.BaseURL + "/"})
	v.Countries = s.countries
	if err := s.page(newRenderer(), "/", templates.HomePage(v), templates.HomeMarkdown(v)); err != nil {
		return err
	}
	return s.renderNotFound()
}

// renderNotFound writes /404.html and /404.md, the page static hosts send
// for a path that names no page: the search form that reaches any route
// without JavaScript. entrycheck serve renders the same page with
// suggestions for the path asked.
func (s *site) renderNotFound() error {
	v := templates.FindView{
		Page:    s.pageOf("/404.html", "Page not found | entrycheck", "Find the entry requirements of a passport and destination."),
		Heading: "Page not found", Message: "There is no page at this address.",
	}
	v.Page.Markdown = ""
	v.Countries = s.countries
	html, err := newRenderer().html(templates.FindPage(v))
	if err != nil {
		return err
	}
	if err := s.w.write("404.html", html); err != nil {
		return err
	}
	return s.w.write("404.md", templates.FindMarkdown(v))
}

// renderTransparency reports coverage, citations, freshness and the daily
// verification of cited sources.
func (s *site) renderTransparency() error {
	snap := s.ev.Snapshot()
	v := templates.TransparencyView{
		Page:           s.pageOf("/transparency/", "Transparency: coverage, citations and freshness | entrycheck", "What entrycheck's answers rest on: coverage of the curated layer, citations by source, the age of each verification and the daily re-reading of sources."),
		DatasetVersion: snap.Version(),
		Matrix:         s.matrixAge(),
		StaleAfter:     entrycheck.StaleAfterDays,
		Checks:         s.sourceChecks(),
	}
	curated, extended := len(snap.Curated.Destinations), 0
	for _, d := range snap.Curated.Destinations {
		if d.Rules.Cited() {
			extended++
		}
	}
	v.Coverage = []templates.Count{
		{Label: "Destinations with cited entry rules (extended)", N: extended},
		{Label: "Destinations curated without a cited rule (basic)", N: curated - extended},
		{Label: "Destinations not curated yet (basic)", N: len(snap.Matrix.Countries()) - curated},
		{Label: "Countries in the yellow-fever table", N: len(snap.Curated.YellowFever.Countries)},
	}
	for _, req := range entrycheck.Requirements {
		v.Requirements = append(v.Requirements, templates.Count{Label: req.Label(), N: s.summary.byRequirment[req]})
	}
	// Every cited record of the curated layer, as the daily verification
	// reads them.
	hosts := map[string]int{}
	for _, r := range snap.Curated.Records() {
		v.Citations++
		if u, err := url.Parse(r.Source.URL); err == nil {
			hosts[strings.TrimPrefix(u.Hostname(), "www.")]++
		}
	}
	ages, states := map[string]int{}, map[string]int{}
	for _, code := range snap.Curated.SortedCodes() {
		rv, ok := s.ev.RulesVerification(code, s.now)
		if !ok {
			return fmt.Errorf("transparency: curated destination %s is not a known country", code)
		}
		ages[ageBucket(rv)]++
		states[rv.Status]++
	}
	for _, label := range ageBuckets {
		v.Freshness = append(v.Freshness, templates.Count{Label: label, N: ages[label]})
	}
	for _, st := range []string{entrycheck.RulesVerifiedOfficialSources, entrycheck.RulesStale, entrycheck.RulesNeedsReview, entrycheck.RulesNotCurated} {
		v.RulesStates = append(v.RulesStates, templates.Count{Label: entrycheck.RulesStatusWords(st), N: states[st]})
	}
	for h, n := range hosts {
		v.Sources = append(v.Sources, templates.Count{Label: h, N: n})
	}
	sort.Slice(v.Sources, func(i, j int) bool {
		if v.Sources[i].N != v.Sources[j].N {
			return v.Sources[i].N > v.Sources[j].N
		}
		return v.Sources[i].Label < v.Sources[j].Label
	})
	v.Publishers, v.Readings, v.Dated = s.sourceKinds(snap.Curated.Records())
	sort.Slice(s.summary.review, func(i, j int) bool { return s.summary.review[i].path < s.summary.review[j].path })
	for _, rr := range s.summary.review {
		v.NeedsReview = append(v.NeedsReview, templates.Link{Label: rr.label, URL: rr.path})
	}
	v.Official = s.corroboration()
	return s.page(newRenderer(), v.Path, templates.TransparencyPage(v), templates.TransparencyMarkdown(v))
}

// corroboration compares the official statements with the matrix on the
// build day, as every route page of this build does.
func (s *site) corroboration() templates.Corroboration {
	rep := s.ev.Corroboration(entrycheck.DateOf(s.now))
	out := templates.Corroboration{Day: rep.Day.Long(), Corroborated: rep.Corroborated, Conflicting: rep.Conflicting}
	countries := s.ev.Snapshot().Countries
	for _, t := range rep.Statements {
		dc, _ := countries.ByISO3(t.Destination) // the loader accepts only known codes
		out.Statements = append(out.Statements, templates.StatementRow{
			Statement:   templates.Link{Label: t.ID, URL: t.Source.URL},
			Destination: templates.Link{Label: dc.Name, URL: destinationPath(dc)},
			Requirement: t.Requirement.Label(),
			Status:      entrycheck.PeriodStatusWords(t.Status),
			Routes:      t.Routes, Agreeing: t.Agreeing, Conflicting: t.Conflicting,
		})
	}
	for _, c := range rep.Conflicts {
		out.Conflicts = append(out.Conflicts, templates.Link{Label: c.Words(), URL: routePath(c.Passport, c.Destination)})
	}
	return out
}

// ageBuckets are the freshness buckets of the transparency page, in order.
var ageBuckets = []string{
	"0 to 7 days",
	"8 to " + itoa(entrycheck.StaleAfterDays) + " days",
	"older than " + itoa(entrycheck.StaleAfterDays) + " days (stale)",
	"no cited source",
}

// ageBucket places a destination's entry rules by the days since they were
// last verified, as its answers report them.
func ageBucket(rv entrycheck.EntryRulesVerification) string {
	switch {
	case rv.LastVerified == nil || !rv.StalenessDays.Valid:
		return ageBuckets[3]
	case rv.StalenessDays.N <= 7:
		return ageBuckets[0]
	case rv.StalenessDays.N <= entrycheck.StaleAfterDays:
		return ageBuckets[1]
	}
	return ageBuckets[2]
}

// maxCheckDays is how many days of readings the transparency page lists.
const maxCheckDays = 14

// sourceChecks is the view of the daily verification of cited sources:
// the report, its newest days only, and the destinations it names linked.
func (s *site) sourceChecks() templates.SourceChecks {
	rep := s.opts.Verification
	rep.Days = rep.Days[:min(len(rep.Days), maxCheckDays)]
	places := map[string]templates.Link{"": {Label: "all destinations"}}
	for _, dc := range s.ev.Snapshot().Matrix.Countries() {
		places[dc.ISO3] = templates.Link{Label: dc.Name, URL: destinationPath(dc)}
	}
	return templates.SourceChecks{VerificationReport: rep, Places: places}
}

// renderDocuments renders the agent authentication guide (served as /auth.md
// and as HTML at /auth/) and the widget page.
func (s *site) renderDocuments() error {
	auth, ok := extraFile(s.opts.Extra, discovery.PathAuthGuide)
	if !ok {
		return fmt.Errorf("the extra files lack %s (discovery.Documents), which the page /auth/ shows", discovery.PathAuthGuide)
	}
	var html bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert(auth, &html); err != nil {
		return fmt.Errorf("rendering auth.md: %w", err)
	}
	r := newRenderer()
	doc := templates.DocumentView{Page: s.pageOf("/auth/", "Agent authentication guide | entrycheck", "How agents use the entrycheck API: anonymous, registered with OAuth client credentials, or paid per request with x402."), HTML: html.String()}
	doc.Page.Markdown = "/auth.md"
	out, err := r.html(templates.DocumentPage(doc))
	if err != nil {
		return err
	}
	if err := s.w.write("auth/index.html", out); err != nil {
		return err
	}
	base := s.opts.BaseURL
	snippet := `<div data-entrycheck data-theme="light"><a href="` + base + `/">Entry requirements by entrycheck</a></div>` + "\n" +
		`<script src="` + base + `/embed.js" async></script>`
	w := templates.WidgetView{
		Page:      s.pageOf("/widget/", "Embed the entrycheck checker | entrycheck", "Embed the free entry-requirements checker on any site, with its attribution link."),
		Snippet:   snippet,
		CSP:       "script-src " + origin(base) + "; connect-src " + origin(base),
		Languages: locale.Languages(),
	}
	if path, integrity, ok := pinnedWidget(s.opts.Extra); ok {
		w.PinnedScript = `<script src="` + base + path + `" integrity="` + integrity + `" crossorigin="anonymous" async></script>`
	}
	return s.page(r, "/widget/", templates.WidgetPage(w), templates.WidgetMarkdown(w))
}

// extraFile is the body of the extra file published at path.
func extraFile(files []File, path string) ([]byte, bool) {
	for _, f := range files {
		if f.Path == path {
			return f.Body, true
		}
	}
	return nil, false
}

// pinnedWidget finds the content-addressed copy of the widget's loader
// among the extra files (/embed.<hash>.js, never changed once published;
// not a language's bundle, /embed.<lang>.<hash>.js, which the loader adds
// itself) and its Subresource Integrity digest.
func pinnedWidget(files []File) (path, integrity string, ok bool) {
	for _, f := range files {
		if name, found := strings.CutPrefix(f.Path, "/embed."); found && strings.HasSuffix(name, ".js") && strings.Count(name, ".") == 1 {
			sum := sha512.Sum384(f.Body)
			return f.Path, "sha384-" + base64.StdEncoding.EncodeToString(sum[:]), true
		}
	}
	return "", "", false
}

// origin is the scheme, host and port of a base URL, as CSP source lists name it.
func origin(base string) string {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return base
	}
	return u.Scheme + "://" + u.Host
}

// matrixAge is the date and age of the matrix on the build day, as every
// answer's verdict_verification gives them.
func (s *site) matrixAge() templates.MatrixAge {
	v, src := s.ev.VerdictAge(s.now), s.ev.Source()
	return templates.MatrixAge{AsOf: v.AsOf.Long(), AgeDays: v.AgeDays, OldAfterDays: v.OldAfterDays, Old: v.Old, SourceName: src.Name, SourceURL: src.URL}
}
