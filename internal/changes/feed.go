package changes

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"strings"
	"time"
)

// MaxVerificationDays is the number of days the current /changes.json
// counts; each archive counts the days of its month.
const MaxVerificationDays = 400

// ChangesFeedVersion is the feed_version of /changes.json, raised when a
// member is removed or changes meaning (new members do not raise it).
// Version 2 pages the events by month (RFC 5005 archives) instead of
// leaving the older ones out.
const ChangesFeedVersion = 2

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

// JSONArchivePath is the path of the archive of /changes.json for a month:
// /changes/2025-01.json beside /changes.json.
func (s FeedSite) JSONArchivePath(period string) string {
	return archivePath(cmp.Or(s.JSONPath, DefaultJSONPath), period)
}

// AtomArchivePath is the path of the Atom feed's archive for a month:
// /feeds/changes/2025-01.atom beside /feeds/changes.atom.
func (s FeedSite) AtomArchivePath(period string) string {
	return archivePath(cmp.Or(s.AtomPath, DefaultAtomPath), period)
}

// archivePath puts a month's archive in a directory named after the
// current document: /a/b.ext gives /a/b/{period}.ext.
func archivePath(current, period string) string {
	ext := path.Ext(current)
	return strings.TrimSuffix(current, ext) + "/" + period + ext
}

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

// Document is one file of the feeds: its path from the site root and its bytes.
type Document struct {
	Path string
	Body []byte
}

// Documents renders every document of both feeds from the whole event log
// (in any order): /changes.json, the Atom feed and their monthly archives
// (see paginate). The same events give the same bytes.
func Documents(site FeedSite, events []Event) ([]Document, error) {
	js, err := jsonDocuments(site, events)
	if err != nil {
		return nil, err
	}
	atom, err := atomDocuments(site, events)
	if err != nil {
		return nil, err
	}
	return append(js, atom...), nil
}
