package generator_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"golang.org/x/net/html"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// shownRules are the entry rules a page shows for one route: a line per
// rule ("label | text | detail | official link | source name | source
// link") and the sentence naming the rules no official source covers.
type shownRules struct {
	Route string   `json:"route"`
	Lines []string `json:"lines"`
	Gaps  string   `json:"gaps"`
}

// ruleLine is one line of shownRules, its parts with their spaces collapsed.
func ruleLine(parts ...string) string {
	for i, p := range parts {
		parts[i] = strings.Join(strings.Fields(p), " ")
	}
	return strings.Join(parts, " | ")
}

// routePageRules reads the entry rules of the route page of p to d in the
// built tree: the list under the rules' heading and the first sentence of
// what is not cited.
func routePageRules(t *testing.T, root, p, d string) shownRules {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "passports", strings.ToLower(p), strings.ToLower(d), "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(strings.NewReader(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	var section *html.Node
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "section" && attr(n, "aria-labelledby") == "rules" {
			section = n
		}
	})
	if section == nil {
		t.Fatalf("the route page of %s to %s has no entry rules section", p, d)
	}
	var out shownRules
	walk(doc, func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "h1" {
			out.Route = strings.Join(strings.Fields(textOf(n)), " ")
		}
	})
	// What official pages say for other passports (a details element) is
	// left to the route page: the widget answers for the passport.
	walk(section, func(n *html.Node) {
		if n.Type != html.ElementNode {
			return
		}
		for a := n.Parent; a != nil; a = a.Parent {
			if a.Type == html.ElementNode && a.Data == "details" {
				return
			}
		}
		switch {
		case n.Data == "dd":
			label := n.PrevSibling
			for label != nil && label.Data != "dt" {
				label = label.PrevSibling
			}
			var text, detail, url, srcName, srcURL string
			first := true
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type != html.ElementNode || c.Data != "p" {
					continue
				}
				switch class := attr(c, "class"); {
				case class == "detail":
					detail = textOf(c)
				case class == "source":
					walk(c, func(a *html.Node) {
						if a.Type == html.ElementNode && a.Data == "a" {
							srcName, srcURL = textOf(a), attr(a, "href")
						}
					})
				case first:
					text, first = textOf(c), false
				default:
					walk(c, func(a *html.Node) {
						if a.Type == html.ElementNode && a.Data == "a" {
							url = attr(a, "href")
						}
					})
				}
			}
			if label == nil {
				t.Fatalf("the route page of %s to %s has a rule without its label", p, d)
			}
			out.Lines = append(out.Lines, ruleLine(textOf(label), text, detail, url, srcName, srcURL))
		case n.Data == "div" && attr(n, "class") == "gaps" && out.Gaps == "":
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Data == "p" {
					out.Gaps = strings.Join(strings.Fields(textOf(c)), " ")
					break
				}
			}
		}
	})
	return out
}

// widgetRules checks every route in turn from the form of one checker and
// reads the entry rules it shows, as routePageRules reads a route page.
const widgetRules = `async function (routes) {
	const text = (el, sel) => { const n = el && el.querySelector(sel); return n ? n.textContent : ""; };
	const href = (el, sel) => { const n = el && el.querySelector(sel); return n ? n.getAttribute("href") : ""; };
	const squash = (s) => s.split(/\s+/).filter(Boolean).join(" ");
	const out = [];
	for (const [p, d] of routes) {
		this.getElementById("passport").value = p;
		this.getElementById("destination").value = d;
		this.querySelector("button").click();
		const o = this.querySelector(".out");
		while (o.hasAttribute("aria-busy")) await new Promise((r) => setTimeout(r, 2));
		out.push({
			route: squash(text(o, ".route") || o.textContent),
			lines: [...o.querySelectorAll(".rules > li")].map((li) =>
				[text(li, ".label").replace(/:\s*$/, ""), text(li, ".text"), text(li, ".detail"), href(li, ".url a"), text(li, ".src a"), href(li, ".src a")].map(squash).join(" | ")),
			gaps: squash(text(o, ".gaps")),
		});
	}
	return JSON.stringify(out);
}`

// TestWidgetRulesAsTheRoutePages checks every destination of the matrix
// from the widget's form, in Chromium, against the served site, and
// compares the entry rules it shows with those of the route page built for
// the same route: the same lines (label, text, detail, official link and
// source) in the same order, and the same sentence on the rules no official
// source covers. Each destination is checked with another passport (the
// next country of the matrix), so that the rules are selected for many
// passports. It fails naming the destination and the line that differs.
func TestWidgetRulesAsTheRoutePages(t *testing.T) {
	ev := datatest.Evaluator(t)
	countries := ev.Snapshot().Matrix.Countries()
	if len(countries) != 199 {
		t.Fatalf("%d countries in the matrix, want 199", len(countries))
	}
	dir := built(t)
	var routes [][2]string
	want := make([]shownRules, len(countries))
	lines, computed, gaps := 0, 0, 0
	for i, d := range countries {
		p := countries[(i+1)%len(countries)]
		routes = append(routes, [2]string{p.ISO3, d.ISO3})
		want[i] = routePageRules(t, dir, p.ISO3, d.ISO3)
		if want[i].Route != entrycheck.RouteWords(p.Name, d.Name) {
			t.Fatalf("the route page of %s to %s is headed %q", p.ISO3, d.ISO3, want[i].Route)
		}
		lines += len(want[i].Lines)
		for _, l := range want[i].Lines {
			if parts := strings.Split(l, " | "); parts[2] != "" {
				computed++
			}
		}
		if want[i].Gaps != "" {
			gaps++
		}
	}
	// The comparison means something only if the route pages show rules,
	// with the details the answers compute, and the gaps sentence.
	if lines < 100 || computed < 50 || gaps < 150 {
		t.Fatalf("the route pages show %d rule lines, %d with a detail, %d gaps sentences", lines, computed, gaps)
	}

	site := httptest.NewServer(serveTree(t, dir))
	defer site.Close()
	host := httptest.NewServer(hostSite(site.URL, `<div id="pick" data-entrycheck></div>`))
	defer host.Close()
	w, seen := openWidgets(t, otherOrigin(host))
	w.wait("#pick", `function () { return this.querySelector("button") !== null; }`)
	raw, err := chromedp.Run(w.ctx, shadow[string]("#pick", widgetRules, routes))
	if err != nil {
		t.Fatal(err)
	}
	var got []shownRules
	if err := json.Unmarshal([]byte(raw), &got); err != nil || len(got) != len(routes) {
		t.Fatalf("the widget's rules for %d routes: %d read, %v", len(routes), len(got), err)
	}
	for i, r := range routes {
		g, wt := got[i], want[i]
		name := r[0] + " to " + r[1]
		if g.Route != wt.Route {
			t.Errorf("%s: the widget answered %q, want %q", name, g.Route, wt.Route)
			continue
		}
		for j := range max(len(g.Lines), len(wt.Lines)) {
			var gl, wl string
			if j < len(g.Lines) {
				gl = g.Lines[j]
			}
			if j < len(wt.Lines) {
				wl = wt.Lines[j]
			}
			if gl != wl {
				t.Errorf("%s, rule line %d: the widget shows\n  %q\nthe route page\n  %q", name, j+1, gl, wl)
			}
		}
		if g.Gaps != wt.Gaps {
			t.Errorf("%s: the widget says of the rules not cited\n  %q\nthe route page\n  %q", name, g.Gaps, wt.Gaps)
		}
	}
	if p := seen.take(); len(p) > 0 {
		t.Errorf("the host page reported problems: %v", p)
	}
	t.Logf("%d destinations, %d rule lines (%d with a detail), %d gaps sentences: the widget shows each as its route page", len(routes), lines, computed, gaps)
}
