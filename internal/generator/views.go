package generator

import (
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/answertext"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// pageOf fills the parts every page has, for a page published in English
// only (the transparency report, the agents' guide).
func (s *site) pageOf(path, title, description string, crumbs ...templates.Link) templates.Page {
	p := s.pageIn(entrycheck.English(), path, title, description, crumbs...)
	p.Alternates = nil
	return p
}

// pageIn fills the parts every page has, for the page of path (its English
// path) in the language of c, published in every language of the build:
// its address, its breadcrumbs to the pages in the same language, its
// versions in the other languages, its link preview's text. Its markdown
// variant is the English one: markdown is written in English only.
func (s *site) pageIn(c *locale.Catalog, path, title, description string, crumbs ...templates.Link) templates.Page {
	image := s.social.site
	image.Alt = c.Text("site.title")
	p := templates.Page{
		Title: title, Description: description, Path: localPath(c, path), BaseURL: s.opts.BaseURL,
		Markdown: path + "index.md", Stylesheet: s.assets.css, Icon: s.assets.icon, Image: image,
		W: c, Alternates: s.alternates(path),
	}
	if len(crumbs) > 0 {
		p.Breadcrumbs = append([]templates.Link{{Label: c.Text("site.home"), URL: localPath(c, "/")}}, crumbs...)
		for i := range crumbs {
			p.Breadcrumbs[i+1].URL = localPath(c, crumbs[i].URL)
		}
	}
	return p
}

// localPath is the path of the page of path (its English path) in the
// language of c: English pages keep today's paths, the others live under
// /{code}/.
func localPath(c *locale.Catalog, path string) string { return templates.LocalPath(c.Code, path) }

// alternates lists the page of path in every language the build renders.
func (s *site) alternates(path string) []templates.Alternate {
	out := make([]templates.Alternate, len(s.langs))
	for i, c := range s.langs {
		out[i] = templates.Alternate{Lang: c.Language, Path: localPath(c, path)}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// quoted is the words of a source, as the curators recorded them in
// English, on a page in the language of c (see templates.Quote).
func quoted(c *locale.Catalog, text string) templates.Quote {
	if text == "" || c.Code == locale.English {
		return templates.Quote{Text: text}
	}
	return templates.Quote{Text: text, Lang: locale.English, Note: c.Text("page.quoted_english")}
}

// citation is a cited page as a page in the language of cat names it.
func citation(cat *locale.Catalog, c entrycheck.Citation) templates.Citation {
	return templates.Citation{Label: entrycheck.LabelSource.In(cat), Name: c.Name, URL: c.URL, Read: c.ReadTextIn(cat)}
}

// ruleViews lists the lines of a destination's rules as the pages show
// them, in the language of cat.
func ruleViews(cat *locale.Catalog, lines []entrycheck.RuleLine) []templates.Rule {
	out := make([]templates.Rule, 0, len(lines))
	for _, l := range lines {
		own := strings.TrimSuffix(l.Text, l.Cited)
		out = append(out, templates.Rule{Name: l.Label, Named: curatedName(cat, l), Text: own, Cited: quoted(cat, l.Cited), Detail: l.Detail, URL: l.URL, Source: citation(cat, l.Source)})
	}
	return out
}

// curatedName is the name the curators gave an item of a list field in
// English (a transit programme, an arrival form, a health topic), which
// ends its label, on a page in the language of c; "" on an English page
// and for the other fields, whose labels are the page's words.
func curatedName(c *locale.Catalog, l entrycheck.RuleLine) string {
	named := l.Field == entrycheck.FieldTWOV || l.Field == entrycheck.FieldArrivalFormalities || l.Field == entrycheck.FieldOtherHealth
	if c.Code == locale.English || !named {
		return ""
	}
	for _, f := range entrycheck.RuleFields() {
		if head := f.ItemIn(c, ""); f.Name == l.Field && strings.HasPrefix(l.Label, head) {
			return strings.TrimPrefix(l.Label, head)
		}
	}
	return ""
}

// officialPage is an official page the curators found for a destination,
// with the requirements it serves.
type officialPage struct {
	templates.Link
	requirements []entrycheck.Requirement
}

// links are the pages' links, for a page about every passport.
func links(pages []officialPage) []templates.Link {
	out := make([]templates.Link, 0, len(pages))
	for _, p := range pages {
		out = append(out, p.Link)
	}
	return out
}

// serving are the links of the pages that serve requirement r: a route
// page offers no page for another requirement (an ESTA portal to a
// traveller who needs a visa).
func serving(pages []officialPage, r entrycheck.Requirement) []templates.Link {
	var out []templates.Link
	for _, p := range pages {
		if slices.Contains(p.requirements, r) {
			out = append(out, p.Link)
		}
	}
	return out
}

// officialPagesOf lists, for each curated destination, the official pages
// the curators found (its application portals and official information),
// named in the language of c by what they are, the documents they serve
// and their site: where a traveller reads what is not cited here.
func officialPagesOf(c *locale.Catalog, destinations map[string]*dataset.Destination) map[string][]officialPage {
	out := make(map[string][]officialPage, len(destinations))
	for iso3, d := range destinations {
		for _, a := range d.Apply {
			docs := make([]string, 0, len(a.Requirements))
			for _, r := range a.Requirements {
				if r.NeedsAction() {
					docs = append(docs, c.Text("page.document."+string(r)))
				}
			}
			kind, host := entrycheck.ApplyKindLabelIn(c, a.Kind), hostOf(a.URL)
			label := c.Text("page.official_page", "kind", kind, "host", host)
			if len(docs) > 0 {
				label = c.Text("page.official_page.for", "kind", kind, "documents", entrycheck.OrWordsIn(c, docs), "host", host)
			}
			out[iso3] = append(out[iso3], officialPage{templates.Link{Label: label, URL: a.URL}, a.Requirements})
		}
	}
	return out
}

// hostOf is the site of an official link, without "www.".
func hostOf(link string) string {
	u, err := url.Parse(link)
	if err != nil || u.Host == "" {
		return link
	}
	return strings.TrimPrefix(u.Hostname(), "www.")
}

// breadcrumbList is schema.org BreadcrumbList structured data.
func breadcrumbList(base string, crumbs []templates.Link, last, path string) map[string]any {
	type item struct {
		Type     string `json:"@type"`
		Position int    `json:"position"`
		Name     string `json:"name"`
		Item     string `json:"item"`
	}
	items := make([]item, 0, len(crumbs)+1)
	for i, c := range crumbs {
		items = append(items, item{"ListItem", i + 1, c.Label, base + c.URL})
	}
	items = append(items, item{"ListItem", len(crumbs) + 1, last, base + path})
	return map[string]any{"@type": "BreadcrumbList", "itemListElement": items}
}

// jsonLD encodes structured data for a script element: encoding/json
// escapes <, > and &, so the data cannot close the element.
func jsonLD(v any) string {
	b, _ := json.Marshal(v) // maps and slices of strings and numbers always encode
	return string(b)
}

// curatedLinesOf lists a destination's rules for every passport: each
// variant of a single-valued field with whom it applies to and is
// documented for, under its own source when it has one; the items of a
// list-valued field under the field's source, each dated one with its
// status on day.
func curatedLinesOf(r dataset.Rules, day entrycheck.Date) []answertext.Line {
	var out []answertext.Line
	for _, f := range entrycheck.RuleFields() {
		facts := f.FactsOn(r, day)
		if facts == nil {
			continue
		}
		for _, v := range facts.Value {
			if f.List() {
				out = append(out, answertext.Rules(v.Alone(entrycheck.AppliesYes, "", facts.Source))...)
				continue
			}
			applies, note, src := entrycheck.AppliesYes, "", facts.Source
			if v.Source != nil {
				src = *v.Source
			}
			if v.DocumentedFor != nil {
				applies, note = entrycheck.AppliesDocumentedForOthers, "Documented for "+scopeWords(v.DocumentedFor)+"."
			}
			if v.AppliesTo != nil {
				note = strings.TrimSpace("For " + scopeWords(v.AppliesTo) + ". " + note)
			}
			out = append(out, answertext.Rules(v.Alone(applies, note, src))...)
		}
	}
	return out
}

// scopeWords names the codes of an applies_to, such as "groups EU_EEA_CH".
func scopeWords(a *entrycheck.AppliesTo) string {
	var parts []string
	add := func(label string, codes []string) {
		if len(codes) > 0 {
			parts = append(parts, label+" "+strings.Join(codes, ", "))
		}
	}
	add("passports", a.Passports)
	add("groups", a.Groups)
	add("all but passports", a.ExceptPassports)
	add("all but groups", a.ExceptGroups)
	for _, r := range a.Requirements {
		parts = append(parts, "travellers with "+r.Label())
	}
	return strings.Join(parts, "; ")
}
