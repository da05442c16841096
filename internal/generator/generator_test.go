package generator_test

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/generator"
	"github.com/entrycheck/entrycheck/internal/sitetree"
)

const base = "https://entrycheck.test"

var buildDay = entrycheck.FixedClock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))

var (
	once   sync.Once
	tree   string
	report generator.Report
	berr   error
)

// built builds the site once for the package's tests.
func built(t *testing.T) string {
	t.Helper()
	ev := datatest.Evaluator(t)
	once.Do(func() {
		events := siteEvents(t)
		tree, berr = os.MkdirTemp("", "entrycheck-site-")
		if berr == nil {
			report, berr = generator.Build(context.Background(), ev, generator.Options{
				OutDir: tree, GeoDir: datatest.GeoDir(t), BaseURL: base, Clock: buildDay,
				History: history(events, datatest.Current), Extra: extras(t, datatest.Current, events),
			})
		}
	})
	if berr != nil {
		t.Fatal(berr)
	}
	return tree
}

func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range []string{tree, treeLangs} {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// htmlFiles lists every generated HTML file.
func htmlFiles(t *testing.T, root string) []string {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
			out = append(out, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestBuildCoversEverything(t *testing.T) {
	root := built(t)
	if report.Routes != 39402 {
		t.Errorf("%d routes rendered, want 39402", report.Routes)
	}
	for _, p := range []string{"index.html", "index.md", "passports/index.html", "destinations/index.html", "transparency/index.html", "auth.md", "auth/index.html", "widget/index.html",
		"passports/deu/index.html", "passports/deu/tha/index.html", "passports/deu/tha/index.md", "destinations/tha/index.html", "destinations/tha/index.md",
		"llms.txt", "llms-full.txt", "robots.txt", "sitemap.xml", "sitemaps/routes-1.xml", "openapi.json", sitetree.ManifestFile} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("missing %s", p)
		}
	}
}

// TestPagesParseAndLinksResolve parses every HTML page and follows every
// internal link and asset to a generated file.
func TestPagesParseAndLinksResolve(t *testing.T) {
	root := built(t)
	files := htmlFiles(t, root)
	if len(files) < 39402+2*199 {
		t.Fatalf("only %d HTML files", len(files))
	}
	checked := map[string]bool{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// The official statements a route page quotes are the curators'
		// summaries of official pages, as long as those need; the page
		// around them keeps to 10 KB.
		if n := len(b) - statementBytes(b); n > 10<<10 && strings.Contains(f, "/passports/") && strings.Count(strings.TrimPrefix(f, root), "/") == 4 {
			t.Errorf("%s is %d bytes without its official statements, over the 10 KB of a route page", f, n)
		}
		doc, err := html.Parse(strings.NewReader(string(b)))
		if err != nil {
			t.Fatalf("%s does not parse: %v", f, err)
		}
		var title, main, lang bool
		walk(doc, func(n *html.Node) {
			switch {
			case n.Type == html.ElementNode && n.Data == "title":
				title = n.FirstChild != nil && strings.TrimSpace(n.FirstChild.Data) != ""
			case n.Type == html.ElementNode && n.Data == "main":
				main = true
			case n.Type == html.ElementNode && n.Data == "html":
				lang = attr(n, "lang") == "en"
			}
			for _, a := range []string{"href", "src"} {
				link := attr(n, a)
				if n.Type != html.ElementNode || !strings.HasPrefix(link, "/") || checked[link] {
					continue
				}
				checked[link] = true
				if !resolves(root, link) {
					t.Errorf("%s links to %s, which was not generated", strings.TrimPrefix(f, root), link)
				}
			}
		})
		if !title || !main || !lang {
			t.Errorf("%s: title %v, main landmark %v, lang %v", f, title, main, lang)
		}
	}
	if len(checked) < 39402 {
		t.Errorf("only %d distinct internal links checked", len(checked))
	}
}

// resolves reports whether an internal link names a generated file; links
// to the dynamic API are answered by serve, not by files.
func resolves(root, link string) bool {
	path, _, _ := strings.Cut(link, "?")
	path, _, _ = strings.Cut(path, "#")
	for _, dynamic := range []string{"/free/", "/v1/", "/oauth/"} {
		if strings.HasPrefix(path, dynamic) {
			return true
		}
	}
	if strings.HasSuffix(path, "/") {
		path += "index.html"
	}
	_, err := os.Stat(filepath.Join(root, filepath.FromSlash(path)))
	return err == nil
}

func TestEveryPageHasAMarkdownVariant(t *testing.T) {
	root := built(t)
	for _, f := range htmlFiles(t, root) {
		md := strings.TrimSuffix(f, ".html") + ".md"
		if strings.HasSuffix(f, "/auth/index.html") {
			md = filepath.Join(root, "auth.md")
		}
		if _, err := os.Stat(md); err != nil {
			t.Errorf("%s has no markdown variant", f)
		}
	}
}

func walk(n *html.Node, fn func(*html.Node)) {
	fn(n)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walk(c, fn)
	}
}

func attr(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// statementBytes counts the bytes of a route page's official statements
// (each a div of class statement).
func statementBytes(page []byte) int {
	n := 0
	for rest := page; ; {
		i := bytes.Index(rest, []byte(`<div class="statement"`))
		if i < 0 {
			return n
		}
		j := bytes.Index(rest[i:], []byte("</div>"))
		if j < 0 {
			return n
		}
		n += j + len("</div>")
		rest = rest[i+j:]
	}
}
