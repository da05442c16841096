package changes_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/changes"
)

// A subscriber's view of the feeds: it fetches the current documents and
// follows the archive links, as RFC 5005 describes, from documents served
// by URL.

// published maps each document's URL to its bytes.
func published(t *testing.T, site changes.FeedSite, events []changes.Event) map[string][]byte {
	t.Helper()
	docs, err := changes.Documents(site, events)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, d := range docs {
		u := strings.TrimRight(site.BaseURL, "/") + d.Path
		if _, dup := out[u]; dup {
			t.Fatalf("%s rendered twice", u)
		}
		out[u] = d.Body
	}
	return out
}

// atomFeed is what a feed reader parses of an Atom document.
type atomFeed struct {
	XMLName  xml.Name    `xml:"http://www.w3.org/2005/Atom feed"`
	ID       string      `xml:"id"`
	Updated  string      `xml:"updated"`
	Subtitle string      `xml:"subtitle"`
	Archive  *struct{}   `xml:"http://purl.org/syndication/history/1.0 archive"`
	Links    []atomLink  `xml:"link"`
	Entries  []atomEntry `xml:"entry"`
}

type atomLink struct {
	Href string `xml:"href,attr"`
	Rel  string `xml:"rel,attr"`
}

type atomEntry struct {
	ID      string     `xml:"id"`
	Title   string     `xml:"title"`
	Updated string     `xml:"updated"`
	Links   []atomLink `xml:"link"`
	Summary struct {
		Type string `xml:"type,attr"`
		Text string `xml:",chardata"`
	} `xml:"summary"`
}

func (f atomFeed) link(rel string) string {
	for _, l := range f.Links {
		if l.Rel == rel {
			return l.Href
		}
	}
	return ""
}

func (e atomEntry) links(rel string) []string {
	var out []string
	for _, l := range e.Links {
		if l.Rel == rel {
			out = append(out, l.Href)
		}
	}
	return out
}

// readAtom parses the Atom feed at url and every archive before it, newest
// first, checking the RFC 5005 links of each document.
func readAtom(t *testing.T, docs map[string][]byte, url string) []atomFeed {
	t.Helper()
	current := url
	var out []atomFeed
	next := ""
	for url != "" {
		body, ok := docs[url]
		if !ok {
			t.Fatalf("%s is linked but not published", url)
		}
		var f atomFeed
		if err := xml.Unmarshal(body, &f); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		archive := url != current
		if f.ID != current || (f.Archive != nil) != archive || f.link("self") != url {
			t.Fatalf("%s: id %q, archive marker %v, self %q", url, f.ID, f.Archive != nil, f.link("self"))
		}
		if archive && (f.link("current") != current || f.link("next-archive") != next) {
			t.Fatalf("%s: current %q, next-archive %q; want %q, %q", url, f.link("current"), f.link("next-archive"), current, next)
		}
		out = append(out, f)
		if archive { // the newest archive has no next-archive: the current document is rel="current"
			next = url
		}
		url = f.link("prev-archive")
		if len(out) > 1000 {
			t.Fatal("the archives link in a loop")
		}
	}
	return out
}

// readJSON parses /changes.json at url and every archive before it.
func readJSON(t *testing.T, docs map[string][]byte, url string) []changes.ChangesFeed {
	t.Helper()
	current := url
	var out []changes.ChangesFeed
	next := ""
	for url != "" {
		body, ok := docs[url]
		if !ok {
			t.Fatalf("%s is linked but not published", url)
		}
		var f changes.ChangesFeed
		if err := json.Unmarshal(body, &f); err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		if f.FeedURL != url || f.CurrentURL != current || f.Archive != (url != current) || deref(f.NextURL) != next {
			t.Fatalf("%s: feed_url %q, current_url %q, archive %v, next_url %v", url, f.FeedURL, f.CurrentURL, f.Archive, f.NextURL)
		}
		out = append(out, f)
		if f.Archive {
			next = url
		}
		url = deref(f.PrevURL)
		if len(out) > 1000 {
			t.Fatal("the archives link in a loop")
		}
	}
	return out
}

// deref is a JSON link, "" for null.
func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// atomRouteChanges are the matrix route changes a reader finds in the
// Atom feed and its archives, as event ids: each grouped entry
// "matrix/{snapshot}/{destination}" links its routes' pages
// (/passports/{p}/{d}/).
func atomRouteChanges(t *testing.T, feeds []atomFeed) []string {
	t.Helper()
	var ids []string
	for _, f := range feeds {
		for _, e := range f.Entries {
			_, group, ok := strings.Cut(e.ID, ":matrix/")
			if !ok {
				continue
			}
			version, destination, _ := strings.Cut(group, "/")
			routes := e.links("related")
			if !strings.Contains(e.Title, fmt.Sprintf(": %d route", len(routes))) {
				t.Errorf("entry %s titled %q lists %d routes", e.ID, e.Title, len(routes))
			}
			for _, r := range routes {
				parts := strings.Split(strings.TrimSuffix(r, "/"), "/")
				p, d := strings.ToUpper(parts[len(parts)-2]), strings.ToUpper(parts[len(parts)-1])
				if d != destination {
					t.Errorf("entry %s links the route %s", e.ID, r)
				}
				ids = append(ids, "matrix/"+version+"/"+p+"-"+d)
			}
		}
	}
	return ids
}

// jsonRouteChanges are the ids of the matrix events of the documents.
func jsonRouteChanges(feeds []changes.ChangesFeed) []string {
	var ids []string
	for _, f := range feeds {
		for _, e := range f.Events {
			if e.Kind == changes.KindMatrixRuleChanged {
				ids = append(ids, e.ID)
			}
		}
	}
	return ids
}
