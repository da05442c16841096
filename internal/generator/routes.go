package generator

import (
	"bytes"
	"context"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"

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

// renderPassport renders the route pages of one passport and its own page.
func (s *site) renderPassport(r *renderer, pc entrycheck.Country) (int, error) {
	clock := entrycheck.FixedClock(s.now)
	groups := map[entrycheck.Requirement][]templates.RouteEntry{}
	var places []mapPlace
	n := 0
	for _, dc := range s.ev.Snapshot().Matrix.Countries() {
		if dc.ISO3 == pc.ISO3 {
			continue
		}
		res, err := s.ev.Check(entrycheck.CheckRequest{Passport: pc.ISO3, Destination: dc.ISO3, RequestID: "build"}, clock)
		if err != nil {
			return n, err
		}
		day := s.routeModified(res)
		v := s.routeView(entrycheck.English(), res, day)
		s.modified.note(day, v.Path, passportPath(pc))
		s.modified.note(s.routeDataModified(res), destinationPath(dc))
		if err := s.page(r, v.Path, templates.RoutePage(v), templates.RouteMarkdown(v)); err != nil {
			return n, err
		}
		if err := s.translatedRoutes(r, res, day, clock); err != nil {
			return n, err
		}
		s.summary.addRoute(res, v.Path)
		entry := templates.RouteEntry{Link: templates.Link{Label: dc.Name, URL: v.Path}, Stay: v.Stay}
		if len(res.VerdictVerification.CorroboratedBy()) > 0 {
			entry.Corroborated = entrycheck.LabelCorroborated.String()
		}
		groups[res.Requirement] = append(groups[res.Requirement], entry)
		places = append(places, mapPlace{country: dc, req: res.Requirement, stay: v.Stay, url: v.Path})
		n++
	}
	v := templates.PassportView{
		Page: s.pageOf(passportPath(pc), entrycheck.PassportWords(pc.Name)+": visa requirements for every destination | entrycheck",
			"Visa and entry requirements for holders of a passport of "+pc.Name+" in every destination, grouped by requirement, with cited entry rules.",
			templates.Link{Label: "Passports", URL: "/passports/"}),
		Country: templates.Link{Label: pc.Name, URL: passportPath(pc)}, ISO3: pc.ISO3, Total: n, AsOf: s.asOf(), Disclaimer: entrycheck.Disclaimer(entrycheck.English()),
		Countries: s.countries,
		Map: s.worldMap.view("World map of the requirement for holders of a passport of "+pc.Name,
			"The lists below give every destination of the map as text, grouped by requirement.",
			mapPlace{country: pc, url: passportPath(pc)}, "This passport's country", places, true),
	}
	if age := s.ev.VerdictAge(s.now); age.Old {
		v.Old = entrycheck.OldVerdictsWords(age.AsOf)
	}
	for _, req := range entrycheck.Requirements {
		if len(groups[req]) > 0 {
			v.Groups = append(v.Groups, templates.RequirementGroup{Requirement: requirementSlug(req), Label: req.Label(), Entries: groups[req]})
		}
	}
	return n, s.page(r, v.Path, templates.PassportPage(v), templates.PassportMarkdown(v))
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
		html, err := r.html(templates.RoutePage(v))
		if err != nil {
			return err
		}
		if err := s.w.write(sitetree.PageFile(c.Code, routePath(res.Passport, res.Destination)), html); err != nil {
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
		Passport:         templates.Link{Label: pc.Name, URL: passportPath(pc)},
		Destination:      templates.Link{Label: dc.Name, URL: destinationPath(dc)},
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
		Authorities:      serving(s.officialPages[dc.ISO3], res.Requirement),
		APIURL:           "/free/check?passport=" + pc.ISO3 + "&destination=" + dc.ISO3,
		Disclaimer:       res.Disclaimer,
	}
	v.Page.Image = s.social.of(res.Requirement)
	v.Page.Alternates = s.alternates(path)
	v.Page.JSONLD = s.routeLD(c, res, v.Page.Breadcrumbs, title, v.Page.Path, modified)
	if res.Source.MatrixValue != nil {
		v.MatrixValue = *res.Source.MatrixValue
	}
	v.SourceBefore, v.SourceAfter = entrycheck.SourceWordsIn(c, res.Source)
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

// asOf is the date every verdict of the build is as of: the matrix snapshot's.
func (s *site) asOf() string { return s.ev.VerdictAge(s.now).AsOf.Long() }

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
		"@type": "FAQPage",
		"url":   s.opts.BaseURL + path,
		"name":  title,
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
