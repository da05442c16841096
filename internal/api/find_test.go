package api_test

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// visit requests a site path as a browser would (Accept given), without
// following redirects.
func (e *env) visit(t *testing.T, path, accept string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, e.url+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
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
		!strings.Contains(body, `href="/passports/deu/tha/"`) || !strings.Contains(body, "Germany passport to Thailand") ||
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
// happened; /go, which helps find a route, keeps its own title.
func TestNotFoundPageSaysSo(t *testing.T) {
	e := start(t, "")
	for path, want := range map[string]string{
		"/passports/xx1/tha/":     "<title>Page not found | entrycheck</title>",
		"/nowhere/":               "<title>Page not found | entrycheck</title>",
		"/go?passport=Germny":     "<title>Find a route | entrycheck</title>",
		"/go?destination=Thailnd": "<title>Find a route | entrycheck</title>",
	} {
		if _, body := e.visit(t, path, browser); !strings.Contains(body, want) {
			t.Errorf("%s has no %s:\n%.400s", path, want, body)
		}
	}
}
