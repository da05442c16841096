package templates

import (
	"bytes"
	"fmt"
	"strings"
)

// The markdown variants of the content pages, for language models and
// other readers that want the text without the markup. They carry the same
// facts as the HTML pages, in the same order.

type md struct{ bytes.Buffer }

func (m *md) line(format string, args ...any) {
	fmt.Fprintf(&m.Buffer, format, args...)
	m.WriteByte('\n')
}

func (m *md) cite(c Citation) string {
	return fmt.Sprintf("Source: [%s](%s), read %s", escapeMD(c.Name), c.URL, c.RetrievedAt)
}

func (m *md) rules(rs []Rule) {
	if len(rs) == 0 {
		m.line("No entry rule could be sourced from an official page yet. Nothing is guessed: check with the official authority.\n")
		return
	}
	for _, r := range rs {
		m.line("- **%s**: %s", r.Name, escapeMD(r.Text))
		if r.Detail != "" {
			m.line("  %s", escapeMD(r.Detail))
		}
		m.line("  %s", m.cite(r.Source))
	}
	m.line("")
}

// mdEscaper keeps text from being read as markup; built once, it is safe
// for concurrent use.
var mdEscaper = strings.NewReplacer("*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "`", "\\`", "<", "&lt;")

func escapeMD(s string) string { return mdEscaper.Replace(s) }

// RouteMarkdown is the markdown variant of a route page.
func RouteMarkdown(v RouteView) []byte {
	var m md
	m.line("# %s passport to %s\n", v.Passport.Label, v.Destination.Label)
	m.line("**%s**", v.RequirementLabel)
	if v.Stay != "" {
		m.line("Allowed stay: %s", v.Stay)
	}
	m.line("\n%s\n", v.ActionText)
	if v.Apply != nil {
		m.line("Apply: [%s](%s). %s %s\n", v.Apply.Kind, v.Apply.URL, escapeMD(v.Apply.Note), m.cite(v.Apply.Source))
	}
	m.line("## Where the verdict comes from\n")
	m.line("Verdict: `%s`. %s\n", v.Verdict.Status, v.Verdict.Note)
	for _, s := range v.Statements {
		kind := "conflicts"
		if s.Agrees {
			kind = "agrees"
		}
		m.line("- Official statement (%s): %s %s", kind, escapeMD(s.Text), m.cite(s.Source))
	}
	m.line("Matrix value `%s` in the [%s](%s); %s.\n", v.MatrixValue, v.SourceName, v.SourceURL, v.Since)
	m.line("## Entry rules of %s\n", v.Destination.Label)
	m.line("Entry rules: `%s`. %s Coverage `%s`; last verified %s.\n", v.RulesState.Status, v.RulesState.Note, v.Coverage, v.LastVerified)
	m.rules(v.Rules)
	m.line("More: [all entry rules of %s](%s), [every destination for %s passports](%s), [this answer as JSON](%s).\n", v.Destination.Label, v.Destination.URL, v.Passport.Label, v.Passport.URL, v.APIURL)
	m.line("_%s_", escapeMD(v.Disclaimer))
	return m.Bytes()
}

// PassportMarkdown is the markdown variant of a passport page.
func PassportMarkdown(v PassportView) []byte {
	var m md
	m.line("# %s passport: entry requirements\n", v.Country.Label)
	m.line("The requirement for holders of an ordinary %s passport in each of %d destinations, from the secondary visa matrix.\n", v.Country.Label, v.Total)
	for _, g := range v.Groups {
		m.line("## %s (%d)\n", g.Label, len(g.Entries))
		for _, e := range g.Entries {
			if e.Stay != "" {
				m.line("- [%s](%s): %s", e.Label, e.URL, e.Stay)
			} else {
				m.line("- [%s](%s)", e.Label, e.URL)
			}
		}
		m.line("")
	}
	m.line("_%s_", escapeMD(v.Disclaimer))
	return m.Bytes()
}

// DestinationMarkdown is the markdown variant of a destination page.
func DestinationMarkdown(v DestinationView) []byte {
	var m md
	m.line("# Entry rules of %s\n", v.Country.Label)
	m.line("Entry rules: `%s`. %s Coverage `%s`; last verified %s.\n", v.RulesState.Status, v.RulesState.Note, v.Coverage, v.LastVerified)
	m.line("## Rules\n")
	m.rules(v.Rules)
	m.line("## Official application portals\n")
	if len(v.Apply) == 0 {
		m.line("No official portal has been curated for %s.\n", v.Country.Label)
	}
	for _, a := range v.Apply {
		m.line("- [%s](%s): %s %s", a.Kind, a.URL, escapeMD(a.Note), m.cite(a.Source))
	}
	m.line("\n## Requirements by passport\n")
	for _, c := range v.Counts {
		m.line("- %s: %d passports", c.Label, c.N)
	}
	if v.Notes != "" {
		m.line("\n## Curators' notes\n\n%s", escapeMD(v.Notes))
	}
	m.line("\n_%s_", escapeMD(v.Disclaimer))
	return m.Bytes()
}

// IndexMarkdown is the markdown variant of a country index.
func IndexMarkdown(v IndexView) []byte {
	var m md
	m.line("# %s\n\n%s\n", v.Heading, v.Intro)
	for _, e := range v.Items {
		m.line("- [%s](%s)", e.Label, e.URL)
	}
	return m.Bytes()
}

// HomeMarkdown is the markdown variant of the home page.
func HomeMarkdown(v HomeView) []byte {
	var m md
	m.line("# entrycheck: entry requirements by passport, every fact cited\n")
	m.line("entrycheck answers whether a holder of a passport may enter a country, under which requirement, with the destination's entry rules, each with the official source it was read from. %d routes; %d destinations with curated rules; matrix snapshot %s.\n", v.Routes, v.Curated, v.DatasetVersion)
	m.line("- [Passports](/passports/)\n- [Destinations](/destinations/)\n- [Transparency](/transparency/)\n- [API and agent authentication](/auth.md)\n- [OpenAPI](/openapi.json)\n- [llms-full.txt](/llms-full.txt)\n")
	m.line("_%s_", escapeMD(v.Disclaimer))
	return m.Bytes()
}

// TransparencyMarkdown is the markdown variant of the transparency page.
func TransparencyMarkdown(v TransparencyView) []byte {
	var m md
	m.line("# Transparency\n")
	m.line("Matrix snapshot %s; %d citations of official sources. Entry rules are stale when their oldest source is more than %d days old.\n", v.DatasetVersion, v.Citations, v.StaleAfter)
	for _, t := range []struct {
		title string
		rows  []Count
	}{{"Coverage of destinations", v.Coverage}, {"Routes by requirement", v.Requirements}, {"Freshness of curated destinations", v.Freshness}, {"Citations by source", v.Sources}} {
		m.line("## %s\n", t.title)
		for _, r := range t.rows {
			m.line("- %s: %d", escapeMD(r.Label), r.N)
		}
		m.line("")
	}
	m.line("## Routes that need review\n")
	for _, l := range v.NeedsReview {
		m.line("- [%s](%s)", l.Label, l.URL)
	}
	return m.Bytes()
}

// WidgetMarkdown is the markdown variant of the widget page.
func WidgetMarkdown(v WidgetView) []byte {
	var m md
	m.line("# Embed the checker\n")
	m.line("Free for any site while the attribution link stays visible. Paste:\n\n```html\n%s\n```\n", v.Snippet)
	m.line("Optional attributes: `data-theme` (light or dark), `data-passport` and `data-destination` (ISO 3166-1 alpha-3; with both set the checker answers at once).\n")
	m.line("A page with a Content-Security-Policy must allow:\n\n```\n%s\n```\n", v.CSP)
	m.line("Each check counts against the visitor's daily free limit and the worldwide daily ceiling shared by the site, the API and every embedded checker; when a limit is reached the checker links to the answer's page on this site.")
	return m.Bytes()
}
