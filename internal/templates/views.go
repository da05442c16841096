// Package templates holds the site's templ components, its stylesheet and
// script, its markdown renderings and the view models they receive. A view
// model is fully computed by the generator: templates only present it.
//
// It depends on nothing of this module but the domain package and the
// words of each language (internal/locale).
package templates

import "github.com/entrycheck/entrycheck/internal/locale"

// Page is what every page carries.
type Page struct {
	Title       string
	Description string
	// Path is the page's path from the site root, e.g. "/passports/deu/tha/".
	Path string
	// BaseURL is the site's public base, without a trailing slash.
	BaseURL string
	// Markdown is the path of the page's markdown variant, "" when none.
	Markdown string
	// JSONLD is the page's structured data, already encoded, "" when none.
	JSONLD string
	// Stylesheet, Script and Icon (the favicon) are the content-hashed
	// asset paths.
	Stylesheet string
	Script     string
	Icon       string
	// Breadcrumbs lead from the home page to this one.
	Breadcrumbs []Link
	// Image is the picture link previews show, none when its URL is "".
	Image Image
	// W is the catalog of the page's language, whose words its chrome
	// reads; Alternates is the page in every language it is published in,
	// its own included (hreflang links and the language switcher).
	W          *locale.Catalog
	Alternates []Alternate
	// Offers are the page in other languages, offered to a visitor whose
	// browser prefers one of them (the English home page's notice, which
	// the site's script shows); none elsewhere.
	Offers []Offer
}

// Offer is a link to the page in one language, in the words of that
// language ("Leer esta página en español").
type Offer struct {
	Lang locale.Language
	Path string
	Text string
}

// Alternate is a page in one language.
type Alternate struct {
	Lang locale.Language
	Path string
}

// Lang is the page's language tag, as <html lang> and hreflang write it.
func (p Page) Lang() string { return p.words().Tag.String() }

// Dir is the page's writing direction.
func (p Page) Dir() string { return p.words().Dir() }

// T is a message of the page's language (locale.Catalog.Text).
func (p Page) T(id string, args ...string) string { return p.words().Text(id, args...) }

// Local is the address of the page of path (its English address) in the
// page's language: a translated page links to translated pages.
func (p Page) Local(path string) string { return LocalPath(p.words().Code, path) }

// LocalPath is the address of the page of path (its English address) in
// the language code: English pages keep their addresses, the others live
// under /{code}/.
func LocalPath(code, path string) string {
	if code == locale.English {
		return path
	}
	return "/" + code + path
}

// words is the page's catalog: English for a page that names none (those
// the API renders, such as /go's suggestions).
func (p Page) words() *locale.Catalog {
	if p.W == nil {
		return locale.Embedded().English()
	}
	return p.W
}

// SiteName names the site in link previews and structured data.
const SiteName = "entrycheck"

// Image is a published picture with its size in pixels and its text alternative.
type Image struct {
	URL           string // absolute
	Alt           string
	Width, Height int
}

// Canonical is the page's absolute URL.
func (p Page) Canonical() string { return p.BaseURL + p.Path }

// Link is a labelled internal or external link.
type Link struct {
	Label string
	URL   string
}

// Citation is a source as shown to people.
type Citation struct {
	// Label heads the citation ("Source"), in the page's language.
	Label string
	Name  string
	URL   string
	// Read is the short line of provenance after the name: the day the
	// page was read, how, and its own date (entrycheck.Citation.ReadText):
	// "read 23 November 2026 from a stored copy of unknown date".
	Read string
}

// Rule is one cited entry rule.
type Rule struct {
	Name string
	// Named is the part of Name the curators recorded in English (a
	// programme's or a form's name), on a page in another language; ""
	// otherwise.
	Named string
	// Text is the answer's own words about the rule, then Cited, the
	// source's words.
	Text   string
	Cited  Quote
	Detail string // a computed line such as "applies to this passport"
	// URL is the official page of the item itself (an arrival card's
	// form), "" when it has none.
	URL    string
	Source Citation
}

// Apply is an official place to obtain the required document.
type Apply struct {
	URL  string
	Kind string
	// Note is the curators' note on the place, in English; For names the
	// requirements it serves, in the page's language ("" on a route page,
	// which shows the place of its own requirement).
	Note   Quote
	For    string
	Source Citation
}

// Statement is a curated official statement about a route's requirement.
// Label heads it with how it bears on the verdict on the build day
// ("Official statement, in force, from 1 January 2026; conflicts with the
// matrix").
type Statement struct {
	ID    string
	Label string
	// Text is empty for an ended statement, which the page only names.
	Text   Quote
	Source Citation
}

// Quote is a source's words as the curators recorded them, in English: a
// page in another language marks them with Lang ("en") and says so in
// Note; on an English page both are empty.
type Quote struct {
	Text, Lang, Note string
}

// Verification is a verification state as shown to people.
type Verification struct {
	Status string
	Note   string
}

// RouteView is the page of one passport and destination.
type RouteView struct {
	Page
	Passport, Destination Link
	PassportISO3          string
	DestinationISO3       string
	Requirement           string
	RequirementLabel      string
	// Tone is the requirement's colour and icon: ok, act, no or unknown.
	Tone string
	// AsOf is the date the verdict is as of: the matrix snapshot's, "17 February 2026".
	AsOf        string
	Stay        string // "60 days", "no fixed limit", ""
	Action      string
	ActionText  string
	Apply       *Apply
	Verdict     Verification
	Statements  []Statement
	MatrixValue string
	// SourceBefore and SourceAfter are the words around SourceName that
	// give the verdict's provenance (entrycheck.SourceWords).
	SourceBefore, SourceAfter string
	// SourceValue is the part of SourceAfter that is the table's own
	// value, on a page in another language; "" otherwise.
	SourceValue           string
	SourceName, SourceURL string
	// Since says since which snapshot the verdict holds.
	Since string
	// Rules are what the sources give for this passport; Others what
	// official pages say for other passports or other nationals, apart.
	Rules  []Rule
	Others []Rule
	// NextStep says where to apply when no official page to apply on is
	// curated and the verdict is a visa (ApplyAtEmbassyWords), "" otherwise.
	NextStep     string
	Coverage     string
	RulesState   Verification
	LastVerified string
	// NotCited names the destination's entry rules no official source
	// covers yet; Authorities are the official pages the curators found for
	// the destination, where a traveller reads them.
	NotCited    []string
	Authorities []Link
	APIURL      string
	Disclaimer  string
}

// RouteEntry is one destination on a passport page.
type RouteEntry struct {
	Link
	Stay string
	// Corroborated is LabelCorroborated when an official statement in
	// force agrees with the verdict, empty otherwise.
	Corroborated string
}

// RequirementGroup lists the destinations of one requirement.
type RequirementGroup struct {
	Requirement string
	Label       string
	Entries     []RouteEntry
}

// PassportView is the page of one passport: its whole matrix.
type PassportView struct {
	Page
	Country Link
	ISO3    string
	Groups  []RequirementGroup
	Map     WorldMap
	Total   int
	AsOf    string // the date of the verdicts, "17 February 2026"
	// Old says that the verdicts are old and must be confirmed
	// (entrycheck.OldVerdictsWords), empty while they are not.
	Old        string
	Disclaimer string
	// Countries are the destinations the search form offers.
	Countries []CountryOption
}

// DestinationView is the page of one destination: its cited entry rules.
type DestinationView struct {
	Page
	Country      Link
	ISO3         string
	Covered      bool
	Coverage     string
	RulesState   Verification
	LastVerified string
	Rules        []Rule
	// NotCited and Authorities are as on a route page.
	NotCited    []string
	Authorities []Link
	Apply       []Apply
	Counts      []Count
	Map         WorldMap
	AsOf        string // the date of the verdicts counted in Counts
	Disclaimer  string
}

// Count is a labelled number.
type Count struct {
	Label string
	N     int
	URL   string
}

// IndexView lists countries, for the passport and destination indexes,
// with a filter by name that the site's script shows (the list is whole
// without it).
type IndexView struct {
	Page
	Heading string
	Intro   string
	Items   []IndexEntry
	// Filter labels the filter's input ("Filter by name"); NoMatch is said
	// when nothing matches what was typed.
	Filter, NoMatch string
	// Mark names what the marked items have ("cited entry rules"), Marked
	// says how many have it and offers to show only those; both are ""
	// when no item is marked.
	Mark, Marked, OnlyMarked string
}

// IndexEntry is one country of an index; Marked when it has what the
// index's Mark names.
type IndexEntry struct {
	Link
	Marked bool
}

// HomeView is the home page.
type HomeView struct {
	Page
	Countries      []CountryOption // for the search form
	DatasetVersion string
	Routes         int
	Curated        int
	Disclaimer     string
}

// TransparencyView is the coverage, citation and freshness report.
type TransparencyView struct {
	Page
	DatasetVersion string
	// Matrix says how old the matrix is on the build day and what an old
	// verdict is.
	Matrix       MatrixAge
	Coverage     []Count
	Requirements []Count
	Sources      []Count
	// Freshness counts the curated destinations by the age of their entry
	// rules' verification; RulesStates by their verification status, as
	// answers give both.
	Freshness   []Count
	RulesStates []Count
	NeedsReview []Link
	// Publishers counts the cited pages by who publishes them; Readings by
	// how they were read (confirmed on the live page, stored copies only,
	// not recorded as live); Dated by whether the page gives its own date.
	Publishers []Count
	Readings   []Count
	Dated      []Count
	Citations  int
	StaleAfter int
	Checks     SourceChecks
	// Official compares the official statements with the matrix on the
	// build day.
	Official Corroboration
}

// Corroboration is the official statements compared with the matrix on one
// day: routes corroborated and in conflict, in total and per statement.
type Corroboration struct {
	Day          string // "27 November 2026"
	Corroborated int
	Conflicting  int
	Statements   []StatementRow
	// Conflicts link each conflicting route's page, labelled with what the
	// statement and the matrix say.
	Conflicts []Link
}

// StatementRow is one official statement's tally on the report's day.
type StatementRow struct {
	Statement   Link // the statement's id, linking its source
	Destination Link
	Requirement string
	Status      string // "in force", "upcoming", "ended"
	Routes      int
	Agreeing    int
	Conflicting int
}

// MatrixAge is the date and age of the matrix snapshot every verdict comes from.
type MatrixAge struct {
	AsOf         string // "17 February 2026"
	AgeDays      int
	OldAfterDays int
	Old          bool
	SourceName   string
	SourceURL    string
}

// DocumentView is a page rendered from markdown (the agent authentication guide).
type DocumentView struct {
	Page
	HTML string // trusted: rendered by goldmark from the project's own markdown
}

// WidgetView is the page of the embeddable checker.
type WidgetView struct {
	Page
	Snippet string
	// PinnedScript loads one version of the checker, checked by the
	// browser against its integrity digest; empty when the build has none.
	PinnedScript string
	// CSP is what an embedding page's Content-Security-Policy must allow.
	CSP string
	// Languages are those the checker speaks (data-lang), English first.
	Languages []locale.Language
}

// listEnd ends item i of a list of n that ends a sentence: a comma and a
// space, and a full stop after the last.
func listEnd(i, n int) string {
	if i == n-1 {
		return "."
	}
	return ", "
}
