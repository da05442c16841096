package generator_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"golang.org/x/net/html"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/generator"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/sitetree"
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

// englishWords are words of the site's own English that a page in another
// language must not show outside a text marked lang="en" (a cited text).
var englishWords = regexp.MustCompile(`\b(Allowed stay|Entry rules of|Source|As of|Skip to content|Passports|Destinations|Where the verdict comes from|Not cited yet|What official pages say for other passports|Nothing is guessed|the official pages|This answer as JSON|Apply at an embassy|Visa required|Visa-free|read \d+ \w+ \d{4})\b`)

// quotedEnglish is an element marked as English, with its content.
var quotedEnglish = regexp.MustCompile(`(?s)<(p|span|q|blockquote|dd|div|a)[^>]*\blang="en"[^>]*>.*?</(p|span|q|blockquote|dd|div|a)>`)

// TestTranslatedPagesSpeakTheirLanguage reads the translated route pages
// for the site's own English: only cited texts, marked lang="en", and the
// names of sources and programmes may be in English.
func TestTranslatedPagesSpeakTheirLanguage(t *testing.T) {
	root := builtInLanguages(t)
	for _, code := range strings.Split(languagesTested, ",") {
		failures := 0
		for _, route := range []string{"deu/tha", "nga/usa", "jpn/gbr", "gbr/usa", "deu/aus", "ind/mex"} {
			path := filepath.Join(root, sitetree.PageFile(code, "/passports/"+route+"/"))
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s := quotedEnglish.ReplaceAllString(string(b), " ")
			s = citedNameHTML.ReplaceAllString(s, " ")
			s = regexp.MustCompile(`(?is)<(script|style|head)[^>]*>.*?</(script|style|head)>`).ReplaceAllString(s, " ")
			text := html.UnescapeString(tags.ReplaceAllString(s, " "))
			for _, m := range englishWords.FindAllString(text, -1) {
				if failures++; failures <= 8 {
					t.Errorf("/%s/passports/%s/ says %q in English", code, route, m)
				}
			}
		}
		if failures > 8 {
			t.Errorf("%s: %d English words in all", code, failures)
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
