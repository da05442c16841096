package changes

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/gorilla/feeds"
)

// atomKinds are the event kinds the Atom feed lists one by one: what the
// verification found wrong and the curators' reviews. Matrix rule changes
// are grouped by destination (see groupRuleChanges) and the routine
// re-readings appear as one entry per day (see dayEntries).
var atomKinds = map[string]bool{
	KindSourceChanged:     true,
	KindSourceUnreachable: true,
	KindRuleFlagged:       true,
	KindReviewAccepted:    true,
	KindReviewRejected:    true,
}

// atomEntry is an entry of the Atom feed before rendering.
type atomEntry struct {
	// ID is the event's id, or for a group of rule changes
	// "matrix/{snapshot}/{destination}".
	ID    string
	Time  time.Time
	Title string
	// Summary is plain text, rendered as type="text".
	Summary string
	Link    string
	// Related are the route pages of a group's routes.
	Related []string
}

// atomDocuments renders the Atom feed of rule changes and source
// verification and its archives, the current document first, then the
// archives newest first. Its entries: one per destination and matrix
// snapshot whose routes changed, one per changed or unreachable source,
// flag and review, and one per day of readings. Every document's id is the
// current feed's URL (one logical feed); an entry's id is a tag URI of the
// site's host, the entry's date and its id
// ("tag:entrycheck.example,2025-01-12:matrix/2025-01-12/THA"), stable as
// long as the host is.
func atomDocuments(site FeedSite, events []Event) ([]Document, error) {
	if err := site.validate(); err != nil {
		return nil, err
	}
	all := sorted(events)
	names, err := countryNames()
	if err != nil {
		return nil, err
	}
	entries := groupRuleChanges(site, names, all)
	for _, e := range append(dayEntries(site, all), all...) {
		if atomKinds[e.Kind] || e.Kind == KindVerificationDay {
			entries = append(entries, atomEntry{ID: e.ID, Time: e.Time.UTC(), Title: e.Summary, Summary: verificationText(e), Link: site.EventURL(e)})
		}
	}
	sortEntries(entries)
	newest, ok := updated(site, all)
	if !ok {
		return nil, fmt.Errorf("rendering %s: no events and no dataset version to date the feed by", site.AtomURL())
	}
	u, _ := url.Parse(site.BaseURL)
	host := strings.ToLower(u.Hostname())
	var docs []Document
	for _, p := range paginate(entries, func(e atomEntry) time.Time { return e.Time }, periodOf(newest)) {
		doc := atomHead(site, p, newest)
		for _, e := range p.Entries {
			doc.Entries = append(doc.Entries, e.render(host))
		}
		s, err := feeds.ToXML(doc)
		if err != nil {
			return nil, fmt.Errorf("rendering %s: %w", site.AtomURL(), err)
		}
		path := atomPath(site, p)
		docs = append(docs, Document{Path: path, Body: []byte(s + "\n")})
	}
	return docs, nil
}

// atomPath is the path of a page of the Atom feed.
func atomPath(site FeedSite, p page[atomEntry]) string {
	if p.Archive {
		return site.AtomArchivePath(p.Period)
	}
	return site.AtomURL()[len(site.base()):]
}

// atomHead is the document of a page without its entries: title, subtitle,
// date (its newest entry's, or the log's for an empty current document)
// and the RFC 5005 links.
func atomHead(site FeedSite, p page[atomEntry], newest time.Time) *atomDocument {
	doc := &atomDocument{
		Xmlns:  "http://www.w3.org/2005/Atom",
		Title:  site.name() + ": entry-rule changes and source verification",
		ID:     site.AtomURL(),
		Author: &feeds.AtomAuthor{AtomPerson: feeds.AtomPerson{Name: site.name()}},
		Links:  []feeds.AtomLink{{Href: site.HomeURL(), Rel: "alternate", Type: "text/html"}},
	}
	if len(p.Entries) > 0 {
		newest = p.Entries[0].Time
	}
	doc.Updated = newest.Format(time.RFC3339)
	what := "Changes to entry requirements (one entry per destination and matrix snapshot, listing its routes) and the daily verification of cited sources"
	archive := func(period string) string { return site.base() + site.AtomArchivePath(period) }
	if p.Archive {
		doc.Title += " in " + p.Period
		doc.Subtitle = fmt.Sprintf("%s, dated in %s: %s. This archive does not change; newer entries are in %s.", what, p.Period, plural(len(p.Entries), "entry", "entries"), site.AtomURL())
		doc.Archive = &struct{}{}
		doc.Links = append(doc.Links,
			feeds.AtomLink{Href: archive(p.Period), Rel: "self", Type: "application/atom+xml"},
			feeds.AtomLink{Href: site.AtomURL(), Rel: "current", Type: "application/atom+xml"})
	} else {
		doc.Subtitle = fmt.Sprintf("%s, newest first: %s dated in %s.", what, plural(len(p.Entries), "entry", "entries"), cmp.Or(p.Period, "the current month"))
		if p.Prev != "" {
			doc.Subtitle += " Older entries are in monthly archives (link rel=\"prev-archive\")."
		}
		doc.Links = append(doc.Links, feeds.AtomLink{Href: site.AtomURL(), Rel: "self", Type: "application/atom+xml"})
	}
	if p.Prev != "" {
		doc.Links = append(doc.Links, feeds.AtomLink{Href: archive(p.Prev), Rel: "prev-archive", Type: "application/atom+xml"})
	}
	if p.Next != "" {
		doc.Links = append(doc.Links, feeds.AtomLink{Href: archive(p.Next), Rel: "next-archive", Type: "application/atom+xml"})
	}
	return doc
}

// render is the entry's XML: plain-text title and summary, escaped once by
// encoding/xml, so that a reader shows "visa-free (30 days) -> ETA".
func (e atomEntry) render(host string) *feeds.AtomEntry {
	x := &feeds.AtomEntry{
		Title:   e.Title,
		Updated: e.Time.UTC().Format(time.RFC3339),
		Id:      "tag:" + host + "," + e.Time.UTC().Format(time.DateOnly) + ":" + e.ID,
		Links:   []feeds.AtomLink{{Href: e.Link, Rel: "alternate", Type: "text/html"}},
		Summary: &feeds.AtomSummary{Content: e.Summary, Type: "text"},
	}
	for _, r := range e.Related {
		x.Links = append(x.Links, feeds.AtomLink{Href: r, Rel: "related", Type: "text/html"})
	}
	return x
}

// atomDocument is an Atom feed document with RFC 5005's links and archive
// marker, which gorilla/feeds' AtomFeed cannot hold, and an id of our
// choosing (it uses the link).
type atomDocument struct {
	XMLName  xml.Name `xml:"feed"`
	Xmlns    string   `xml:"xmlns,attr"`
	Title    string   `xml:"title"`
	Subtitle string   `xml:"subtitle,omitempty"`
	ID       string   `xml:"id"`
	Updated  string   `xml:"updated"`
	// Archive renders <archive xmlns="http://purl.org/syndication/history/1.0"/>
	// in archive documents.
	Archive *struct{} `xml:"http://purl.org/syndication/history/1.0 archive"`
	Links   []feeds.AtomLink
	Author  *feeds.AtomAuthor
	Entries []*feeds.AtomEntry
}

// FeedXml lets feeds.ToXML render the document.
func (d *atomDocument) FeedXml() any { return d }
