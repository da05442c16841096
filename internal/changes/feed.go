package changes

import (
	"bytes"
	"cmp"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/feeds"
)

// Feed bounds: each feed carries the newest events only and says how many
// it left out. The event log itself keeps everything.
const (
	// MaxJSONEvents is the number of events /changes.json carries.
	MaxJSONEvents = 2000
	// MaxAtomEntries is the number of entries the Atom feed carries.
	MaxAtomEntries = 500
	// MaxVerificationDays is the number of days /changes.json counts.
	MaxVerificationDays = 400
)

// ChangesFeedVersion is the feed_version of /changes.json, raised when a
// member is removed or changes meaning (new members do not raise it).
const ChangesFeedVersion = 1

// Default paths and names of a FeedSite.
const (
	DefaultJSONPath = "/changes.json"
	DefaultAtomPath = "/feeds/changes.atom"
	DefaultSiteName = "entrycheck"
)

// FeedSite is where the feeds are published and where their events link to.
// Only BaseURL is required; it comes from configuration.
type FeedSite struct {
	// BaseURL is the public root of the site, such as
	// "https://entrycheck.example" (a trailing slash is ignored).
	BaseURL string
	// Name titles the feeds and authors the Atom feed (DefaultSiteName).
	Name string
	// DatasetVersion is the dataset version the site is built from, served
	// as dataset_version; when empty, the newest event's.
	DatasetVersion string
	// JSONPath and AtomPath are the paths of the two feeds
	// (DefaultJSONPath, DefaultAtomPath).
	JSONPath, AtomPath string
	// RoutePath is the path of a route page given upper-case ISO3 codes;
	// by default /passports/{passport}/{destination}/ in lower case.
	RoutePath func(passport, destination string) string
	// DestinationPath is the path of a destination page; by default
	// /destinations/{iso3}/ in lower case.
	DestinationPath func(destination string) string
}

func (s FeedSite) base() string { return strings.TrimRight(s.BaseURL, "/") }

func (s FeedSite) name() string { return cmp.Or(s.Name, DefaultSiteName) }

// HomeURL is the site's home page.
func (s FeedSite) HomeURL() string { return s.base() + "/" }

// JSONURL is the URL of /changes.json.
func (s FeedSite) JSONURL() string { return s.base() + cmp.Or(s.JSONPath, DefaultJSONPath) }

// AtomURL is the URL of the Atom feed.
func (s FeedSite) AtomURL() string { return s.base() + cmp.Or(s.AtomPath, DefaultAtomPath) }

// RouteURL is the page of the route from passport to destination.
func (s FeedSite) RouteURL(passport, destination string) string {
	if s.RoutePath != nil {
		return s.base() + s.RoutePath(passport, destination)
	}
	return s.base() + "/passports/" + strings.ToLower(passport) + "/" + strings.ToLower(destination) + "/"
}

// DestinationURL is the page of a destination.
func (s FeedSite) DestinationURL(destination string) string {
	if s.DestinationPath != nil {
		return s.base() + s.DestinationPath(destination)
	}
	return s.base() + "/destinations/" + strings.ToLower(destination) + "/"
}

// EventURL is the page an event is about: the route page for an event about
// one route, the destination page for an event about one destination, the
// transparency page for other verification events, the home page otherwise.
func (s FeedSite) EventURL(e Event) string {
	if p, d, ok := e.route(); ok {
		return s.RouteURL(p, d)
	}
	if len(e.Destinations) == 1 {
		return s.DestinationURL(e.Destinations[0])
	}
	if verificationKinds[e.Kind] {
		return s.TransparencyURL()
	}
	return s.HomeURL()
}

// TransparencyURL is the transparency page, which lists the sources
// currently flagged and the verification activity.
func (s FeedSite) TransparencyURL() string { return s.base() + "/transparency/" }

func (s FeedSite) validate() error {
	u, err := url.Parse(s.BaseURL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("feed base URL %q: want an absolute http(s) URL such as https://entrycheck.example", s.BaseURL)
	}
	return nil
}

// ChangesFeed is the document served as /changes.json: the verification
// activity feed, newest event first. It holds the newest MaxJSONEvents
// events of those it was given; TotalEvents, OmittedEvents and Counts
// describe all of them.
type ChangesFeed struct {
	FeedVersion int    `json:"feed_version"`
	Title       string `json:"title"`
	HomePageURL string `json:"home_page_url"`
	FeedURL     string `json:"feed_url"`
	AtomURL     string `json:"atom_url"`
	// DatasetVersion is the site's dataset version (or the newest event's).
	DatasetVersion string `json:"dataset_version"`
	// GeneratedAt is the newest event's time, not the wall clock, so the
	// same events give the same bytes; with no events, the dataset version's
	// date at 00:00 UTC, or null.
	GeneratedAt *time.Time `json:"generated_at"`
	// EventsLimit is MaxJSONEvents.
	EventsLimit   int `json:"events_limit"`
	TotalEvents   int `json:"total_events"`
	OmittedEvents int `json:"omitted_events"`
	// Counts are the number of events of each kind, over all TotalEvents.
	Counts map[string]int `json:"counts"`
	// VerificationDays counts the daily readings of cited sources by
	// outcome, newest day first (at most MaxVerificationDays). The routine
	// source_reverified and source_baselined events are counted there and
	// in Counts, not listed in Events, so that the daily re-reading of every
	// source does not push rule changes out of the feed.
	VerificationDays []VerificationDay `json:"verification_days"`
	Events           []FeedEvent       `json:"events"`
}

// FeedEvent is an event of /changes.json: the Event and the page it is about.
type FeedEvent struct {
	ID             string          `json:"id"`
	Kind           string          `json:"kind"`
	Time           time.Time       `json:"time"`
	DatasetVersion string          `json:"dataset_version"`
	Destinations   []string        `json:"destinations"`
	Fields         []string        `json:"fields"`
	Summary        string          `json:"summary"`
	URL            string          `json:"url"`
	Details        json.RawMessage `json:"details"`
}

// FeedJSON renders /changes.json from events (in any order; pass the whole
// log, or at least its newest MaxJSONEvents, for the counts to be complete).
// The same events give the same bytes.
func FeedJSON(site FeedSite, events []Event) ([]byte, error) {
	if err := site.validate(); err != nil {
		return nil, err
	}
	all := sorted(events)
	listed := make([]Event, 0, len(all))
	for _, e := range all {
		if !routine[e.Kind] {
			listed = append(listed, e)
		}
	}
	kept := listed[:min(len(listed), MaxJSONEvents)]
	days := VerificationDays(all)
	f := ChangesFeed{
		FeedVersion:      ChangesFeedVersion,
		Title:            site.name() + ": verification activity",
		HomePageURL:      site.HomeURL(),
		FeedURL:          site.JSONURL(),
		AtomURL:          site.AtomURL(),
		DatasetVersion:   datasetVersion(site, all),
		EventsLimit:      MaxJSONEvents,
		TotalEvents:      len(all),
		OmittedEvents:    len(listed) - len(kept),
		Counts:           map[string]int{},
		VerificationDays: days[:min(len(days), MaxVerificationDays)],
		Events:           make([]FeedEvent, 0, len(kept)),
	}
	if t, ok := updated(site, all); ok {
		f.GeneratedAt = &t
	}
	for _, e := range all {
		f.Counts[e.Kind]++
	}
	for _, e := range kept {
		f.Events = append(f.Events, FeedEvent{
			ID:             e.ID,
			Kind:           e.Kind,
			Time:           e.Time.UTC(),
			DatasetVersion: e.DatasetVersion,
			Destinations:   orEmpty(e.Destinations),
			Fields:         orEmpty(e.Fields),
			Summary:        e.Summary,
			URL:            site.EventURL(e),
			Details:        detailsOrEmpty(e.Details),
		})
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(f); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", site.JSONURL(), err)
	}
	return b.Bytes(), nil
}

// atomKinds are the event kinds the Atom feed lists one by one: rule
// changes and what the verification found wrong. The routine re-readings
// appear as one entry per day (see dayEntries).
var atomKinds = map[string]bool{
	KindMatrixRuleChanged: true,
	KindSourceChanged:     true,
	KindSourceUnreachable: true,
	KindRuleFlagged:       true,
	KindReviewAccepted:    true,
	KindReviewRejected:    true,
}

// FeedAtom renders the Atom feed of rule changes: the events of a rule-change
// kind (today matrix_rule_changed), newest first, at most MaxAtomEntries of
// them; the subtitle says how many older ones were left out. The feed id is
// the feed's URL; an entry's id is a tag URI of the site's host, the event's
// date and its id ("tag:entrycheck.example,2025-01-12:matrix/2025-01-12/DEU-THA"),
// stable as long as the host is. Entries link to the route page and are
// titled with the event's summary. The same events give the same bytes.
func FeedAtom(site FeedSite, events []Event) ([]byte, error) {
	if err := site.validate(); err != nil {
		return nil, err
	}
	var changes []Event
	for _, e := range sorted(events) {
		if atomKinds[e.Kind] {
			changes = append(changes, e)
		}
	}
	changes = sorted(append(changes, dayEntries(site, events)...))
	kept := changes[:min(len(changes), MaxAtomEntries)]
	at, ok := updated(site, changes)
	if !ok {
		return nil, fmt.Errorf("rendering %s: no events and no dataset version to date the feed by", site.AtomURL())
	}
	u, _ := url.Parse(site.BaseURL)
	host := strings.ToLower(u.Hostname())

	f := &feeds.Feed{
		Title:   site.name() + ": entry-rule changes and source verification",
		Link:    &feeds.Link{Href: site.HomeURL()},
		Author:  &feeds.Author{Name: site.name()},
		Updated: at,
	}
	switch omitted := len(changes) - len(kept); {
	case len(changes) == 0:
		f.Description = "Changes to entry requirements and the daily verification of cited sources, newest first. None recorded yet."
	case omitted == 0:
		f.Description = fmt.Sprintf("Changes to entry requirements and the daily verification of cited sources, newest first: all %d.", len(changes))
	default:
		f.Description = fmt.Sprintf("Changes to entry requirements and the daily verification of cited sources, newest first: the newest %d of %d; %d older ones are left out (see %s).", len(kept), len(changes), omitted, site.JSONURL())
	}
	for _, e := range kept {
		f.Add(&feeds.Item{
			Id:          "tag:" + host + "," + e.Time.UTC().Format(time.DateOnly) + ":" + e.ID,
			Title:       e.Summary,
			Link:        &feeds.Link{Href: site.EventURL(e)},
			Updated:     e.Time.UTC(),
			Description: htmlText.Replace(entryText(e)),
		})
	}
	generic := (&feeds.Atom{Feed: f}).AtomFeed()
	doc := &atomDocument{
		Xmlns:    generic.Xmlns,
		Title:    generic.Title,
		Subtitle: generic.Subtitle,
		ID:       site.AtomURL(),
		Updated:  generic.Updated,
		Links: []feeds.AtomLink{
			{Href: site.HomeURL(), Rel: "alternate", Type: "text/html"},
			{Href: site.AtomURL(), Rel: "self", Type: "application/atom+xml"},
		},
		Author:  generic.Author,
		Entries: generic.Entries,
	}
	s, err := feeds.ToXML(doc)
	if err != nil {
		return nil, fmt.Errorf("rendering %s: %w", site.AtomURL(), err)
	}
	return []byte(s + "\n"), nil
}

// atomDocument is gorilla/feeds' Atom feed with both the alternate and the
// self link, which its AtomFeed cannot hold, and an id of our choosing (it
// uses the link).
type atomDocument struct {
	XMLName  xml.Name `xml:"feed"`
	Xmlns    string   `xml:"xmlns,attr"`
	Title    string   `xml:"title"`
	Subtitle string   `xml:"subtitle,omitempty"`
	ID       string   `xml:"id"`
	Updated  string   `xml:"updated"`
	Links    []feeds.AtomLink
	Author   *feeds.AtomAuthor
	Entries  []*feeds.AtomEntry
}

// FeedXml lets feeds.ToXML render the document.
func (d *atomDocument) FeedXml() any { return d }

// htmlText escapes plain text for gorilla/feeds' summaries, which are
// type="html" (quotes need no escaping in HTML text).
var htmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// entryText is the plain-text body of an Atom entry.
func entryText(e Event) string {
	if e.Kind != KindMatrixRuleChanged {
		return verificationText(e)
	}
	var c RuleChange
	if err := json.Unmarshal(e.Details, &c); err != nil {
		return e.Summary
	}
	return fmt.Sprintf("%s. Secondary visa matrix, snapshot %s compared with %s: %s (matrix value %q) became %s (matrix value %q). Confirm with the destination's official authority before travelling.",
		e.Summary, e.DatasetVersion, c.PreviousVersion, describe(c.From), c.From.MatrixValue, describe(c.To), c.To.MatrixValue)
}

// datasetVersion is the site's dataset version, or the newest event's.
func datasetVersion(site FeedSite, newestFirst []Event) string {
	if site.DatasetVersion != "" || len(newestFirst) == 0 {
		return site.DatasetVersion
	}
	return newestFirst[0].DatasetVersion
}

// updated dates a feed: its newest event, or with none the dataset
// version's date at 00:00 UTC.
func updated(site FeedSite, newestFirst []Event) (time.Time, bool) {
	if len(newestFirst) > 0 {
		return newestFirst[0].Time.UTC(), true
	}
	t, err := time.Parse(time.DateOnly, site.DatasetVersion)
	return t, err == nil
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func detailsOrEmpty(d json.RawMessage) json.RawMessage {
	if len(d) == 0 {
		return json.RawMessage("{}")
	}
	return d
}
