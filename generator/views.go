package generator

import (
	"encoding/json"
	"strconv"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/templates"
)

// pageOf fills the parts every page has.
func (s *site) pageOf(path, title, description string, crumbs ...templates.Link) templates.Page {
	p := templates.Page{
		Title: title, Description: description, Path: path, BaseURL: s.opts.BaseURL,
		Markdown: path + "index.md", Stylesheet: s.assets.css,
	}
	if len(crumbs) > 0 {
		p.Breadcrumbs = append([]templates.Link{{Label: "Home", URL: "/"}}, crumbs...)
	}
	return p
}

func itoa(n int) string { return strconv.Itoa(n) }

func citation(c entrycheck.Citation) templates.Citation {
	return templates.Citation{Name: c.Name, URL: c.URL, RetrievedAt: c.RetrievedAt.String(), Detail: c.Detail()}
}

func dateText(d *entrycheck.Date) string {
	if d == nil {
		return "never (no cited source)"
	}
	return d.String()
}

func stayClause(d entrycheck.Days) string {
	if d.Valid {
		return " for up to " + itoa(d.N) + " days"
	}
	return ""
}

func stayText(r entrycheck.Requirement, d entrycheck.Days) string {
	switch {
	case d.Valid:
		return itoa(d.N) + " days"
	case r == entrycheck.VisaFree:
		return "not stated in the matrix"
	}
	return ""
}

// actionText tells people what to do, in the words of the requirement.
func actionText(r entrycheck.CheckResult) string {
	switch r.Action {
	case entrycheck.ActionNone:
		if r.Source.MatrixValue != nil && *r.Source.MatrixValue == "-1" {
			return "Citizens may enter their own country."
		}
		return "No visa is needed for a short tourist visit. The entry rules below still apply."
	case entrycheck.ActionObtainOnArrival:
		return "A visa is issued on arrival; check its fee and conditions before you travel."
	case entrycheck.ActionApplyBeforeTravel:
		return "Apply before you travel: " + r.Requirement.DocumentWithArticle() + " is required."
	case entrycheck.ActionEntryNotPermitted:
		return "Holders of this passport are not admitted, according to the matrix."
	}
	return "There is no reliable verdict for this route: check with the destination's official authority before you travel."
}

func applyKind(kind string) string {
	switch kind {
	case entrycheck.ApplyOfficialPortal:
		return "Apply online (official portal)"
	case entrycheck.ApplyOfficialInfo:
		return "How to apply (official information)"
	case entrycheck.ApplyEmbassyFinder:
		return "Find the embassy or consulate"
	}
	return kind
}

// rulesOf lists the cited rules of a block, in the spec's order.
func rulesOf(er entrycheck.EntryRules) []templates.Rule {
	var out []templates.Rule
	if x := er.PassportValidity; x != nil {
		d := "At least " + itoa(x.Value.MinMonthsRemaining) + " months of validity"
		if x.Value.CountedFrom != nil {
			d += ", counted from " + map[string]string{"entry": "entry", "departure": "departure", "end_of_permitted_stay": "the end of the permitted stay"}[*x.Value.CountedFrom]
		}
		out = append(out, templates.Rule{Name: "Passport validity", Text: x.Value.Text, Detail: d + ".", Source: citation(x.Source)})
	}
	if x := er.BlankPages; x != nil {
		out = append(out, templates.Rule{Name: "Blank pages", Text: x.Value.Text, Detail: itoa(x.Value.Pages) + " blank pages.", Source: citation(x.Source)})
	}
	if x := er.OnwardTicket; x != nil {
		d := map[string]string{entrycheck.OnwardRequired: "Required.", entrycheck.OnwardMayBeAsked: "May be asked for.", entrycheck.OnwardNotRequired: "Not required."}[x.Value.Required]
		out = append(out, templates.Rule{Name: "Onward or return ticket", Text: x.Value.Text, Detail: d, Source: citation(x.Source)})
	}
	if x := er.YellowFever; x != nil {
		out = append(out, templates.Rule{Name: "Yellow fever", Text: x.Value.Text, Detail: x.AppliesBecause, Source: citation(x.Source)})
	}
	if x := er.OtherHealth; x != nil {
		for _, h := range x.Value {
			out = append(out, templates.Rule{Name: "Health: " + h.Topic, Text: h.Text, Source: citation(x.Source)})
		}
	}
	if x := er.TWOV; x != nil {
		for _, p := range x.Value {
			d := ""
			if p.MaxHours != nil {
				d = "Up to " + itoa(*p.MaxHours) + " hours."
			}
			out = append(out, templates.Rule{Name: "Transit without visa: " + p.Program, Text: p.Text, Detail: d, Source: citation(x.Source)})
		}
	}
	if x := er.ResidencePermitExemptions; x != nil {
		for _, e := range x.Value {
			d := "Holders of a " + e.Document + " of " + joinCodes(e.HoldersOf) + ": " + e.Effect.Label()
			if e.MaxStayDays.Valid {
				d += ", up to " + itoa(e.MaxStayDays.N) + " days"
			}
			out = append(out, templates.Rule{Name: "Exemption for holders of other documents", Text: e.Text, Detail: d + ".", Source: citation(x.Source)})
		}
	}
	return out
}

func joinCodes(codes []string) string {
	out := ""
	for i, c := range codes {
		if i > 0 {
			out += ", "
		}
		out += c
	}
	return out
}

// breadcrumbLD is schema.org BreadcrumbList structured data.
func breadcrumbLD(base string, crumbs []templates.Link, last, path string) string {
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
	b, _ := json.Marshal(map[string]any{"@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items})
	return string(b)
}
