package generator_test

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"

	"golang.org/x/net/html"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/generator"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/sitetree"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// languagesTested are the languages of the translated build: one written
// left to right, one right to left.
const languagesTested = "es,ar"

var (
	onceLangs sync.Once
	treeLangs string
	errLangs  error
)

// builtInLanguages builds the site once in English, Spanish and Arabic
// (as --languages es,ar does), apart from the English-only tree of built.
func builtInLanguages(t *testing.T) string {
	t.Helper()
	ev := datatest.Evaluator(t)
	onceLangs.Do(func() {
		langs, err := locale.Embedded().Select(languagesTested)
		if err != nil {
			errLangs = err
			return
		}
		events := siteEvents(t)
		treeLangs, errLangs = os.MkdirTemp("", "entrycheck-languages-")
		if errLangs == nil {
			_, errLangs = generator.Build(context.Background(), ev, generator.Options{
				OutDir: treeLangs, GeoDir: datatest.GeoDir(t), BaseURL: base, Clock: buildDay, Languages: langs,
				History: history(events, datatest.Current), Extra: extras(t, datatest.Current, events),
			})
		}
	})
	if errLangs != nil {
		t.Fatal(errLangs)
	}
	return treeLangs
}

// TestRoutePagesInEveryLanguage finds every route page in each language of
// the build under /{lang}/, with its language and direction, the hreflang
// links of every version (x-default the English one) and the answer's
// words in the language: the same check, asked in it.
func TestRoutePagesInEveryLanguage(t *testing.T) {
	root := builtInLanguages(t)
	ev := datatest.Evaluator(t)
	countries := ev.Snapshot().Matrix.Countries()
	for _, code := range strings.Split(languagesTested, ",") {
		c, _ := locale.Embedded().Get(code)
		n := 0
		for _, p := range countries {
			for _, d := range countries {
				if p == d {
					continue
				}
				if _, err := os.Stat(filepath.Join(root, sitetree.PageFile(code, "/passports/"+strings.ToLower(p.ISO3)+"/"+strings.ToLower(d.ISO3)+"/"))); err == nil {
					n++
				}
			}
		}
		if want := ev.Snapshot().Matrix.Routes(); n != want {
			t.Errorf("%s: %d route pages, want %d", code, n, want)
		}
		for _, route := range [][2]string{{"DEU", "THA"}, {"NGA", "USA"}, {"JPN", "GBR"}} {
			path := "/" + code + "/passports/" + strings.ToLower(route[0]) + "/" + strings.ToLower(route[1]) + "/"
			enPath := strings.TrimPrefix(path, "/"+code)
			b, err := os.ReadFile(filepath.Join(root, sitetree.PageFile(code, enPath)))
			if err != nil {
				t.Fatal(err)
			}
			page := string(b)
			if want := `<html lang="` + c.Tag.String() + `" dir="` + c.Dir() + `">`; !strings.Contains(page, want) {
				t.Errorf("%s lacks %s", path, want)
			}
			for _, want := range []string{
				`<link rel="alternate" hreflang="en" href="` + base + enPath + `">`,
				`<link rel="alternate" hreflang="es" href="` + base + "/es" + enPath + `">`,
				`<link rel="alternate" hreflang="ar" href="` + base + "/ar" + enPath + `">`,
				`<link rel="alternate" hreflang="x-default" href="` + base + enPath + `">`,
				`<link rel="canonical" href="` + base + path + `">`,
			} {
				if !strings.Contains(page, want) {
					t.Errorf("%s lacks %s", path, want)
				}
			}
			res, err := ev.Check(entrycheck.CheckRequest{Passport: route[0], Destination: route[1], Language: code}, buildDay)
			if err != nil {
				t.Fatal(err)
			}
			text := html.UnescapeString(page)
			for _, want := range []string{res.RequirementLabel, res.ActionText, res.Disclaimer, c.Country(res.Destination.ISO2, res.Destination.Name)} {
				if !strings.Contains(text, want) {
					t.Errorf("%s does not say %q", path, want)
				}
			}
		}
	}
	// The English page names its translations too.
	b, err := os.ReadFile(filepath.Join(root, "passports", "deu", "tha", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `hreflang="ar" href="`+base+`/ar/passports/deu/tha/"`) || !strings.Contains(string(b), `<html lang="en" dir="ltr">`) {
		t.Errorf("the English page of DEU->THA does not link its Arabic version")
	}
	// The sitemap lists each route with its versions.
	maps, err := filepath.Glob(filepath.Join(root, "sitemaps", "routes-*.xml"))
	if err != nil || len(maps) == 0 {
		t.Fatalf("no route sitemaps: %v", err)
	}
	var all strings.Builder
	for _, m := range maps {
		b, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	entry := regexp.MustCompile(`<url><loc>` + regexp.QuoteMeta(base+"/passports/deu/tha/") + `</loc>.*?</url>`).FindString(all.String())
	for _, want := range []string{`hreflang="es" href="` + base + `/es/passports/deu/tha/"`, `hreflang="ar" href="` + base + `/ar/passports/deu/tha/"`, `hreflang="x-default" href="` + base + `/passports/deu/tha/"`} {
		if !strings.Contains(entry, want) {
			t.Errorf("the sitemap entry of DEU->THA lacks %s: %s", want, entry)
		}
	}
}

// translatedPages are pages of every kind a traveller reads, by their
// English addresses: route, passport and destination pages, the indexes,
// the home page, the not-found page and the widget page.
var translatedPages = []string{
	"/passports/deu/tha/", "/passports/nga/usa/", "/passports/jpn/gbr/", "/passports/gbr/usa/", "/passports/deu/aus/", "/passports/ind/mex/",
	"/passports/deu/", "/passports/nga/", "/passports/usa/",
	"/destinations/tha/", "/destinations/usa/", "/destinations/gbr/", "/destinations/bra/",
	"/passports/", "/destinations/", "/", "/404.html", "/widget/",
}

// TestEveryPageInEveryLanguage reads every kind of page in each language
// of the build: its language and direction, its address as canonical, the
// hreflang links of every version (x-default the English one), the
// language switcher naming the page's language as current, and links to
// the pages of the same language only (breadcrumbs, navigation, lists,
// the map), the search form asking in the language.
func TestEveryPageInEveryLanguage(t *testing.T) {
	root := builtInLanguages(t)
	codes := append([]string{locale.English}, strings.Split(languagesTested, ",")...)
	// Links to the pages published in every language, outside the
	// hreflang links and the language switcher.
	englishLink := regexp.MustCompile(`href="(/|/passports/[^"]*|/destinations/[^"]*|/widget/)"`)
	// A component call left as text by the templates ("@quote(a.Note)").
	templateText := regexp.MustCompile(`@[a-zA-Z]+\(`)
	for _, code := range codes {
		for _, enPath := range translatedPages {
			b, err := os.ReadFile(filepath.Join(root, sitetree.PageFile(code, enPath)))
			if err == nil && templateText.MatchString(readText(string(b))) {
				t.Errorf("%s: the page shows template text %q", templates.LocalPath(code, enPath), templateText.FindString(readText(string(b))))
			}
		}
	}
	for _, code := range codes[1:] {
		c, _ := locale.Embedded().Get(code)
		for _, enPath := range translatedPages {
			path := "/" + code + enPath
			b, err := os.ReadFile(filepath.Join(root, sitetree.PageFile(code, enPath)))
			if err != nil {
				t.Errorf("%s: %v", path, err)
				continue
			}
			page := string(b)
			want := []string{
				`<html lang="` + c.Tag.String() + `" dir="` + c.Dir() + `">`,
				`<link rel="canonical" href="` + base + path + `">`,
				`<link rel="alternate" hreflang="x-default" href="` + base + enPath + `">`,
				`aria-current="page">` + c.Name + `</a>`,
			}
			for _, other := range codes {
				o, _ := locale.Embedded().Get(other)
				want = append(want, `<link rel="alternate" hreflang="`+o.Tag.String()+`" href="`+base+templates.LocalPath(other, enPath)+`">`)
			}
			for _, w := range want {
				if !strings.Contains(page, w) {
					t.Errorf("%s lacks %s", path, w)
				}
			}
			body := regexp.MustCompile(`(?s)<link [^>]*>|<nav class="languages".*?</nav>`).ReplaceAllString(page, "")
			if m := englishLink.FindAllString(body, 3); len(m) > 0 {
				t.Errorf("%s links English pages: %v", path, m)
			}
			if strings.Contains(page, `action="/go"`) && !strings.Contains(page, `<input type="hidden" name="lang" value="`+code+`">`) {
				t.Errorf("%s: its search form does not ask in %s", path, code)
			}
		}
		// The breadcrumbs of a route page lead home, to the passports and to
		// its passport, in its language.
		b, err := os.ReadFile(filepath.Join(root, sitetree.PageFile(code, "/passports/deu/tha/")))
		if err != nil {
			t.Fatal(err)
		}
		crumbs := regexp.MustCompile(`(?s)<nav class="crumbs".*?</nav>`).FindString(string(b))
		for _, want := range []string{`href="/` + code + `/"`, `href="/` + code + `/passports/"`, `href="/` + code + `/passports/deu/"`, c.Country("DE", "Germany")} {
			if !strings.Contains(crumbs, want) {
				t.Errorf("the breadcrumbs of /%s/passports/deu/tha/ lack %s: %s", code, want, crumbs)
			}
		}
	}
	// The sitemap gives the versions of the translated pages, and none of
	// the pages published in English only.
	b, err := os.ReadFile(filepath.Join(root, "sitemaps", "pages.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for path, translated := range map[string]bool{"/": true, "/passports/deu/": true, "/destinations/tha/": true, "/widget/": true, "/transparency/": false} {
		entry := regexp.MustCompile(`<url><loc>` + regexp.QuoteMeta(base+path) + `</loc>.*?</url>`).FindString(string(b))
		alternate := `hreflang="ar" href="` + base + "/ar" + path + `"`
		if entry == "" || strings.Contains(entry, alternate) != translated {
			t.Errorf("the sitemap entry of %s: %q, want the Arabic version listed: %v", path, entry, translated)
		}
	}
}

// englishPhrases are the site's own English texts a page in the language
// of c must not show: every distinctive phrase of the English catalog,
// placeholders taken out, but those the language's own message
// says as they are (a programme's name, "OpenAPI"). Each matches at word
// boundaries.
func englishPhrases(c *locale.Catalog) map[string]*regexp.Regexp {
	en := locale.Embedded().English()
	out := map[string]*regexp.Regexp{}
	for _, id := range en.IDs() {
		own := strings.Join(catalogTexts(c, id), "\n")
		for _, text := range catalogTexts(en, id) {
			for _, part := range placeholder.Split(text, -1) {
				phrase := strings.TrimFunc(part, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
				if !distinctive(phrase) || strings.Contains(own, phrase) {
					continue
				}
				out[phrase] = regexp.MustCompile(`\b` + regexp.QuoteMeta(phrase) + `\b`)
			}
		}
	}
	return out
}

// distinctive reports whether a phrase says something in English, rather
// than joining words ("of the", "as of"): two words or more, one of them
// longer than three letters.
func distinctive(phrase string) bool {
	words := strings.Fields(phrase)
	return len(words) >= 2 && slices.ContainsFunc(words, func(w string) bool { return len([]rune(w)) > 3 })
}

// placeholder is a message's {placeholder}.
var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// catalogTexts is message id of c, each plural form of a counted one.
func catalogTexts(c *locale.Catalog, id string) []string {
	if forms := c.Forms(id); forms != nil {
		return slices.Collect(maps.Values(forms))
	}
	return []string{c.Text(id)}
}

var (
	// quotedEnglish is an element marked as English, with its content.
	quotedEnglish = regexp.MustCompile(`(?s)<(p|span|q|blockquote|dd|div|a)[^>]*\blang="en"[^>]*>.*?</(p|span|q|blockquote|dd|div|a)>`)
	// citedName is the name of a cited page, as the curators recorded
	// its publisher's title.
	citedName = regexp.MustCompile(`<a [^>]*rel="external nofollow"[^>]*>[^<]*</a>`)
	// readAttribute is an attribute a reader or assistive technology
	// reads: labels, placeholders, titles, text alternatives, the page's
	// description and link preview, the words the page's script writes.
	readAttribute = regexp.MustCompile(`\b(?:aria-label|placeholder|title|alt|content|data-words)="([^"]*)"`)
	// hidden is what a page does not show: its head, scripts and styles
	// (not its header).
	hidden = regexp.MustCompile(`(?is)<(script|style|head)\b[^>]*>.*?</(script|style|head)>`)
	// structuredData is the page's JSON-LD.
	structuredData = regexp.MustCompile(`(?s)<script type="application/ld\+json">(.*?)</script>`)
)

// readText is what a page gives to read, English cited texts and the
// names of cited pages left out: its text, the attributes people read and
// its structured data.
func readText(page string) string {
	s := quotedEnglish.ReplaceAllString(page, " ")
	s = citedName.ReplaceAllString(s, " ")
	var parts []string
	for _, m := range readAttribute.FindAllStringSubmatch(s, -1) {
		parts = append(parts, m[1])
	}
	for _, m := range structuredData.FindAllStringSubmatch(s, -1) {
		parts = append(parts, m[1])
	}
	s = hidden.ReplaceAllString(s, " ")
	parts = append(parts, tags.ReplaceAllString(s, " "))
	return html.UnescapeString(strings.Join(parts, "\n"))
}

// TestTranslatedPagesSpeakTheirLanguage reads every kind of translated
// page for the site's own English, the phrases of the English catalog:
// only cited texts, marked lang="en", and the names of sources and
// programmes may be in English.
func TestTranslatedPagesSpeakTheirLanguage(t *testing.T) {
	root := builtInLanguages(t)
	for _, code := range strings.Split(languagesTested, ",") {
		c, _ := locale.Embedded().Get(code)
		phrases := englishPhrases(c)
		failures := 0
		for _, enPath := range translatedPages {
			b, err := os.ReadFile(filepath.Join(root, sitetree.PageFile(code, enPath)))
			if err != nil {
				t.Fatal(err)
			}
			text := readText(string(b))
			for phrase, re := range phrases {
				if re.MatchString(text) {
					if failures++; failures <= 12 {
						t.Errorf("/%s%s says %q in English", code, enPath, phrase)
					}
				}
			}
		}
		if failures > 12 {
			t.Errorf("%s: %d English phrases in all", code, failures)
		}
	}
}

// TestServeFindsThePagesOfEveryLanguage asks entrycheck serve for the
// translated pages by their addresses (/{lang}/...): it finds them beside
// the English pages, sends their file names and slashless addresses to
// the canonical one, and gives the English markdown to a client that
// prefers markdown.
func TestServeFindsThePagesOfEveryLanguage(t *testing.T) {
	h := serveTree(t, builtInLanguages(t))
	get := func(path, accept string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		if accept != "" {
			req.Header.Set("Accept", accept)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for _, code := range strings.Split(languagesTested, ",") {
		c, _ := locale.Embedded().Get(code)
		page := "/" + code + "/passports/deu/tha/"
		rec := get(page, "text/html")
		if want := `<html lang="` + c.Tag.String() + `"`; rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), want) {
			t.Errorf("%s: %d, want 200 with %s", page, rec.Code, want)
		}
		if rec := get(page, "text/markdown"); rec.Code != http.StatusOK || !strings.HasPrefix(rec.Header().Get("Content-Type"), "text/markdown") {
			t.Errorf("%s as markdown: %d %s", page, rec.Code, rec.Header().Get("Content-Type"))
		}
		for from, to := range map[string]string{
			"/passports/deu/tha/index." + code + ".html": page,
			strings.TrimSuffix(page, "/"):                page,
		} {
			if rec := get(from, "text/html"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != to {
				t.Errorf("%s: %d to %q, want 301 to %s", from, rec.Code, rec.Header().Get("Location"), to)
			}
		}
	}
	if rec := get("/es/passports/deu/xyz/", "text/html"); rec.Code != http.StatusNotFound {
		t.Errorf("a route that does not exist in Spanish: %d, want 404", rec.Code)
	}
}

// TestServeAnswersInTheLanguageOfThePath: a path under /{lang}/ that names
// no page gets the not-found page in that language, with its suggestions
// leading to pages in it; a path it can mend is sent to the page in the
// same language; the search form of a page in another language finds the
// countries by their names in it and leads to its pages.
func TestServeAnswersInTheLanguageOfThePath(t *testing.T) {
	h := serveTree(t, builtInLanguages(t))
	get := func(path string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept", "text/html")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	for _, code := range strings.Split(languagesTested, ",") {
		c, _ := locale.Embedded().Get(code)
		rec := get("/" + code + "/passports/deu/thailnd/")
		body := rec.Body.String()
		for _, want := range []string{`<html lang="` + c.Tag.String() + `" dir="` + c.Dir() + `">`, c.Text("page.not_found.heading"), c.Text("page.find.did_you_mean"), `href="/` + code + `/passports/deu/tha/"`} {
			if rec.Code != http.StatusNotFound || !strings.Contains(body, want) {
				t.Errorf("/%s/passports/deu/thailnd/: %d, without %s", code, rec.Code, want)
			}
		}
		if rec := get("/" + code + "/passports/GER/"); rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") != "/"+code+"/passports/deu/" {
			t.Errorf("/%s/passports/GER/: %d to %q", code, rec.Code, rec.Header().Get("Location"))
		}
		q := url.Values{"lang": {code}, "passport": {c.Country("DE", "Germany")}, "destination": {strings.ToUpper(c.Country("TH", "Thailand"))}}
		if rec := get("/go?" + q.Encode()); rec.Code != http.StatusSeeOther || rec.Header().Get("Location") != "/"+code+"/passports/deu/tha/" {
			t.Errorf("/go in %s: %d to %q", code, rec.Code, rec.Header().Get("Location"))
		}
	}
}
