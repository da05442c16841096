package api_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// visit requests a site path as a browser would (Accept given), without
// following redirects.
func (e *env) visit(t *testing.T, path, accept string) (*http.Response, string) {
	t.Helper()
	resp, b := fetchRaw(t, http.MethodGet, e.url+path, "Accept", accept)
	return resp, string(b)
}

const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

// TestGoResolvesNamesCodesAndAliases: the search form's target sends a
// person to the page of what they typed.
func TestGoResolvesNamesCodesAndAliases(t *testing.T) {
	e := start(t, "")
	for query, want := range map[string]string{
		"passport=Germany&destination=thailand": "/passports/deu/tha/",
		"passport=DE&destination=THA":           "/passports/deu/tha/",
		"passport=GER&destination=th":           "/passports/deu/tha/",
		"passport=UK&destination=United+States": "/passports/gbr/usa/",
		"passport=c%C3%B4te+d%27ivoire":         "/passports/civ/",
		"destination=Thailand":                  "/destinations/tha/",
		"passport=deu&destination=DEU":          "/passports/deu/",
	} {
		resp, _ := e.visit(t, "/go?"+query, browser)
		if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != want {
			t.Errorf("/go?%s: %d to %q, want 303 to %s", query, resp.StatusCode, resp.Header.Get("Location"), want)
		}
	}
	// A typo gets an HTML page with the routes it probably means and the form.
	resp, body := e.visit(t, "/go?passport=Germny&destination=Thailand", browser)
	if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(body, `href="/passports/deu/tha/"`) || !strings.Contains(body, "Passport of Germany to Thailand") ||
		!strings.Contains(body, `action="/go"`) || !strings.Contains(body, "Germny") {
		t.Errorf("/go with a typo: %d %s\n%.600s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	// Nothing typed, or nothing close: still a page a person can act on.
	for _, q := range []string{"", "passport=Qwzx"} {
		resp, body := e.visit(t, "/go?"+q, browser)
		if resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, `name="passport"`) {
			t.Errorf("/go?%s: %d\n%.300s", q, resp.StatusCode, body)
		}
	}
	// Agents asking for markdown get markdown.
	resp, body = e.visit(t, "/go?passport=Germny", "text/markdown")
	if resp.StatusCode != http.StatusBadRequest || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") || !strings.Contains(body, "(/passports/deu/)") {
		t.Errorf("/go in markdown: %d\n%s", resp.StatusCode, body)
	}
}

// TestSitePathsFindTheirPage: a route written in upper case, with an alias
// or a name redirects to its canonical page; a path that names nothing
// gets an HTML 404 with suggestions for browsers, markdown for agents, and
// JSON otherwise and on API paths.
func TestSitePathsFindTheirPage(t *testing.T) {
	e := start(t, "")
	page := filepath.Join(e.cfg.PublicDir, "passports", "deu", "tha", "index.html")
	if err := os.MkdirAll(filepath.Dir(page), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, []byte("<!DOCTYPE html><title>DEU THA</title>"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"/passports/DEU/THA/":          "/passports/deu/tha/",
		"/passports/ger/thailand/":     "/passports/deu/tha/",
		"/passports/Germany/":          "/passports/deu/",
		"/destinations/TH/":            "/destinations/tha/",
		"/passports/DEU/THA/?ref=mail": "/passports/deu/tha/?ref=mail",
	} {
		resp, _ := e.visit(t, path, browser)
		if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != want {
			t.Errorf("%s: %d to %q, want 301 to %s", path, resp.StatusCode, resp.Header.Get("Location"), want)
		}
	}
	resp, body := e.visit(t, "/passports/xx1/tha/", browser)
	if resp.StatusCode != http.StatusNotFound || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(body, "Page not found") || !strings.Contains(body, `action="/go"`) {
		t.Errorf("browser 404: %d %s\n%.300s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if _, body := e.visit(t, "/passports/germny/thailand/", browser); !strings.Contains(body, `href="/passports/deu/tha/"`) {
		t.Errorf("a misspelt route suggests nothing:\n%.600s", body)
	}
	if resp, body := e.visit(t, "/nowhere/", "text/markdown"); resp.StatusCode != http.StatusNotFound || !strings.HasPrefix(body, "# Page not found") {
		t.Errorf("markdown 404: %d\n%s", resp.StatusCode, body)
	}
	for _, c := range []struct{ path, accept string }{{"/nowhere/", ""}, {"/nowhere/", "application/json"}, {"/v1/nowhere", browser}, {"/.well-known/nowhere", browser}} {
		resp, body := e.visit(t, c.path, c.accept)
		if resp.StatusCode != http.StatusNotFound || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") || !strings.Contains(body, `"error":"not_found"`) {
			t.Errorf("%s (Accept %q): %d %s %s", c.path, c.accept, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
}

// TestNotFoundPageSaysSo: the 404 page a browser gets is titled for what
// happened; /go, which helps find a route, keeps its own title. Both have
// the site's favicon.
func TestNotFoundPageSaysSo(t *testing.T) {
	e := start(t, "")
	for path, want := range map[string]string{
		"/passports/xx1/tha/":     "<title>Page not found | entrycheck</title>",
		"/nowhere/":               "<title>Page not found | entrycheck</title>",
		"/go?passport=Germny":     "<title>Find a route | entrycheck</title>",
		"/go?destination=Thailnd": "<title>Find a route | entrycheck</title>",
	} {
		_, body := e.visit(t, path, browser)
		if !strings.Contains(body, want) {
			t.Errorf("%s has no %s:\n%.400s", path, want, body)
		}
		if !strings.Contains(body, `<link rel="icon" type="image/svg+xml" href="/assets/favicon.`) {
			t.Errorf("%s has no favicon", path)
		}
	}
}

// TestFindPagesAreCompressed: the 404 and /go pages, rendered per request,
// are sent compressed as the static files are: brotli before gzip by the
// weights of Accept-Encoding, identity when neither is accepted, with
// Vary naming both negotiated headers, in HTML and in markdown.
func TestFindPagesAreCompressed(t *testing.T) {
	e := start(t, "")
	get := func(path, accept, encoding string) (*http.Response, []byte) {
		t.Helper()
		return fetchRaw(t, http.MethodGet, e.url+path, "Accept", accept, "Accept-Encoding", encoding)
	}
	for _, c := range []struct {
		path, accept string
		status       int
		text         string
	}{
		{"/passports/germny/thailand/", browser, http.StatusNotFound, "Page not found"},
		{"/go?passport=Germny&destination=Thailand", browser, http.StatusBadRequest, "Passport of Germany to Thailand"},
		{"/nowhere/", "text/markdown", http.StatusNotFound, "# Page not found"},
		{"/go?passport=Germny", "text/markdown", http.StatusBadRequest, "(/passports/deu/)"},
	} {
		_, plain := get(c.path, c.accept, "")
		for encoding, want := range map[string]string{
			"":                        "",
			"gzip, deflate, br, zstd": "br",
			"gzip":                    "gzip",
			"br;q=0.5, gzip":          "gzip",
			"br;q=0, gzip;q=0":        "",
			"identity":                "",
		} {
			resp, b := get(c.path, c.accept, encoding)
			got := resp.Header.Get("Content-Encoding")
			body := string(decoded(t, got, b))
			vary := strings.Join(resp.Header.Values("Vary"), ", ")
			switch {
			case resp.StatusCode != c.status:
				t.Errorf("%s (%q): status %d, want %d", c.path, encoding, resp.StatusCode, c.status)
			case got != want:
				t.Errorf("%s (%q): Content-Encoding %q, want %q", c.path, encoding, got, want)
			case !strings.Contains(vary, "Accept-Encoding") || !strings.Contains(vary, "Accept"):
				t.Errorf("%s (%q): Vary %q", c.path, encoding, vary)
			case !strings.Contains(body, c.text) || body != string(plain):
				t.Errorf("%s (%q): the decoded page differs from the plain one or lacks %q", c.path, encoding, c.text)
			case want != "" && len(b) >= len(plain):
				t.Errorf("%s (%q): %d bytes compressed, %d plain", c.path, encoding, len(b), len(plain))
			case resp.Header.Get("Content-Length") != strconv.Itoa(len(b)):
				t.Errorf("%s (%q): Content-Length %q for %d bytes", c.path, encoding, resp.Header.Get("Content-Length"), len(b))
			}
		}
	}
}
