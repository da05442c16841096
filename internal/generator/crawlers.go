package generator

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/answertext"
)

// routesPerSitemap keeps each sitemap a few megabytes with the alternates
// of every language, far under the protocol's 50,000 URLs and 50 MB.
const routesPerSitemap = 5000

// renderCrawlerFiles writes the sitemaps and llms-full.txt; robots.txt and
// llms.txt are discovery documents (see discovery.Documents), handed in as
// extra files.
func (s *site) renderCrawlerFiles() error {
	base := s.opts.BaseURL
	countries := s.ev.Snapshot().Matrix.Countries()
	pages := []string{"/", "/passports/", "/destinations/", "/transparency/", "/auth/", "/widget/"}
	for _, c := range countries {
		pages = append(pages, passportPath(c), destinationPath(c))
	}
	var routes []string
	for _, p := range countries {
		for _, d := range countries {
			if p != d {
				routes = append(routes, routePath(p, d))
			}
		}
	}
	// The pages about the whole dataset show the latest of what the others
	// do; the transparency page the verification runs too. The guides
	// (/auth/, /widget/) show nothing of the event log and get no lastmod.
	latest := s.modified.latest
	s.modified.note(latest, "/", "/passports/", "/destinations/", "/transparency/")
	if run := s.opts.Verification.LastRun; run != nil {
		s.modified.note(entrycheck.DateOf(run.Time), "/transparency/")
	}
	m, err := s.writeURLSet("sitemaps/pages.xml", pages)
	if err != nil {
		return err
	}
	maps := []sitemap{m}
	for i := 0; i*routesPerSitemap < len(routes); i++ {
		name := fmt.Sprintf("sitemaps/routes-%d.xml", i+1)
		m, err := s.writeURLSet(name, routes[i*routesPerSitemap:min(len(routes), (i+1)*routesPerSitemap)])
		if err != nil {
			return err
		}
		maps = append(maps, m)
	}
	if err := s.w.write("sitemap.xml", sitemapIndex(base, maps)); err != nil {
		return err
	}
	full, err := s.llmsFull()
	if err != nil {
		return err
	}
	return s.w.write("llms-full.txt", full)
}

// sitemap is one sitemap file with the latest lastmod of its pages.
type sitemap struct {
	name    string
	lastmod entrycheck.Date
}

// writeURLSet writes the sitemap name, which lists pages with the day each
// last changed (see modified) and, for those published in other languages
// (site.translated), the page in every language of the build (hreflang
// alternates, x-default the English page). It writes each sitemap as soon as it is made: with the
// alternates of every language, one holds megabytes.
func (s *site) writeURLSet(name string, paths []string) (sitemap, error) {
	m := sitemap{name: name}
	var b bytes.Buffer
	b.WriteString(xml.Header + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">` + "\n")
	for _, p := range paths {
		fmt.Fprintf(&b, "<url><loc>%s%s</loc>", s.opts.BaseURL, p)
		if day := s.modified.of(p); !day.IsZero() {
			fmt.Fprintf(&b, "<lastmod>%s</lastmod>", day)
			m.lastmod = laterOf(m.lastmod, day)
		}
		if _, translated := s.translated.Load(p); translated {
			for _, a := range s.alternates(p) {
				fmt.Fprintf(&b, `<xhtml:link rel="alternate" hreflang="%s" href="%s%s"/>`, a.Lang.Tag, s.opts.BaseURL, a.Path)
			}
			fmt.Fprintf(&b, `<xhtml:link rel="alternate" hreflang="x-default" href="%s%s"/>`, s.opts.BaseURL, p)
		}
		b.WriteString("</url>\n")
	}
	b.WriteString("</urlset>\n")
	return m, s.w.write(name, b.Bytes())
}

func sitemapIndex(base string, maps []sitemap) []byte {
	var b bytes.Buffer
	b.WriteString(xml.Header + `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	for _, m := range maps {
		if m.lastmod.IsZero() {
			fmt.Fprintf(&b, "<sitemap><loc>%s/%s</loc></sitemap>\n", base, m.name)
			continue
		}
		fmt.Fprintf(&b, "<sitemap><loc>%s/%s</loc><lastmod>%s</lastmod></sitemap>\n", base, m.name, m.lastmod)
	}
	b.WriteString("</sitemapindex>\n")
	return b.Bytes()
}

// llmsFull is the plain-text digest of the whole dataset: the cited rules of
// every destination, then every passport's requirement for every destination.
func (s *site) llmsFull() ([]byte, error) {
	snap := s.ev.Snapshot()
	var b bytes.Buffer
	src := s.ev.Source()
	fmt.Fprintf(&b, "entrycheck: full digest\nEvery verdict below is as of %s: matrix snapshot %s (%s, %s licence). Advisory only, not a boarding decision.\nRequirement values: visa_free [days], %s.\n\n", s.asOf(), snap.Version(), src.Name, src.License, entrycheck.Names(entrycheck.Requirements[1:]))
	b.WriteString("== Destination entry rules (cited) ==\n\n")
	for _, code := range snap.Curated.SortedCodes() {
		d := snap.Curated.Destinations[code]
		c, _ := snap.Countries.ByISO3(code)
		fmt.Fprintf(&b, "-- %s %s --\n", c.ISO3, c.Name)
		lines := curatedLinesOf(d.Rules, entrycheck.DateOf(s.now))
		if len(lines) == 0 {
			b.WriteString("No rule could be sourced from an official page.\n")
		}
		for _, l := range lines {
			b.WriteString(l.Inline() + "\n")
		}
		for _, a := range d.Apply {
			l := answertext.Apply(a.Apply)
			l.Text = "" // the digest names the place; its page says the rest
			b.WriteString(l.Inline() + "\n")
		}
		b.WriteByte('\n')
	}
	s.writeStatements(&b)
	if err := s.writeYellowFever(&b); err != nil {
		return nil, err
	}
	fmt.Fprintf(&b, "== Requirements by passport (as of %s) ==\n\n", s.asOf())
	passports := make([]string, 0, len(s.summary.lines))
	for p := range s.summary.lines {
		passports = append(passports, p)
	}
	sort.Strings(passports)
	for _, p := range passports {
		c, _ := snap.Countries.ByISO3(p)
		fmt.Fprintf(&b, "-- %s %s passport, as of %s --\n", c.ISO3, c.Name, s.asOf())
		lines := append([]string(nil), s.summary.lines[p]...)
		sort.Strings(lines)
		for _, l := range lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

// writeStatements lists the official statements about verdicts with their
// standing on the build day; the routes they concern are listed with the
// requirement they lead to (needs_review where a statement in force conflicts).
func (s *site) writeStatements(b *bytes.Buffer) {
	stmts := s.ev.Snapshot().Curated.Statements
	if len(stmts) == 0 {
		return
	}
	b.WriteString("== Official statements about verdicts ==\n\n")
	day := entrycheck.DateOf(s.now)
	for _, st := range stmts {
		c := entrycheck.CheckedStatement{Statement: st.Statement, Status: st.StatusOn(day)}
		stay := ""
		if st.AllowedStayDays.Valid {
			stay = " " + itoa(st.AllowedStayDays.N) + " days"
		}
		fmt.Fprintf(b, "%s (%s, %s): %s%s for passports %s. %s %s\n", st.ID, c.StatusWords(), c.Period(),
			st.Requirement, stay, appliesToText(st.AppliesTo), st.Text, answertext.CiteInline(st.Source))
	}
	b.WriteByte('\n')
}

// appliesToText lists whom a curated fact is for, as its source names them.
func appliesToText(a *entrycheck.AppliesTo) string {
	if a == nil {
		return "all"
	}
	parts := append(append([]string{}, a.Passports...), a.Groups...)
	out := strings.Join(parts, ", ")
	if ex := append(append([]string{}, a.ExceptPassports...), a.ExceptGroups...); len(ex) > 0 {
		out += " except " + strings.Join(ex, ", ")
	}
	return out
}
