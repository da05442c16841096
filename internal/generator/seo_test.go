package generator_test

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// headOf reads what a page's head says to link previews and crawlers: its
// meta tags by property or name, canonical link, favicon, title and
// structured data.
type headOf struct {
	meta      map[string]string
	canonical string
	icon      string // the favicon's address and type, "/assets/favicon.0123456789.svg image/svg+xml"
	title     string
	jsonLD    []string
}

// pageText is the text of the elements a test reads from a page's body, by
// id or class: the verdict, its date and stay.
func readPage(t *testing.T, file string) (headOf, map[string]string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	h := headOf{meta: map[string]string{}}
	text := map[string]string{}
	z := html.NewTokenizer(bytes.NewReader(b))
	var in, inTag string // the element whose text is read, and its tag
	svg := 0             // depth inside inline SVG, whose <title>s name shapes
	for {
		switch z.Next() {
		case html.ErrorToken:
			return h, text
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			a := map[string]string{}
			for _, at := range tok.Attr {
				a[at.Key] = at.Val
			}
			if tok.Data == "svg" {
				svg++
			}
			switch tok.Data {
			case "meta":
				if k := a["property"] + a["name"]; k != "" {
					h.meta[k] = a["content"]
				}
			case "link":
				switch a["rel"] {
				case "canonical":
					h.canonical = a["href"]
				case "icon":
					h.icon = a["href"] + " " + a["type"]
				}
			case "title":
				if svg == 0 {
					in, inTag = "title", "title"
				}
			case "script":
				if a["type"] == "application/ld+json" {
					in, inTag = "ld", "script"
				}
			default:
				if r := a["data-requirement"]; r != "" {
					text["requirement"] = r
				}
				if a["id"] == "verdict" {
					in, inTag = "verdict", tok.Data
				}
				for _, c := range strings.Fields(a["class"]) {
					if c == "asof" || c == "stay" {
						in, inTag = c, tok.Data
					}
				}
			}
		case html.TextToken:
			switch in {
			case "title":
				h.title += string(z.Text())
			case "ld":
				h.jsonLD = append(h.jsonLD, string(z.Text()))
			case "":
			default:
				text[in] += string(z.Text())
			}
		case html.EndTagToken:
			// The verdict's heading holds an icon and a span: its text
			// runs to its own end tag.
			tag := z.Token().Data
			if tag == "svg" {
				svg--
			}
			if tag == inTag {
				in, inTag = "", ""
			}
		}
	}
}

// TestPagesHaveLinkPreviews: every HTML page of a build names itself to
// link previews with absolute URLs under the base URL, and has the site's
// favicon, an SVG of the build. A route page shares the image of its
// verdict, one per requirement value and not per route, which names the
// requirement in its text alternative; every other page the site's image.
// Each image is a 1200x630 PNG of the build.
func TestPagesHaveLinkPreviews(t *testing.T) {
	root := built(t)
	files := htmlFiles(t, root)
	var image, icon string
	verdictImages := map[string]string{} // requirement -> image
	routes := 0
	favicon := regexp.MustCompile(`^/assets/favicon\.[0-9a-f]{10}\.svg image/svg\+xml$`)
	for _, f := range files {
		h, text := readPage(t, f)
		m := h.meta
		rel, _ := filepath.Rel(root, f)
		if icon == "" {
			icon = h.icon
		}
		if h.icon != icon || !favicon.MatchString(h.icon) {
			t.Errorf("%s: favicon %q, want the one of the other pages, %q", rel, h.icon, icon)
		}
		switch {
		case m["og:type"] != "website" || m["og:site_name"] != "entrycheck" || m["twitter:card"] != "summary_large_image":
			t.Errorf("%s: %v", rel, m)
		case m["og:title"] != h.title || h.title == "" || m["og:description"] != m["description"] || m["description"] == "":
			t.Errorf("%s: og:title %q, og:description %q", rel, m["og:title"], m["og:description"])
		case m["og:url"] != h.canonical || !strings.HasPrefix(m["og:url"], base+"/"):
			t.Errorf("%s: og:url %q, canonical %q", rel, m["og:url"], h.canonical)
		case m["og:image:width"] != "1200" || m["og:image:height"] != "630" || m["og:image:alt"] == "":
			t.Errorf("%s: image %q %sx%s %q", rel, m["og:image"], m["og:image:width"], m["og:image:height"], m["og:image:alt"])
		}
		if req := entrycheck.Requirement(text["requirement"]); req != "" {
			routes++
			want, seen := verdictImages[string(req)]
			switch {
			case !seen && !strings.HasPrefix(m["og:image"], base+"/assets/verdict-"):
				t.Errorf("%s: a route page shares %q, not an image of its verdict", rel, m["og:image"])
			case seen && m["og:image"] != want:
				t.Errorf("%s: shares %s, another route of %s shares %s", rel, m["og:image"], req, want)
			case !strings.HasPrefix(m["og:image:alt"], req.Label()+"."):
				t.Errorf("%s: the image of %s is described as %q", rel, req, m["og:image:alt"])
			}
			verdictImages[string(req)] = m["og:image"]
			continue
		}
		switch {
		case !strings.HasPrefix(m["og:image"], base+"/assets/social."):
			t.Errorf("%s: image %q", rel, m["og:image"])
		case image != "" && m["og:image"] != image:
			t.Errorf("%s: another image %s", rel, m["og:image"])
		}
		image = m["og:image"]
	}
	if len(files) < 39402 || routes < 39000 {
		t.Fatalf("only %d pages, %d of routes", len(files), routes)
	}
	// One image per requirement value the routes have, each its own.
	images := map[string]string{image: "the site"}
	for req, img := range verdictImages {
		if other, taken := images[img]; taken {
			t.Errorf("%s and %s share the image %s", req, other, img)
		}
		images[img] = req
	}
	if len(verdictImages) < 6 {
		t.Errorf("route pages share the images of %d requirement values: %v", len(verdictImages), verdictImages)
	}
	for img, of := range images {
		f, err := os.Open(filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(img, base+"/"))))
		if err != nil {
			t.Fatal(err)
		}
		decoded, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("the image of %s: %v", of, err)
		}
		if b := decoded.Bounds(); b.Dx() != 1200 || b.Dy() != 630 {
			t.Errorf("the image of %s is %v", of, b)
		}
	}
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(strings.Fields(icon)[0])))
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, new(struct {
		XMLName xml.Name `xml:"http://www.w3.org/2000/svg svg"`
	})); err != nil {
		t.Errorf("the favicon is no SVG: %v", err)
	}
}

// routeLD is the structured data of a route page.
type routeLD struct {
	Context string `json:"@context"`
	Graph   []struct {
		Type         string `json:"@type"`
		URL          string `json:"url"`
		DateModified string `json:"dateModified"`
		Items        []struct {
			Position int    `json:"position"`
			Item     string `json:"item"`
		} `json:"itemListElement"`
		MainEntity struct {
			Type   string `json:"@type"`
			Name   string `json:"name"`
			Answer struct {
				Type string `json:"@type"`
				Text string `json:"text"`
			} `json:"acceptedAnswer"`
		} `json:"mainEntity"`
	} `json:"@graph"`
}

var stayDays = regexp.MustCompile(`([0-9]+) days`)

// TestRoutePagesAnswerTheirQuestion: every route page's structured data is
// valid JSON with its breadcrumbs and the page as the answer to its
// question, in the words and with the date of the verdict the page shows,
// dated as the sitemap dates the page.
func TestRoutePagesAnswerTheirQuestion(t *testing.T) {
	root := built(t)
	lastmod := sitemapDates(t, root)
	asOf := longDate(t, datatest.Current)
	n := 0
	for _, f := range htmlFiles(t, root) {
		rel, _ := filepath.Rel(root, f)
		if !routePage(strings.Split(filepath.ToSlash(rel), "/")) {
			continue
		}
		n++
		h, text := readPage(t, f)
		if len(h.jsonLD) != 1 || !json.Valid([]byte(h.jsonLD[0])) {
			t.Fatalf("%s: structured data %q", rel, h.jsonLD)
		}
		var ld routeLD
		if err := json.Unmarshal([]byte(h.jsonLD[0]), &ld); err != nil || ld.Context != "https://schema.org" || len(ld.Graph) != 2 {
			t.Fatalf("%s: %v %s", rel, err, h.jsonLD[0])
		}
		crumbs, page := ld.Graph[0], ld.Graph[1]
		if crumbs.Type != "BreadcrumbList" || len(crumbs.Items) != 4 || crumbs.Items[3].Item != h.canonical {
			t.Errorf("%s: breadcrumbs %+v", rel, crumbs)
		}
		answer := page.MainEntity.Answer.Text
		if page.Type != "FAQPage" || page.URL != h.canonical || page.MainEntity.Type != "Question" || page.MainEntity.Answer.Type != "Answer" ||
			!strings.HasPrefix(page.MainEntity.Name, "Do ") || !strings.HasSuffix(page.MainEntity.Name, "?") {
			t.Errorf("%s: %+v", rel, page)
		}
		// The answer is the verdict as the page shows it, with its date.
		verdict := strings.TrimSpace(text["verdict"])
		if verdict == "" || !strings.HasPrefix(answer, verdict) || !strings.HasSuffix(answer, ", as of "+asOf+".") || !strings.Contains(text["asof"], asOf) {
			t.Errorf("%s: answer %q, page %q", rel, answer, text)
		}
		if days := stayDays.FindString(text["stay"]); days != "" && !strings.Contains(answer, "for up to "+days) {
			t.Errorf("%s: answer %q, stay %q", rel, answer, text["stay"])
		}
		if !strings.HasPrefix(h.meta["description"], page.MainEntity.Name+" "+answer) {
			t.Errorf("%s: description %q", rel, h.meta["description"])
		}
		if page.DateModified == "" || page.DateModified != lastmod[h.canonical] {
			t.Errorf("%s: dateModified %q, lastmod %q", rel, page.DateModified, lastmod[h.canonical])
		}
	}
	if n < 39000 {
		t.Errorf("only %d route pages", n)
	}
}

// sitemapDates reads every sitemap of the build: the lastmod of each URL.
func sitemapDates(t *testing.T, root string) map[string]string {
	t.Helper()
	var index struct {
		Maps []struct {
			Loc     string `xml:"loc"`
			Lastmod string `xml:"lastmod"`
		} `xml:"sitemap"`
	}
	readXML(t, filepath.Join(root, "sitemap.xml"), &index)
	dates := map[string]string{}
	for _, m := range index.Maps {
		var set struct {
			URLs []struct {
				Loc     string `xml:"loc"`
				Lastmod string `xml:"lastmod"`
			} `xml:"url"`
		}
		readXML(t, filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(m.Loc, base+"/"))), &set)
		latest := ""
		for _, u := range set.URLs {
			dates[u.Loc] = u.Lastmod
			latest = max(latest, u.Lastmod)
		}
		if m.Lastmod != latest {
			t.Errorf("%s: lastmod %q, latest of its pages %q", m.Loc, m.Lastmod, latest)
		}
	}
	return dates
}

func readXML(t *testing.T, file string, v any) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// TestSitemapsDateFromTheEventLog: a route's lastmod is never before the
// day of the snapshot its verdict last changed in (the oldest recorded one
// when it never did), nor after the build's day; it is later where what the
// page shows changed since (TestRouteDatesAreTheContentDate says how).
func TestSitemapsDateFromTheEventLog(t *testing.T) {
	root := built(t)
	dates := sitemapDates(t, root)
	ev := datatest.Evaluator(t)
	h := history(siteEvents(t), datatest.Current)
	countries := ev.Snapshot().Matrix.Countries()
	today := buildDay.Now().Format("2006-01-02")
	kinds := map[string]int{}
	for i, p := range countries {
		for j, d := range countries {
			if i == j {
				continue
			}
			version, changed := h.Changed[[2]string{p.ISO3, d.ISO3}]
			if !changed {
				version = h.Baseline
			}
			kind := "dated by its verdict"
			loc := base + "/passports/" + strings.ToLower(p.ISO3) + "/" + strings.ToLower(d.ISO3) + "/"
			switch got := dates[loc]; {
			case got < version || got > today:
				t.Fatalf("%s: lastmod %q, verdict of %s (changed: %v), built %s", loc, got, version, changed, today)
			case got > version:
				kind = "page changed later"
			}
			kinds[kind]++
		}
	}
	// Every verdict of the build is old, so every route page changed since
	// its verdict (TestRouteDatesAreTheContentDate tests both parts of the
	// date on one passport's routes).
	if kinds["page changed later"] == 0 {
		t.Errorf("routes by what dates them: %v", kinds)
	}
	if h.Baseline != datatest.Previous {
		t.Errorf("baseline %s", h.Baseline)
	}
	latest := ""
	for _, d := range dates {
		latest = max(latest, d)
	}
	if dates[base+"/"] != latest || dates[base+"/passports/"] != latest || dates[base+"/passports/deu/"] == "" || dates[base+"/destinations/tha/"] == "" {
		t.Errorf("pages: home %q, passports %q, deu %q, tha %q; latest %q", dates[base+"/"], dates[base+"/passports/"], dates[base+"/passports/deu/"], dates[base+"/destinations/tha/"], latest)
	}
	for _, guide := range []string{"/auth/", "/widget/"} {
		if d, ok := dates[base+guide]; !ok || d != "" {
			t.Errorf("%s: lastmod %q (listed %v)", guide, d, ok)
		}
	}
}
