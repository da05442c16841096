package templates

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/entrycheck/entrycheck"
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
	return fmt.Sprintf("%s: [%s](%s), %s", entrycheck.LabelSource, escapeMD(c.Name), c.URL, c.Read)
}

func (m *md) rules(rs []Rule) {
	if len(rs) == 0 {
		return
	}
	for _, r := range rs {
		m.line("- **%s**: %s", r.Name, escapeMD(r.Text+r.Cited.Text))
		if r.Detail != "" {
			m.line("  %s", escapeMD(r.Detail))
		}
		if r.URL != "" {
			m.line("  <%s>", r.URL)
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
	m.line("# %s\n", entrycheck.RouteWords(v.Passport.Label, v.Destination.Label))
	m.line("**%s** (%s %s)", v.RequirementLabel, strings.ToLower(entrycheck.LabelAsOf.String()), v.AsOf)
	if v.Stay != "" {
		m.line("%s: %s", entrycheck.LabelAllowedStay, v.Stay)
	}
	m.line("\n%s\n", v.ActionText)
	for _, s := range v.Statements {
		if s.Text.Text == "" {
			m.line("%s. %s\n", s.Label, m.cite(s.Source))
			continue
		}
		m.line("%s. %s %s\n", s.Label, escapeMD(s.Text.Text), m.cite(s.Source))
	}
	if v.Apply != nil {
		m.line("[%s](%s): %s %s\n", v.Apply.Kind, v.Apply.URL, escapeMD(v.Apply.Note.Text), m.cite(v.Apply.Source))
	} else if v.NextStep != "" {
		m.line("**%s**\n", v.NextStep)
	}
	m.line("## %s\n", entrycheck.EntryRulesOf(entrycheck.English(), v.Destination.Label))
	m.line("%s. %s\n", sentence(v.RulesState.Status), v.RulesState.Note)
	m.rules(v.Rules)
	if len(v.Others) > 0 {
		m.line("### %s\n", entrycheck.LabelForOtherPassports)
		m.rules(v.Others)
	}
	m.knownAndNot(v.Destination.Label, v.NotCited, v.Authorities, len(v.Rules)+len(v.Others) > 0)
	m.line("## %s\n", entrycheck.LabelVerdictBasis)
	m.line("%s. %s\n", sentence(v.Verdict.Status), v.Verdict.Note)
	if v.MatrixValue != "" {
		m.line("%s: %s[%s](%s)%s; %s.\n", entrycheck.LabelSource, v.SourceBefore, escapeMD(v.SourceName), v.SourceURL, v.SourceAfter, v.Since)
	} else {
		m.line("%s: %s[%s](%s)%s.\n", entrycheck.LabelSource, v.SourceBefore, escapeMD(v.SourceName), v.SourceURL, v.SourceAfter)
	}
	m.line("More: [all entry rules of %s](%s), [%s](%s), [this answer as JSON](%s).\n", v.Destination.Label, v.Destination.URL, strings.ToLower(entrycheck.EveryDestinationWords(v.Passport.Label)), v.Passport.URL, v.APIURL)
	m.line("*%s*", escapeMD(v.Disclaimer))
	return m.Bytes()
}

// knownAndNot is the markdown of the knownAndNot component.
func (m *md) knownAndNot(destination string, notCited []string, authorities []Link, some bool) {
	if len(notCited) == 0 {
		return
	}
	if label, words := entrycheck.NotCitedWords(destination, notCited, some); label != "" {
		m.line("%s: %s\n", label, words)
	} else {
		m.line("%s\n", words)
	}
	if len(authorities) == 0 {
		m.line("Ask the embassy or consulate of %s in your country before you travel.\n", destination)
		return
	}
	m.line("Check them on the official pages:\n")
	for _, a := range authorities {
		m.line("- [%s](%s)", escapeMD(a.Label), a.URL)
	}
	m.line("")
}

// PassportMarkdown is the markdown variant of a passport page.
func PassportMarkdown(v PassportView) []byte {
	var m md
	m.line("# %s: entry requirements\n", entrycheck.PassportWords(v.Country.Label))
	m.line("The requirement for holders of an ordinary passport of %s in each of %d destinations, from a secondary visa table, as of %s.\n", v.Country.Label, v.Total, v.AsOf)
	if v.Old != "" {
		m.line("%s\n", v.Old)
	}
	for _, g := range v.Groups {
		m.line("## %s (%d)\n", g.Label, len(g.Entries))
		for _, e := range g.Entries {
			line := fmt.Sprintf("- [%s](%s)", e.Label, e.URL)
			if e.Stay != "" {
				line += ": " + e.Stay
			}
			if e.Corroborated != "" {
				line += " (" + entrycheck.InSentence(e.Corroborated) + ")"
			}
			m.line("%s", line)
		}
		m.line("")
	}
	m.line("*%s*", escapeMD(v.Disclaimer))
	return m.Bytes()
}

// DestinationMarkdown is the markdown variant of a destination page.
func DestinationMarkdown(v DestinationView) []byte {
	var m md
	m.line("# %s\n", entrycheck.EntryRulesOf(entrycheck.English(), v.Country.Label))
	m.line("%s. %s\n", sentence(v.RulesState.Status), v.RulesState.Note)
	m.line("## Rules\n")
	m.rules(v.Rules)
	m.knownAndNot(v.Country.Label, v.NotCited, v.Authorities, len(v.Rules) > 0)
	m.line("## Official application portals\n")
	if len(v.Apply) == 0 {
		m.line("No official portal has been curated for %s.\n", v.Country.Label)
	}
	for _, a := range v.Apply {
		m.line("- [%s](%s): %s %s", a.Kind, a.URL, escapeMD(a.Note.Text+" ("+a.For+")"), m.cite(a.Source))
	}
	m.line("\n## Requirements by passport\n\nFrom a secondary visa table, as of %s.\n", v.AsOf)
	for _, c := range v.Counts {
		m.line("- %s: %s", c.Label, entrycheck.Plural(c.N, "passport"))
	}
	m.line("\n*%s*", escapeMD(v.Disclaimer))
	return m.Bytes()
}

// IndexMarkdown is the markdown variant of a country index.
func IndexMarkdown(v IndexView) []byte {
	var m md
	m.line("# %s\n\n%s\n", v.Heading, v.Intro)
	if v.Marked != "" {
		m.line("%s\n", v.Marked)
	}
	for _, e := range v.Items {
		if e.Marked {
			m.line("- [%s](%s) (%s)", e.Label, e.URL, v.Mark)
		} else {
			m.line("- [%s](%s)", e.Label, e.URL)
		}
	}
	return m.Bytes()
}

// HomeMarkdown is the markdown variant of the home page.
func HomeMarkdown(v HomeView) []byte {
	var m md
	m.line("# entrycheck: entry requirements by passport, every fact cited\n")
	m.line("%s\n", escapeMD(homeIntro(v)))
	m.line("- [Passports](/passports/)\n- [Destinations](/destinations/)\n- [Transparency](/transparency/)\n- [API and agent authentication](/auth.md)\n- [OpenAPI](/openapi.json)\n- [llms-full.txt](/llms-full.txt)\n")
	m.line("*%s*", escapeMD(v.Disclaimer))
	return m.Bytes()
}

// TransparencyMarkdown is the markdown variant of the transparency page,
// with the same facts in the same order.
func TransparencyMarkdown(v TransparencyView) []byte {
	var m md
	m.line("# Transparency\n")
	m.line("Matrix snapshot %s; %d citations of official sources. A destination's entry rules are reported stale when the least recently verified of its records was last verified more than %d days ago, and while any of them was read only from a stored copy or not confirmed on the live page by a curator.\n", v.DatasetVersion, v.Citations, v.StaleAfter)
	m.line("## Age of the verdicts\n")
	m.line("Every verdict is as of %s, the date of the matrix snapshot ([%s](%s)): %d days old on the day of this build.", v.Matrix.AsOf, v.Matrix.SourceName, v.Matrix.SourceURL, v.Matrix.AgeDays)
	if v.Matrix.Old {
		m.line("That is more than %d days: every answer says its verdict is old and may have changed, and recommends confirming it with the destination's official authority.\n", v.Matrix.OldAfterDays)
	} else {
		m.line("Answers call a verdict old after %d days.\n", v.Matrix.OldAfterDays)
	}
	m.counts("Coverage of destinations", v.Coverage)
	m.counts("Routes by requirement", v.Requirements)
	m.counts("Freshness of curated destinations (days since their entry rules were last read by a curator or verified live)", v.Freshness)
	m.counts("Curated destinations by verification status of their entry rules", v.RulesStates)
	m.counts("Citations by source", v.Sources)
	m.counts("Cited pages by publisher", v.Publishers)
	m.counts("Cited pages by how they were read (verified only when read live)", v.Readings)
	m.counts("Cited pages by date", v.Dated)
	m.sourceChecks(v.Checks)
	m.line("## Sources flagged for review\n")
	if len(v.Checks.Flags) == 0 {
		m.line("None.\n")
	} else {
		m.line("The page a record cites changed after it was verified: the record awaits a curator, and answers report the destination's entry rules as needing review.\n")
	}
	for _, f := range v.Checks.Flags {
		line := fmt.Sprintf("- %s, `%s`: [%s](%s), flagged since %s (what changed: %s).", mdLink(v.Checks.Place(f.Record.Destination)), f.Record.Field, escapeMD(f.SourceName), f.Record.Source.URL, day(f.Since), escapeMD(f.Change))
		if f.Rejected {
			line += " **Rejected by a curator:** " + escapeMD(f.Note)
		}
		m.line("%s", line)
	}
	if len(v.Checks.Flags) > 0 {
		m.line("")
	}
	m.line("## Sources that could not be read\n")
	if len(v.Checks.Unreachable) == 0 {
		m.line("None.\n")
	} else {
		m.line("The records citing these pages keep their last verification date, which ages until the record is stale, %d days after it.\n", v.StaleAfter)
	}
	for _, u := range v.Checks.Unreachable {
		var dests []string
		for _, d := range v.Checks.CitedFor(u) {
			dests = append(dests, mdLink(d))
		}
		m.line("- [%s](%s): %s; unreadable since %s; cited for %s", escapeMD(u.Name), u.URL, escapeMD(u.Problem), day(u.Since), strings.Join(dests, ", "))
	}
	if len(v.Checks.Unreachable) > 0 {
		m.line("")
	}
	m.line("## Official statements and the matrix\n")
	m.line("%s\n", CorroborationSummary(v.Official))
	m.line("| Statement | Destination | Says | Status | Routes | Agrees | Contradicts |")
	m.line("| --- | --- | --- | --- | ---: | ---: | ---: |")
	for _, s := range v.Official.Statements {
		m.line("| [%s](%s) | [%s](%s) | %s | %s | %d | %d | %d |", s.Statement.Label, s.Statement.URL, s.Destination.Label, s.Destination.URL, s.Requirement, s.Status, s.Routes, s.Agreeing, s.Conflicting)
	}
	m.line("\n### Routes where an official statement contradicts the matrix\n")
	if len(v.Official.Conflicts) == 0 {
		m.line("None.\n")
	}
	for _, l := range v.Official.Conflicts {
		m.line("- [%s](%s)", escapeMD(l.Label), l.URL)
	}
	if len(v.Official.Conflicts) > 0 {
		m.line("")
	}
	m.line("## Routes that need review\n")
	if len(v.NeedsReview) == 0 {
		m.line("None.\n")
	}
	for _, l := range v.NeedsReview {
		m.line("- [%s](%s)", l.Label, l.URL)
	}
	if len(v.NeedsReview) > 0 {
		m.line("")
	}
	m.line("Changes are published in [changes.json](/changes.json) and the [Atom feed](/feeds/changes.atom).")
	return m.Bytes()
}

func (m *md) counts(title string, rows []Count) {
	m.line("## %s\n", title)
	for _, r := range rows {
		m.line("- %s: %d", escapeMD(r.Label), r.N)
	}
	m.line("")
}

func (m *md) sourceChecks(c SourceChecks) {
	m.line("## Daily verification of sources\n")
	m.line("For the operators of the sites we cite: our reader identifies itself as entrycheck-verifier (with a link to this page), reads each cited page at most once a day, obeys robots.txt, sends conditional requests, waits 2 seconds between two requests to the same site and backs off when a site answers 429 or 5xx.\n")
	if c.LastRun == nil {
		m.line("No verification run has been recorded yet: the verification dates are those on which the curators read the sources.\n")
		return
	}
	m.line("Every cited official page is read again daily. A page that still says what it said verifies the records citing it again; a page read for the first time gives the text later readings are compared with and verifies nothing yet; a changed page flags the records citing it for a curator; a page that cannot be read verifies nothing.\n")
	m.line("Last run, %s (%s), by outcome:\n", c.LastRunAt(), c.LastRun.ID)
	for _, r := range c.Outcomes() {
		m.line("- %s: %d", escapeMD(r.Label), r.N)
	}
	m.line("")
	if len(c.Days) > 0 {
		m.line("Readings by day, newest first:\n")
		m.line("| Day | Re-verified | First reading | Changed | Unreachable | Flagged | Reviewed |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
		for _, d := range c.Days {
			m.line("| %s | %d | %d | %d | %d | %d | %d |", d.Date, d.Reverified, d.Baselined, d.Changed, d.Unreachable, d.Flagged, d.Reviewed)
		}
		m.line("")
	}
	m.line("Each changed or unreachable source, flag and curator's review is published in [changes.json](/changes.json) and the [Atom feed](/feeds/changes.atom).\n")
}

// mdLink is a markdown link, or the label alone when it has no URL.
func mdLink(l Link) string {
	if l.URL == "" {
		return escapeMD(l.Label)
	}
	return "[" + escapeMD(l.Label) + "](" + l.URL + ")"
}

// WidgetMarkdown is the markdown variant of the widget page.
func WidgetMarkdown(v WidgetView) []byte {
	var m md
	m.line("# Embed the checker\n")
	m.line("Free for any site while the attribution link stays visible. Paste:\n\n```html\n%s\n```\n", v.Snippet)
	if v.PinnedScript != "" {
		m.line("`/embed.js` is always the current checker. To load exactly the version you reviewed, replace the script element with its content-addressed file and Subresource Integrity digest (it never changes):\n\n```html\n%s\n```\n", v.PinnedScript)
	}
	m.line("Optional attributes: `data-theme` (light or dark), `data-passport` and `data-destination` (ISO 3166-1 alpha-3 code or country name; with both set the checker answers at once from the passport's published matrix, /passports/deu/index.json, which spends no free check).\n")
	codes := make([]string, len(v.Languages))
	for i, l := range v.Languages {
		codes[i] = "`" + l.Code + "` (" + l.Name + ")"
	}
	m.line("`data-lang`: the checker's language, on its element or, for every checker, on the script element; a regional tag such as `pt-BR` is its language. Without it the checker speaks your page's language (its `lang` attribute), else the visitor's browser's; a language it does not speak is English. It speaks %s.\n", strings.Join(codes, ", "))
	m.line("A page with a Content-Security-Policy must allow:\n\n```\n%s\n```\n", v.CSP)
	m.line("Each check a visitor asks for with the form counts against the visitor's daily free limit and the worldwide daily ceiling shared by the site, the API and every embedded checker; when a limit is reached the checker links to the answer's page on this site.")
	return m.Bytes()
}
