package generator

import (
	"bytes"
	"context"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"
	"golang.org/x/text/collate"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/sitetree"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// renderer holds a worker's reusable buffer.
type renderer struct{ buf bytes.Buffer }

func newRenderer() *renderer { return &renderer{} }

// html renders a component into the renderer's buffer and returns it: the
// bytes hold until the next render, which is enough to write them, and
// saves a copy of every page.
func (r *renderer) html(c templ.Component) ([]byte, error) {
	r.buf.Reset()
	if err := c.Render(context.Background(), &r.buf); err != nil {
		return nil, err
	}
	return r.buf.Bytes(), nil
}

// page writes a page's HTML and markdown variant into dir (a path like /passports/deu/).
func (s *site) page(r *renderer, dir string, c templ.Component, markdown []byte) error {
	html, err := r.html(c)
	if err != nil {
		return err
	}
	if err := s.w.write(trimSlash(dir)+"index.html", html); err != nil {
		return err
	}
	return s.w.write(trimSlash(dir)+"index.md", markdown)
}

// publish writes the page of path (its English address) in the language
// of c: an English page with its markdown variant, a page in another
// language beside it, as HTML only (sitetree.PageFile). markdown is called
// for English only. The sitemap lists the versions of the pages published
// in another language (site.translated).
func (s *site) publish(r *renderer, c *locale.Catalog, path string, page templ.Component, markdown func() []byte) error {
	if c.Code == locale.English {
		return s.page(r, path, page, markdown())
	}
	html, err := r.html(page)
	if err != nil {
		return err
	}
	s.translated.Store(path, true)
	return s.w.write(sitetree.PageFile(c.Code, path), html)
}

// titleSuffix ends the title of every page but a route's, which is kept
// short for search results.
const titleSuffix = " | " + templates.SiteName

// renderPassport renders the route pages of one passport and its own page,
// in every language of the build.
func (s *site) renderPassport(r *renderer, pc entrycheck.Country) (int, error) {
	clock := entrycheck.FixedClock(s.now)
	var routes []entrycheck.CheckResult
	for _, dc := range s.ev.Snapshot().Matrix.Countries() {
		if dc.ISO3 == pc.ISO3 {
			continue
		}
		res, err := s.ev.Check(entrycheck.CheckRequest{Passport: pc.ISO3, Destination: dc.ISO3, RequestID: "build"}, clock)
		if err != nil {
			return len(routes), err
		}
		day := s.routeModified(res)
		v := s.routeView(entrycheck.English(), res, day)
		s.modified.note(day, v.Path, passportPath(pc))
		s.modified.note(s.routeDataModified(res), destinationPath(dc))
		if err := s.page(r, v.Path, templates.RoutePage(v), templates.RouteMarkdown(v)); err != nil {
			return len(routes), err
		}
		if err := s.translatedRoutes(r, res, day, clock); err != nil {
			return len(routes), err
		}
		s.summary.addRoute(res, v.Path)
		routes = append(routes, res)
	}
	for _, c := range s.langs {
		v := s.passportView(c, pc, routes)
		if err := s.publish(r, c, passportPath(pc), templates.PassportPage(v), func() []byte { return templates.PassportMarkdown(v) }); err != nil {
			return len(routes), err
		}
	}
	return len(routes), nil
}

// passportView is the page of passport pc in the language of c: its
// routes grouped by requirement, each destination by its name in the
// language, linking its route page in the language.
func (s *site) passportView(c *locale.Catalog, pc entrycheck.Country, routes []entrycheck.CheckResult) templates.PassportView {
	path := passportPath(pc)
	name := c.Country(pc.ISO2, pc.Name)
	groups := map[entrycheck.Requirement][]templates.RouteEntry{}
	places := make([]mapPlace, 0, len(routes))
	for _, res := range s.inNameOrder(c, routes) {
		dc := res.Destination
		url := localPath(c, routePath(pc, dc))
		stay := entrycheck.StayWordsIn(c, res.Requirement, res.AllowedStayDays)
		entry := templates.RouteEntry{Link: templates.Link{Label: c.Country(dc.ISO2, dc.Name), URL: url}, Stay: stay}
		if len(res.VerdictVerification.CorroboratedBy()) > 0 {
			entry.Corroborated = entrycheck.LabelCorroborated.In(c)
		}
		groups[res.Requirement] = append(groups[res.Requirement], entry)
		places = append(places, mapPlace{country: dc, req: res.Requirement, days: res.AllowedStayDays, url: routePath(pc, dc)})
	}
	passport := entrycheck.PassportWordsIn(c, name)
	v := templates.PassportView{
		Page: s.pageIn(c, path, c.Text("page.passport.title", "passport", passport)+titleSuffix,
			c.Text("page.passport.description", "country", name),
			templates.Link{Label: c.Text("site.nav.passports"), URL: "/passports/"}),
		Country: templates.Link{Label: name, URL: localPath(c, path)}, ISO3: pc.ISO3, Total: len(routes), AsOf: s.asOfIn(c), Disclaimer: entrycheck.Disclaimer(c),
		Countries: s.countries[c.Code],
		Map: s.worldMap.view(c, c.Text("page.passport.map", "country", name), c.Text("page.passport.map_text"),
			mapPlace{country: pc, url: path}, c.Text("page.passport.map_own"), places, true),
	}
	v.Page.JSONLD = jsonLD(map[string]any{"@context": "https://schema.org", "@graph": []any{breadcrumbList(s.opts.BaseURL, v.Page.Breadcrumbs, name, v.Page.Path)}})
	if age := s.ev.VerdictAge(s.now); age.Old {
		v.Old = entrycheck.OldVerdictsWordsIn(c, age.AsOf)
	}
	for _, req := range entrycheck.Requirements {
		if len(groups[req]) > 0 {
			v.Groups = append(v.Groups, templates.RequirementGroup{Requirement: requirementSlug(req), Label: req.LabelIn(c), Entries: groups[req]})
		}
	}
	return v
}

// inNameOrder is routes in the order of their destinations' names in the
// language of c; English keeps the matrix's order, which is theirs.
func (s *site) inNameOrder(c *locale.Catalog, routes []entrycheck.CheckResult) []entrycheck.CheckResult {
	if c.Code == locale.English {
		return routes
	}
	names := collate.New(c.Tag, collate.Loose)
	sorted := slices.Clone(routes)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i].Destination, sorted[j].Destination
		return names.CompareString(c.Country(a.ISO2, a.Name), c.Country(b.ISO2, b.Name)) < 0
	})
	return sorted
}

// translatedRoutes writes the route page of en, an answer in English, in
// every other language of the build: the same check asked in that
// language, as HTML only (markdown stays English). Its content changes
// when the English page's does, so it carries the same date.
func (s *site) translatedRoutes(r *renderer, en entrycheck.CheckResult, modified entrycheck.Date, clock entrycheck.Clock) error {
	for _, c := range s.langs {
		if c.Code == locale.English {
			continue
		}
		res, err := s.ev.Check(entrycheck.CheckRequest{Passport: en.Passport.ISO3, Destination: en.Destination.ISO3, RequestID: "build", Language: c.Code}, clock)
		if err != nil {
			return err
		}
		v := s.routeView(c, res, modified)
		if err := s.publish(r, c, routePath(res.Passport, res.Destination), templates.RoutePage(v), nil); err != nil {
			return err
		}
	}
	return nil
}

// routeView is the page model of one route, from its check result, in the
// language of c (the answer's). It carries nothing that changes from build
// to build (no request id, no evaluation time, no dataset version), so a
// page is rewritten only when its answer changes.
func (s *site) routeView(c *locale.Catalog, res entrycheck.CheckResult, modified entrycheck.Date) templates.RouteView {
	pc, dc := res.Passport, res.Destination
	path := routePath(pc, dc)
	// The page names both countries in its language.
	pc.Name, dc.Name = c.Country(pc.ISO2, pc.Name), c.Country(dc.ISO2, dc.Name)
	res.Passport, res.Destination = pc, dc
	lines := res.RuleLines()
	title := entrycheck.RouteWordsIn(c, pc.Name, dc.Name) + ": " + entrycheck.InSentenceIn(c, res.RequirementLabel)
	if res.AllowedStayDays.Valid {
		title += ", " + c.Count("stay.days", res.AllowedStayDays.N)
	}
	v := templates.RouteView{
		Page: s.pageIn(c, path, routeTitle(c, res), routeDescription(c, res),
			templates.Link{Label: c.Text("site.nav.passports"), URL: "/passports/"}, templates.Link{Label: pc.Name, URL: passportPath(pc)}),
		Passport:         templates.Link{Label: pc.Name, URL: localPath(c, passportPath(pc))},
		Destination:      templates.Link{Label: dc.Name, URL: localPath(c, destinationPath(dc))},
		PassportISO3:     pc.ISO3,
		DestinationISO3:  dc.ISO3,
		Requirement:      string(res.Requirement),
		RequirementLabel: res.RequirementLabel,
		Tone:             res.Requirement.Tone(),
		AsOf:             res.VerdictVerification.AsOf.LongIn(c),
		Stay:             entrycheck.StayWordsIn(c, res.Requirement, res.AllowedStayDays),
		Action:           string(res.Action),
		ActionText:       res.ActionSentenceIn(c),
		Verdict:          templates.Verification{Status: entrycheck.VerdictStatusWordsIn(c, res.VerdictVerification.Status), Note: res.VerdictVerification.Note},
		SourceName:       res.Source.Name,
		SourceURL:        res.Source.URL,
		Since:            s.since(c, pc.ISO3, dc.ISO3),
		Rules:            ruleViews(c, entrycheck.LinesForThisPassport(lines)),
		Others:           ruleViews(c, entrycheck.LinesForOtherPassports(lines)),
		Coverage:         res.EntryRules.Coverage.WordsIn(c),
		RulesState:       templates.Verification{Status: entrycheck.RulesStatusWordsIn(c, res.EntryRulesVerification.Status), Note: res.EntryRulesVerification.Note},
		LastVerified:     res.EntryRulesVerification.ReadWordsIn(c),
		NotCited:         res.EntryRules.NotCitedNamesIn(c),
		Authorities:      serving(s.officialPages[c.Code][dc.ISO3], res.Requirement),
		APIURL:           apiURL(c, pc, dc),
		Disclaimer:       res.Disclaimer,
	}
	v.Page.Image = s.social.of(c, res.Requirement)
	v.Page.JSONLD = s.routeLD(c, res, v.Page.Breadcrumbs, title, v.Page.Path, modified)
	if res.Source.MatrixValue != nil {
		v.MatrixValue = *res.Source.MatrixValue
	}
	v.SourceBefore, v.SourceAfter = entrycheck.SourceWordsIn(c, res.Source)
	if c.Code != locale.English && v.MatrixValue != "" {
		// The table's value is its own word, quoted as SourceWordsIn quotes it.
		v.SourceValue = strconv.Quote(v.MatrixValue)
	}
	if a := res.Apply; a != nil {
		v.Apply = &templates.Apply{URL: a.URL, Kind: entrycheck.ApplyKindLabelIn(c, a.Kind), Note: quoted(c, a.Note), Source: citation(c, a.Source)}
	} else if res.Requirement == entrycheck.VisaRequired {
		v.NextStep = entrycheck.ApplyAtEmbassyWordsIn(c, dc.Name)
	}
	for _, st := range res.VerdictVerification.OfficialStatements {
		text := st.Text
		// An ended statement is history: the page names it, its period and
		// its source, and leaves its text to the JSON answer.
		if st.Status == entrycheck.StatementEnded {
			text = ""
		}
		v.Statements = append(v.Statements, templates.Statement{ID: st.ID, Label: st.LabelIn(c), Text: quoted(c, text), Source: citation(c, st.Source)})
	}
	return v
}

func (s *site) since(c *locale.Catalog, p, d string) string {
	if v, ok := s.opts.History.Changed[[2]string{p, d}]; ok {
		return entrycheck.SinceWordsIn(c, true, v)
	}
	return entrycheck.SinceWordsIn(c, false, s.opts.History.Baseline)
}

func passportPath(c entrycheck.Country) string { return "/passports/" + strings.ToLower(c.ISO3) + "/" }

func destinationPath(c entrycheck.Country) string {
	return "/destinations/" + strings.ToLower(c.ISO3) + "/"
}

func routePath(p, d entrycheck.Country) string {
	return "/passports/" + strings.ToLower(p.ISO3) + "/" + strings.ToLower(d.ISO3) + "/"
}

// apiURL is the free check of a route, as a route page links it: in the
// page's language.
func apiURL(c *locale.Catalog, p, d entrycheck.Country) string {
	u := "/free/check?passport=" + p.ISO3 + "&destination=" + d.ISO3
	if c.Code != locale.English {
		u += "&lang=" + c.Code
	}
	return u
}

// asOf is the date every verdict of the build is as of: the matrix snapshot's.
func (s *site) asOf() string { return s.ev.VerdictAge(s.now).AsOf.Long() }

// asOfIn is asOf in the language of c.
func (s *site) asOfIn(c *locale.Catalog) string { return s.ev.VerdictAge(s.now).AsOf.LongIn(c) }

// lowerFirst lowers the first letter of a label that continues a sentence,
// leaving acronyms as they are ("electronic travel authorisation (ETA) required").
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[size:]
}

// maxTitle is the length of a title search results show whole.
const maxTitle = 60

// routeTitle is the shortest faithful title of a route page that fits in
// maxTitle characters, in the language of c: names where they fit, codes
// where they do not.
func routeTitle(c *locale.Catalog, res entrycheck.CheckResult) string {
	verdict := res.Requirement.ShortLabelIn(c)
	if res.AllowedStayDays.Valid {
		verdict += ", " + c.Count("stay.days", res.AllowedStayDays.N)
	}
	p, d := res.Passport, res.Destination
	for _, t := range []string{
		entrycheck.RouteWordsIn(c, p.Name, d.Name) + ": " + verdict + " | entrycheck",
		entrycheck.RouteWordsIn(c, p.Name, d.Name) + ": " + verdict,
		c.Text("page.route.short", "passport", p.Name, "destination", d.Name) + ": " + verdict,
		entrycheck.RouteWordsIn(c, p.ISO3, d.Name) + ": " + verdict,
		entrycheck.RouteWordsIn(c, p.Name, d.ISO3) + ": " + verdict,
	} {
		if len([]rune(t)) <= maxTitle {
			return t
		}
	}
	return entrycheck.RouteWordsIn(c, p.ISO3, d.ISO3) + ": " + verdict
}

// routeDescription says what the page holds, and promises cited entry
// rules only where there are some.
func routeDescription(c *locale.Catalog, res entrycheck.CheckResult) string {
	d := res.Destination.Name
	s := routeQuestion(c, res) + " " + routeAnswer(c, res)
	if res.EntryRules.Coverage == entrycheck.CoverageExtended {
		return s + " " + c.Text("page.route.with_rules", "country", d)
	}
	return s + " " + c.Text("page.route.no_rules", "country", d)
}

// routeQuestion is the question a route page answers, as its description
// and structured data ask it.
func routeQuestion(c *locale.Catalog, res entrycheck.CheckResult) string {
	return c.Text("page.route.question", "passport", res.Passport.Name, "destination", res.Destination.Name)
}

// routeAnswer is the verdict with its stay and date, in the page's words
// (the requirement's label): "Visa required, as of 17 February 2026."
func routeAnswer(c *locale.Catalog, res entrycheck.CheckResult) string {
	date := res.VerdictVerification.AsOf.LongIn(c)
	if d := res.AllowedStayDays; d.Valid {
		return c.Count("page.route.answer_stay", d.N, "verdict", res.RequirementLabel, "date", date)
	}
	return c.Text("page.route.answer", "verdict", res.RequirementLabel, "date", date)
}

// routeLD is the structured data of a route page: its breadcrumbs, and the
// page as the answer to its question, dated by the day it last changed.
func (s *site) routeLD(c *locale.Catalog, res entrycheck.CheckResult, crumbs []templates.Link, title, path string, modified entrycheck.Date) string {
	page := map[string]any{
		"@type":      "FAQPage",
		"url":        s.opts.BaseURL + path,
		"name":       title,
		"inLanguage": c.Tag.String(),
		"mainEntity": map[string]any{
			"@type": "Question",
			"name":  routeQuestion(c, res),
			"acceptedAnswer": map[string]any{
				"@type": "Answer",
				"text":  routeAnswer(c, res),
			},
		},
	}
	if !modified.IsZero() {
		page["dateModified"] = modified.String()
	}
	return jsonLD(map[string]any{
		"@context": "https://schema.org",
		"@graph":   []any{breadcrumbList(s.opts.BaseURL, crumbs, title, path), page},
	})
}
