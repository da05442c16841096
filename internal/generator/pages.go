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
	"golang.org/x/text/collate"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/sitetree"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// renderDestinations renders a page for every country of the matrix, in
// every language of the build.
func (s *site) renderDestinations() error {
	r := newRenderer()
	for _, dc := range s.ev.Snapshot().Matrix.Countries() {
		for _, c := range s.langs {
			if err := s.renderDestination(r, c, dc); err != nil {
				return err
			}
		}
	}
	return nil
}

// renderDestination renders the page of destination dc in the language of
// c: its rules as an answer asked in that language words them.
func (s *site) renderDestination(r *renderer, c *locale.Catalog, dc entrycheck.Country) error {
	a, err := s.ev.DestinationIn(dc.ISO3, s.now, c.Code)
	if err != nil {
		return err
	}
	path := destinationPath(dc)
	name := c.Country(dc.ISO2, dc.Name)
	a.Destination.Name = name
	v := templates.DestinationView{
		Page: s.pageIn(c, path, c.Text("page.destination.title", "country", name)+titleSuffix,
			c.Text("page.destination.description", "country", name),
			templates.Link{Label: c.Text("site.nav.destinations"), URL: "/destinations/"}),
		Country: templates.Link{Label: name, URL: localPath(c, path)}, ISO3: dc.ISO3,
		Covered:      a.Curated,
		Coverage:     a.EntryRules.Coverage.WordsIn(c),
		RulesState:   templates.Verification{Status: entrycheck.RulesStatusWordsIn(c, a.EntryRulesVerification.Status), Note: a.EntryRulesVerification.Note},
		LastVerified: a.EntryRulesVerification.ReadWordsIn(c),
		Rules:        ruleViews(c, a.RuleLinesIn(c)),
		NotCited:     a.NotCitedNamesIn(c),
		Authorities:  links(s.officialPages[c.Code][dc.ISO3]),
		AsOf:         s.asOfIn(c),
		Disclaimer:   a.Disclaimer,
	}
	v.Page.JSONLD = jsonLD(map[string]any{"@context": "https://schema.org", "@graph": []any{breadcrumbList(s.opts.BaseURL, v.Page.Breadcrumbs, name, v.Page.Path)}})
	for _, p := range a.Apply {
		reqs := make([]string, len(p.Requirements))
		for i, r := range p.Requirements {
			reqs[i] = r.LabelIn(c)
		}
		v.Apply = append(v.Apply, templates.Apply{URL: p.URL, Kind: entrycheck.ApplyKindLabelIn(c, p.Kind), Note: quoted(c, p.Note), For: strings.Join(reqs, ", "), Source: citation(c, p.Source)})
	}
	for _, req := range entrycheck.Requirements {
		if n := s.summary.byDest[dc.ISO3][req]; n > 0 {
			v.Counts = append(v.Counts, templates.Count{Label: req.LabelIn(c), N: n})
		}
	}
	v.Map = s.worldMap.view(c, c.Text("page.destination.map", "country", name), c.Text("page.destination.map_text", "country", name),
		mapPlace{country: dc, url: path}, c.Text("page.destination.map_own"), s.summary.toDest[dc.ISO3], false)
	return s.publish(r, c, path, templates.DestinationPage(v), func() []byte { return templates.DestinationMarkdown(v) })
}

// renderIndexes renders the passport and destination indexes in every
// language of the build.
func (s *site) renderIndexes() error {
	r := newRenderer()
	cited := map[string]bool{}
	for _, code := range s.ev.Snapshot().Curated.CitedCodes() {
		cited[code] = true
	}
	for _, c := range s.langs {
		for _, idx := range []struct {
			path, heading, intro string
			link                 func(entrycheck.Country) string
			marked               map[string]bool
		}{
			{"/passports/", c.Text("site.nav.passports"), c.Text("page.index.passports"), passportPath, nil},
			{"/destinations/", c.Text("site.nav.destinations"), c.Text("page.index.destinations"), destinationPath, cited},
		} {
			v := templates.IndexView{Page: s.pageIn(c, idx.path, idx.heading+titleSuffix, idx.intro), Heading: idx.heading, Intro: idx.intro,
				Filter: c.Text("page.index.filter"), NoMatch: c.Text("page.index.no_match")}
			v.Page.Script = s.assets.js
			countries := s.byName(c)
			for _, x := range countries {
				v.Items = append(v.Items, templates.IndexEntry{Link: templates.Link{Label: c.Country(x.ISO2, x.Name), URL: localPath(c, idx.link(x))}, Marked: idx.marked[x.ISO3]})
			}
			if n := len(idx.marked); n > 0 {
				v.Mark = c.Text("page.index.mark")
				v.Marked = c.Count("page.index.marked", n, "total", c.Number(len(countries)), "mark", v.Mark)
				v.OnlyMarked = c.Text("page.index.only_marked", "mark", v.Mark)
			}
			if err := s.publish(r, c, idx.path, templates.IndexPage(v), func() []byte { return templates.IndexMarkdown(v) }); err != nil {
				return err
			}
		}
	}
	return nil
}

// byName lists the countries of the matrix in the alphabetical order of
// their names in the language of c, as a reader looks one up.
func (s *site) byName(c *locale.Catalog) []entrycheck.Country {
	sorted := append([]entrycheck.Country(nil), s.ev.Snapshot().Matrix.Countries()...)
	if c.Code == locale.English {
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
		return sorted
	}
	names := collate.New(c.Tag, collate.Loose)
	sort.SliceStable(sorted, func(i, j int) bool {
		return names.CompareString(c.Country(sorted[i].ISO2, sorted[i].Name), c.Country(sorted[j].ISO2, sorted[j].Name)) < 0
	})
	return sorted
}

// renderHome renders the home page and the not-found page in every
// language of the build. The English home page, at /, offers the others to
// a visitor whose browser prefers one of them, and never sends anyone
// away on its own.
func (s *site) renderHome() error {
	snap := s.ev.Snapshot()
	for _, c := range s.langs {
		v := templates.HomeView{
			Page:           s.pageIn(c, "/", c.Text("site.title"), c.Text("page.home.description")),
			DatasetVersion: snap.Version(), Routes: snap.Matrix.Routes(), Curated: len(snap.Curated.CitedCodes()), Disclaimer: entrycheck.Disclaimer(c),
		}
		v.Page.Script = s.assets.js
		v.Page.JSONLD = jsonLD(map[string]any{"@context": "https://schema.org", "@type": "WebSite", "name": templates.SiteName, "url": s.opts.BaseURL + v.Page.Path, "inLanguage": c.Tag.String()})
		v.Countries = s.countries[c.Code]
		if c.Code == locale.English {
			for _, o := range s.langs[1:] {
				v.Page.Offers = append(v.Page.Offers, templates.Offer{Lang: o.Language, Path: localPath(o, "/"), Text: o.Text("site.language_offer")})
			}
		}
		if err := s.publish(newRenderer(), c, "/", templates.HomePage(v), func() []byte { return templates.HomeMarkdown(v) }); err != nil {
			return err
		}
		if err := s.renderNotFound(c); err != nil {
			return err
		}
	}
	return nil
}

// renderNotFound writes /404.html and /404.md, the page static hosts send
// for a path that names no page, in the language of c (404.es.html for
// the paths under /es/; markdown in English only): the search form that
// reaches any route without JavaScript. entrycheck serve renders the same
// page with suggestions for the path asked.
func (s *site) renderNotFound(c *locale.Catalog) error {
	const path = "/404.html"
	v := templates.FindView{
		Page:    s.pageIn(c, path, c.Text("page.not_found.heading")+titleSuffix, c.Text("page.find.description")),
		Heading: c.Text("page.not_found.heading"), Message: c.Text("page.not_found.message"),
	}
	v.Page.Markdown = ""
	v.Countries = s.countries[c.Code]
	html, err := newRenderer().html(templates.FindPage(v))
	if err != nil {
		return err
	}
	if err := s.w.write(sitetree.PageFile(c.Code, path), html); err != nil {
		return err
	}
	if c.Code != locale.English {
		return nil
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
	for _, c := range s.langs {
		if err := s.renderWidget(r, c); err != nil {
			return err
		}
	}
	return nil
}

// renderWidget renders the widget page in the language of c: its snippet
// links the home page in that language.
func (s *site) renderWidget(r *renderer, c *locale.Catalog) error {
	base := s.opts.BaseURL
	snippet := `<div data-entrycheck data-theme="light"><a href="` + base + localPath(c, "/") + `">` + c.Text("page.widget.attribution") + `</a></div>` + "\n" +
		`<script src="` + base + `/embed.js" async></script>`
	w := templates.WidgetView{
		Page:      s.pageIn(c, "/widget/", c.Text("page.widget.title")+titleSuffix, c.Text("page.widget.description")),
		Snippet:   snippet,
		CSP:       "script-src " + origin(base) + "; connect-src " + origin(base),
		Languages: locale.Languages(),
	}
	if path, integrity, ok := pinnedWidget(s.opts.Extra); ok {
		w.PinnedScript = `<script src="` + base + path + `" integrity="` + integrity + `" crossorigin="anonymous" async></script>`
	}
	return s.publish(r, c, "/widget/", templates.WidgetPage(w), func() []byte { return templates.WidgetMarkdown(w) })
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
