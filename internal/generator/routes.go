package generator

import (
	"bytes"
	"context"
	"strings"

	"github.com/a-h/templ"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/answertext"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// renderer holds a worker's reusable buffer.
type renderer struct{ buf bytes.Buffer }

func newRenderer() *renderer { return &renderer{} }

// html renders a component into a fresh byte slice.
func (r *renderer) html(c templ.Component) ([]byte, error) {
	r.buf.Reset()
	if err := c.Render(context.Background(), &r.buf); err != nil {
		return nil, err
	}
	return bytes.Clone(r.buf.Bytes()), nil
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
		v := s.routeView(res, day)
		s.modified.note(day, v.Path, passportPath(pc))
		s.modified.note(s.routeDataModified(res), destinationPath(dc))
		if err := s.page(r, v.Path, templates.RoutePage(v), templates.RouteMarkdown(v)); err != nil {
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

// routeView is the page model of one route, from its check result. It
// carries nothing that changes from build to build (no request id, no
// evaluation time, no dataset version), so a page is rewritten only when
// its answer changes.
func (s *site) routeView(res entrycheck.CheckResult, modified entrycheck.Date) templates.RouteView {
	pc, dc := res.Passport, res.Destination
	path := routePath(pc, dc)
	lines := res.RuleLines()
	title := entrycheck.RouteWords(pc.Name, dc.Name) + ": " + lowerFirst(res.RequirementLabel)
	if res.AllowedStayDays.Valid {
		title += ", " + itoa(res.AllowedStayDays.N) + " days"
	}
	v := templates.RouteView{
		Page: s.pageOf(path, routeTitle(res), routeDescription(res),
			templates.Link{Label: "Passports", URL: "/passports/"}, templates.Link{Label: pc.Name, URL: passportPath(pc)}),
		Passport:         templates.Link{Label: pc.Name, URL: passportPath(pc)},
		Destination:      templates.Link{Label: dc.Name, URL: destinationPath(dc)},
		PassportISO3:     pc.ISO3,
		DestinationISO3:  dc.ISO3,
		Requirement:      string(res.Requirement),
		RequirementLabel: res.RequirementLabel,
		Tone:             res.Requirement.Tone(),
		AsOf:             res.VerdictVerification.AsOf.Long(),
		Stay:             entrycheck.StayWords(res.Requirement, res.AllowedStayDays),
		Action:           string(res.Action),
		ActionText:       res.ActionSentence(),
		Verdict:          templates.Verification{Status: entrycheck.VerdictStatusWords(res.VerdictVerification.Status), Note: res.VerdictVerification.Note},
		SourceName:       res.Source.Name,
		SourceURL:        res.Source.URL,
		Since:            s.since(pc.ISO3, dc.ISO3),
		Rules:            ruleViews(entrycheck.LinesForThisPassport(lines)),
		Others:           ruleViews(entrycheck.LinesForOtherPassports(lines)),
		Coverage:         res.EntryRules.Coverage.Words(),
		RulesState:       templates.Verification{Status: entrycheck.RulesStatusWords(res.EntryRulesVerification.Status), Note: res.EntryRulesVerification.Note},
		LastVerified:     res.EntryRulesVerification.ReadWords(),
		NotCited:         res.EntryRules.NotCitedNames(),
		Authorities:      serving(s.officialPages[dc.ISO3], res.Requirement),
		APIURL:           "/free/check?passport=" + pc.ISO3 + "&destination=" + dc.ISO3,
		Disclaimer:       res.Disclaimer,
	}
	v.Page.Image = s.social.of(res.Requirement)
	v.Page.JSONLD = s.routeLD(res, v.Page.Breadcrumbs, title, path, modified)
	if res.Source.MatrixValue != nil {
		v.MatrixValue = *res.Source.MatrixValue
	}
	v.SourceBefore, v.SourceAfter = entrycheck.SourceWords(res.Source)
	if a := res.Apply; a != nil {
		l := answertext.Apply(*a)
		v.Apply = &templates.Apply{URL: l.URL, Kind: l.Label, Note: l.Text, Source: citation(*l.Source)}
	} else if res.Requirement == entrycheck.VisaRequired {
		v.NextStep = entrycheck.ApplyAtEmbassyWords(dc.Name)
	}
	for _, st := range res.VerdictVerification.OfficialStatements {
		l := answertext.Statement(st)
		// An ended statement is history: the page names it, its period and
		// its source, and leaves its text to the JSON answer.
		if st.Status == entrycheck.StatementEnded {
			l.Text = ""
		}
		v.Statements = append(v.Statements, templates.Statement{ID: st.ID, Label: l.Label, Text: l.Text, Source: citation(*l.Source)})
	}
	return v
}

func (s *site) since(p, d string) string {
	if v, ok := s.opts.History.Changed[[2]string{p, d}]; ok {
		return entrycheck.SinceWords(true, v)
	}
	return entrycheck.SinceWords(false, s.opts.History.Baseline)
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
	return strings.ToLower(s[:1]) + s[1:]
}

// maxTitle is the length of a title search results show whole.
const maxTitle = 60

// routeTitle is the shortest faithful title of a route page that fits in
// maxTitle characters: names where they fit, codes where they do not.
func routeTitle(res entrycheck.CheckResult) string {
	verdict := res.Requirement.ShortLabel()
	if res.AllowedStayDays.Valid {
		verdict += ", " + itoa(res.AllowedStayDays.N) + " days"
	}
	p, d := res.Passport, res.Destination
	for _, t := range []string{
		entrycheck.RouteWords(p.Name, d.Name) + ": " + verdict + " | entrycheck",
		entrycheck.RouteWords(p.Name, d.Name) + ": " + verdict,
		p.Name + " to " + d.Name + ": " + verdict,
		entrycheck.RouteWords(p.ISO3, d.Name) + ": " + verdict,
		entrycheck.RouteWords(p.Name, d.ISO3) + ": " + verdict,
	} {
		if len([]rune(t)) <= maxTitle {
			return t
		}
	}
	return entrycheck.RouteWords(p.ISO3, d.ISO3) + ": " + verdict
}

// routeDescription says what the page holds, and promises cited entry
// rules only where there are some.
func routeDescription(res entrycheck.CheckResult) string {
	d := res.Destination.Name
	s := routeQuestion(res) + " " + routeAnswer(res)
	if res.EntryRules.Coverage == entrycheck.CoverageExtended {
		return s + " With " + d + "'s entry rules and their official sources."
	}
	return s + " No entry rule of " + d + " is cited yet: check with its official authority."
}

// routeQuestion is the question a route page answers, as its description
// and structured data ask it.
func routeQuestion(res entrycheck.CheckResult) string {
	return "Do holders of a passport of " + res.Passport.Name + " need a visa for " + res.Destination.Name + "?"
}

// routeAnswer is the verdict with its stay and date, in the page's words
// (the requirement's label): "Visa required, as of 17 February 2026."
func routeAnswer(res entrycheck.CheckResult) string {
	return res.RequirementLabel + stayClause(res.AllowedStayDays) + ", as of " + res.VerdictVerification.AsOf.Long() + "."
}

// routeLD is the structured data of a route page: its breadcrumbs, and the
// page as the answer to its question, dated by the day it last changed.
func (s *site) routeLD(res entrycheck.CheckResult, crumbs []templates.Link, title, path string, modified entrycheck.Date) string {
	page := map[string]any{
		"@type": "FAQPage",
		"url":   s.opts.BaseURL + path,
		"name":  title,
		"mainEntity": map[string]any{
			"@type": "Question",
			"name":  routeQuestion(res),
			"acceptedAnswer": map[string]any{
				"@type": "Answer",
				"text":  routeAnswer(res),
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
