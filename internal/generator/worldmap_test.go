package generator_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// mapAsset returns the path of the built tree's map asset and the ids of
// the countries it draws.
func mapAsset(t *testing.T, root string) (string, map[string]bool) {
	t.Helper()
	found, err := filepath.Glob(filepath.Join(root, "assets", "world.*.svg"))
	if err != nil || len(found) != 1 {
		t.Fatalf("map assets %v %v, want one", found, err)
	}
	b, err := os.ReadFile(found[0])
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(`<(?:path|circle) id="([a-z]{3})"`).FindAllStringSubmatch(string(b), -1) {
		ids[m[1]] = true
	}
	return "/" + filepath.ToSlash(strings.TrimPrefix(found[0], root+string(filepath.Separator))), ids
}

// mapOf reads the world map of a page: the class of each place by the
// page it links to, the <use> targets of each, and the links of the "Not
// on the map" line.
type pageMap struct {
	class, use map[string]string
	unplaced   map[string]bool
	legend     []string
}

func mapOf(t *testing.T, file string) pageMap {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	m := pageMap{class: map[string]string{}, use: map[string]string{}, unplaced: map[string]bool{}}
	var figures int
	walk(doc, func(n *html.Node) {
		if n.Type != html.ElementNode || n.Data != "figure" || attr(n, "class") != "worldmap" {
			return
		}
		figures++
		walk(n, func(n *html.Node) {
			if n.Type != html.ElementNode {
				return
			}
			switch {
			case n.Data == "a" && n.Namespace == "svg" && attr(n, "tabindex") == "-1":
				// A dot drawn again on top, or an inset: the place's link
				// that takes focus is the one read.
			case n.Data == "a" && n.Namespace == "svg":
				href := attr(n, "href")
				m.class[href] = attr(n, "class")
				walk(n, func(u *html.Node) {
					if u.Type == html.ElementNode && u.Data == "use" {
						m.use[href] = attr(u, "href")
					}
				})
			case n.Data == "p" && attr(n, "class") == "unplaced":
				walk(n, func(a *html.Node) {
					if a.Type == html.ElementNode && a.Data == "a" {
						m.unplaced[attr(a, "href")] = true
					}
				})
			case n.Data == "rect" && n.Namespace == "svg" && strings.HasPrefix(attr(n, "class"), "m-"):
				m.legend = append(m.legend, attr(n, "class"))
			}
		})
	})
	if figures != 1 {
		t.Fatalf("%s: %d world maps", file, figures)
	}
	return m
}

func mapClass(r entrycheck.Requirement) string {
	return "m-" + strings.ReplaceAll(string(r), "_", "-")
}

// TestWorldMapColoursEveryRoute reads every passport page's map against
// the asset and the evaluator: each destination is drawn from an element of
// the asset, coloured by its route's requirement and linked to the route,
// or named in the "Not on the map" line; every page draws from the same
// asset.
func TestWorldMapColoursEveryRoute(t *testing.T) {
	root := built(t)
	asset, ids := mapAsset(t, root)
	ev := datatest.Evaluator(t)
	clock := entrycheck.FixedClock(buildDay.Now())
	countries := ev.Snapshot().Matrix.Countries()
	unplaced := 0
	for _, pc := range countries {
		p := strings.ToLower(pc.ISO3)
		m := mapOf(t, filepath.Join(root, "passports", p, "index.html"))
		present := map[string]bool{}
		for _, dc := range countries {
			d := strings.ToLower(dc.ISO3)
			url := "/passports/" + p + "/" + d + "/"
			want := ""
			if dc.ISO3 == pc.ISO3 {
				url, want = "/passports/"+p+"/", "m-own"
			} else {
				res, err := ev.Check(entrycheck.CheckRequest{Passport: pc.ISO3, Destination: dc.ISO3}, clock)
				if err != nil {
					t.Fatal(err)
				}
				want = mapClass(res.Requirement)
				present[want] = true
			}
			class, drawn := m.class[url]
			switch {
			case drawn && m.unplaced[url]:
				t.Errorf("%s: %s is both on the map and off it", p, d)
			case drawn && m.use[url] != asset+"#"+d:
				t.Errorf("%s: %s is drawn from %q, want %s#%s", p, d, m.use[url], asset, d)
			case drawn && !ids[d]:
				t.Errorf("%s: %s is drawn but the asset has no %s", p, d, d)
			case drawn && class != want:
				t.Errorf("%s: %s is coloured %q, want %q", p, d, class, want)
			case !drawn && !m.unplaced[url]:
				t.Errorf("%s: %s is neither on the map nor listed off it", p, d)
			case !drawn && ids[d]:
				t.Errorf("%s: %s is listed off the map but the asset draws it", p, d)
			case !drawn:
				unplaced++
			}
		}
		if len(m.class)+len(m.unplaced) != len(countries) {
			t.Errorf("%s: %d places on the map and %d off it for %d countries", p, len(m.class), len(m.unplaced), len(countries))
		}
		// The legend has one entry per requirement present, in order, then the own country.
		var legend []string
		for _, r := range entrycheck.Requirements {
			if present[mapClass(r)] {
				legend = append(legend, mapClass(r))
			}
		}
		if got, want := strings.Join(m.legend, " "), strings.Join(append(legend, "m-own"), " "); got != want {
			t.Errorf("%s: legend %s, want %s", p, got, want)
		}
	}
	if unplaced > len(countries)*len(countries)/50 {
		t.Errorf("%d places off the map", unplaced)
	}
}

// TestDestinationMapColoursEveryPassport checks the destination pages'
// maps: each passport coloured by its requirement for the destination and
// linked to the route page.
func TestDestinationMapColoursEveryPassport(t *testing.T) {
	root := built(t)
	asset, _ := mapAsset(t, root)
	ev := datatest.Evaluator(t)
	clock := entrycheck.FixedClock(buildDay.Now())
	countries := ev.Snapshot().Matrix.Countries()
	for _, dc := range countries {
		d := strings.ToLower(dc.ISO3)
		m := mapOf(t, filepath.Join(root, "destinations", d, "index.html"))
		for _, pc := range countries {
			if pc.ISO3 == dc.ISO3 {
				continue
			}
			p := strings.ToLower(pc.ISO3)
			url := "/passports/" + p + "/" + d + "/"
			res, err := ev.Check(entrycheck.CheckRequest{Passport: pc.ISO3, Destination: dc.ISO3}, clock)
			if err != nil {
				t.Fatal(err)
			}
			class, drawn := m.class[url]
			switch {
			case drawn && (class != mapClass(res.Requirement) || m.use[url] != asset+"#"+p):
				t.Errorf("%s: %s drawn as %q from %q", d, p, class, m.use[url])
			case !drawn && !m.unplaced[url]:
				t.Errorf("%s: %s is neither on the map nor listed off it", d, p)
			}
		}
		if c := m.class["/destinations/"+d+"/"]; c != "m-own" && !m.unplaced["/destinations/"+d+"/"] {
			t.Errorf("%s: the destination itself is drawn as %q", d, c)
		}
	}
}

// TestWorldMapReadsWithoutColourOrMouse reads the passport and destination
// pages' maps as a keyboard and a colour-blind reader meet them: a skip
// link past the map first, then the places that take focus in the order
// of their countries' names; every fill, on the map and in the legend, a
// pattern the page defines; and insets of Europe, the Caribbean and the
// Gulf holding their small countries, out of the focus order.
func TestWorldMapReadsWithoutColourOrMouse(t *testing.T) {
	root := built(t)
	names := collate.New(language.English, collate.Loose)
	for _, page := range []string{"passports/deu", "passports/usa", "destinations/tha"} {
		b, err := os.ReadFile(filepath.Join(root, page, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		fig := s[strings.Index(s, `<figure class="worldmap">`):]
		fig = fig[:strings.Index(fig, "</figure>")]
		if !strings.HasPrefix(strings.TrimPrefix(fig, `<figure class="worldmap">`), `<a class="skip-map" href="#worldmap-key">`) || !strings.Contains(fig, `<figcaption id="worldmap-key"`) {
			t.Errorf("%s: the map does not open with a link past it to its key", page)
		}
		main := fig[:strings.Index(fig, "</svg>")]
		var order []string
		for _, m := range regexp.MustCompile(`<a href="[^"]*" class="m-[a-z-]+" fill="url\(#(p-[a-z-]+)\)"><title>([^<]*?):`).FindAllStringSubmatch(main, -1) {
			order = append(order, html.UnescapeString(m[2]))
			if !strings.Contains(fig, `<pattern id="`+m[1]+`"`) {
				t.Errorf("%s: %s is filled with %s, which the page does not define", page, m[2], m[1])
			}
		}
		if len(order) < 150 {
			t.Fatalf("%s: %d places take focus on the map", page, len(order))
		}
		for i := 1; i < len(order); i++ {
			if names.CompareString(order[i-1], order[i]) > 0 {
				t.Errorf("%s: focus goes from %s to %s", page, order[i-1], order[i])
			}
		}
		for _, m := range regexp.MustCompile(`<rect class="m-[a-z-]+" fill="url\(#(p-[a-z-]+)\)"`).FindAllStringSubmatch(fig, -1) {
			if !strings.Contains(fig, `<pattern id="`+m[1]+`"`) {
				t.Errorf("%s: a legend swatch is filled with %s, which the page does not define", page, m[1])
			}
		}
		insets := fig[strings.Index(fig, `<div class="insets" aria-hidden="true">`):]
		for name, codes := range map[string][]string{"Europe": {"lux", "bel", "che", "mlt", "cyp"}, "Caribbean": {"brb", "jam", "tto", "atg"}, "Gulf": {"bhr", "qat", "kwt", "are"}} {
			i := strings.Index(insets, "<span>"+name+"</span>")
			if i < 0 {
				t.Errorf("%s: no inset of %s", page, name)
				continue
			}
			inset := insets[strings.LastIndex(insets[:i], `<div class="inset">`):i]
			for _, c := range codes {
				if !regexp.MustCompile(`<a href="[^"]*" tabindex="-1" fill="url\(#p-[a-z-]+-` + strings.ToLower(name) + `\)"><title>[^<]*</title><use href="[^"]*#` + c + `"`).MatchString(inset) {
					t.Errorf("%s: the %s inset does not draw %s out of the focus order with its own patterns", page, name, c)
				}
			}
		}
	}
}
