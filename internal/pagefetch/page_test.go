package pagefetch_test

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/pagefetch"
)

const pagePath = "/foreign-travel-advice/examplestan/entry-requirements"

// wantGovText is the main text of defaultGovPage: the rules and their
// stamps, without cookie banner, skip link, header, navigation,
// breadcrumbs, notification banner, aside or footer.
const wantGovText = `Examplestan travel advice
Still current at: 22 November 2026
Updated: 3 March 2026
Entry requirements
This advice reflects the UK government's understanding of current rules for people travelling on a full ‘British citizen’ passport.
Passport validity
If you are visiting Examplestan, your passport must be valid for six months from the date you arrive.
Your passport must have at least 2 blank pages for entry and exit stamps.
Visa requirements
You can visit Examplestan without a visa for up to 90 days.
You must hold a return or onward ticket.
Purpose | Visa needed
Tourism | No
Work | Yes
Page generated 22 November 2026 14:05. This page has been viewed 1,234 times.
Last updated 3 March 2026`

func TestUnchangedPageKeepsFingerprint(t *testing.T) {
	s := newSite(t)
	s.handle(pagePath, serveHTML(defaultGovPage().render(t)))
	f := newFetcher(t, testConfig())

	first := fetchOne(t, f, pagefetch.Request{URL: s.url(pagePath)})
	second := fetchOne(t, f, pagefetch.Request{URL: s.url(pagePath)})
	wantStatus(t, first, pagefetch.StatusOK, "")
	wantStatus(t, second, pagefetch.StatusOK, "")
	if first.Text != wantGovText {
		t.Errorf("text:\n%s\nwant:\n%s", first.Text, wantGovText)
	}
	if first.Fingerprint != second.Fingerprint {
		t.Errorf("fingerprints differ for the same page: %s, %s", first.Fingerprint, second.Fingerprint)
	}
	if !strings.HasPrefix(first.Fingerprint, "sha256:") || len(first.Fingerprint) != len("sha256:")+64 {
		t.Errorf("fingerprint %q is not sha256:<hex>", first.Fingerprint)
	}
	if first.HTTPStatus != http.StatusOK || first.Attempts != 1 || first.FinalURL != s.url(pagePath) {
		t.Errorf("got HTTP %d, %d attempts, final URL %q", first.HTTPStatus, first.Attempts, first.FinalURL)
	}
	if first.ContentType != "text/html; charset=utf-8" {
		t.Errorf("content type %q", first.ContentType)
	}
	if first.FetchedAt.IsZero() || first.FetchedAt.Location() != time.UTC {
		t.Errorf("FetchedAt %v is not a UTC time", first.FetchedAt)
	}
}

func TestChangedRuleChangesFingerprint(t *testing.T) {
	s := newSite(t)
	page := &mutablePage{}
	s.handle(pagePath, page.ServeHTTP)
	f := newFetcher(t, testConfig())

	before := defaultGovPage()
	page.set(before.render(t))
	old := fetchOne(t, f, pagefetch.Request{URL: s.url(pagePath)})

	after := before
	after.Validity = "three months"
	page.set(after.render(t))
	changed := fetchOne(t, f, pagefetch.Request{URL: s.url(pagePath)})

	wantStatus(t, old, pagefetch.StatusOK, "")
	wantStatus(t, changed, pagefetch.StatusOK, "")
	if old.Fingerprint == changed.Fingerprint {
		t.Fatal("the validity rule changed but the fingerprint did not")
	}
	summary := pagefetch.Summarize(old.Text, changed.Text)
	for _, want := range []string{
		"1 line added, 1 removed",
		`added: "If you are visiting Examplestan, your passport must be valid for three months`,
		`removed: "If you are visiting Examplestan, your passport must be valid for six months`,
	} {
		if !strings.Contains(summary, want) {
			t.Errorf("summary %q lacks %q", summary, want)
		}
	}
}

func TestBoilerplateChangeKeepsFingerprint(t *testing.T) {
	s := newSite(t)
	page := &mutablePage{}
	s.handle(pagePath, page.ServeHTTP)
	f := newFetcher(t, testConfig())

	before := defaultGovPage()
	page.set(before.render(t))
	old := fetchOne(t, f, pagefetch.Request{URL: s.url(pagePath)})

	// Everything but the rules: stamps, banners, navigation, footer, the
	// related links, the counter and the generation time.
	after := govPage{
		Validity:    before.Validity,
		CookieText:  "We'd like to set additional cookies to understand how you use GOV.EXAMPLE.",
		NavLinks:    []string{"Topics", "Government activity", "Departments", "Search"},
		Alert:       "Elections: check the latest travel advice before you go.",
		Related:     "Travel insurance",
		CurrentAt:   "Monday, 23 November 2026",
		Updated:     "20 November 2026",
		Generated:   "2026-11-23 09:41:07 UTC",
		Views:       "1,240",
		LastUpdated: "November 20, 2026",
		Footer:      "© Crown copyright 2027. Accessibility statement.",
	}
	page.set(after.render(t))
	changed := fetchOne(t, f, pagefetch.Request{URL: s.url(pagePath)})

	wantStatus(t, changed, pagefetch.StatusOK, "")
	if old.Fingerprint != changed.Fingerprint {
		t.Errorf("boilerplate-only change altered the fingerprint\nold text:\n%s\nnew text:\n%s", old.Text, changed.Text)
	}
	if got := pagefetch.Summarize(old.Text, changed.Text); got != "no content change" {
		t.Errorf("Summarize = %q, want no content change", got)
	}
}

func TestConditionalGet(t *testing.T) {
	const etag = `"entry-v1"`
	modified := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	body := defaultGovPage().render(t)
	s := newSite(t)
	// http.ServeContent honours If-None-Match and If-Modified-Since the way
	// real servers do.
	s.handle(pagePath, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", etag)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		http.ServeContent(w, r, "page.html", modified, strings.NewReader(body))
	})
	// A server that answers 304 without repeating its validators.
	s.handle("/bare-304", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotModified)
	})
	f := newFetcher(t, testConfig())

	first := fetchOne(t, f, pagefetch.Request{URL: s.url(pagePath)})
	wantStatus(t, first, pagefetch.StatusOK, "")
	if first.ETag != etag || first.LastModified != "Tue, 03 Mar 2026 10:00:00 GMT" {
		t.Fatalf("validators %q %q", first.ETag, first.LastModified)
	}

	tests := []struct {
		name string
		req  pagefetch.Request
	}{
		{"both validators", pagefetch.Request{URL: s.url(pagePath), ETag: first.ETag, LastModified: first.LastModified}},
		{"ETag only", pagefetch.Request{URL: s.url(pagePath), ETag: first.ETag}},
		{"Last-Modified only", pagefetch.Request{URL: s.url(pagePath), LastModified: first.LastModified}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := fetchOne(t, f, tt.req)
			wantStatus(t, r, pagefetch.StatusNotModified, "")
			// The server repeats its ETag on a 304 but, having one, drops
			// Last-Modified (RFC 9110, 15.4.5): the request's is kept.
			if r.HTTPStatus != http.StatusNotModified || r.ETag != etag || r.LastModified != tt.req.LastModified {
				t.Errorf("got HTTP %d, validators %q %q", r.HTTPStatus, r.ETag, r.LastModified)
			}
			if r.Text != "" || r.Fingerprint != "" {
				t.Errorf("a 304 has text %q, fingerprint %q", r.Text, r.Fingerprint)
			}
		})
	}
	reqs := s.requests(pagePath)
	last := reqs[len(reqs)-1].header
	if last.Get("If-Modified-Since") != first.LastModified || reqs[1].header.Get("If-None-Match") != etag {
		t.Errorf("conditional headers not sent: %v", reqs[1].header)
	}

	t.Run("validators kept when the 304 has none", func(t *testing.T) {
		r := fetchOne(t, f, pagefetch.Request{URL: s.url("/bare-304"), ETag: `"x"`, LastModified: "Mon, 02 Mar 2026 10:00:00 GMT"})
		wantStatus(t, r, pagefetch.StatusNotModified, "")
		if r.ETag != `"x"` || r.LastModified != "Mon, 02 Mar 2026 10:00:00 GMT" {
			t.Errorf("validators %q %q not kept", r.ETag, r.LastModified)
		}
	})
	t.Run("304 to an unconditional request", func(t *testing.T) {
		r := fetchOne(t, f, pagefetch.Request{URL: s.url("/bare-304")})
		wantStatus(t, r, pagefetch.StatusFailed, pagefetch.ReasonHTTPStatus)
	})
}

func TestContentTypes(t *testing.T) {
	pdf := "%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n"
	pdfSum := fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(pdf)))
	s := newSite(t)
	s.handle("/rules.txt", serveText("text/plain; charset=utf-8", "Entry rules\r\n\r\n  Passports   must be valid\u00a0for six months. \n"))
	s.handle("/rules.pdf", serveText("application/pdf", pdf))
	s.handle("/pdf-as-html", serveText("text/html", pdf))
	s.handle("/untyped", func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Content-Type"] = nil // stop the server from sniffing for us
		_, _ = w.Write([]byte("<!DOCTYPE html><p>Sniffed rule</p>"))
	})
	s.handle("/latin1", serveText("text/html; charset=windows-1252", "<main><p>Caf\xe9 d\x92entr\xe9e</p></main>"))
	s.handle("/chrome-only", serveHTML(`<html><body><nav><a href="/">Home</a></nav><footer>© 2026</footer></body></html>`))
	s.handle("/empty", serveText("text/html", ""))
	f := newFetcher(t, testConfig())

	tests := []struct {
		path            string
		status          pagefetch.Status
		reason          string
		text            string
		fingerprint     string
		problemContains string
	}{
		{path: "/rules.txt", status: pagefetch.StatusOK, text: "Entry rules\nPassports must be valid for six months."},
		{path: "/rules.pdf", status: pagefetch.StatusOK, fingerprint: pdfSum},
		{path: "/pdf-as-html", status: pagefetch.StatusOK, fingerprint: pdfSum},
		{path: "/untyped", status: pagefetch.StatusOK, text: "Sniffed rule"},
		{path: "/latin1", status: pagefetch.StatusOK, text: "Café d’entrée"},
		{path: "/chrome-only", status: pagefetch.StatusFailed, reason: pagefetch.ReasonUnsupported, problemContains: "no main text"},
		{path: "/empty", status: pagefetch.StatusFailed, reason: pagefetch.ReasonUnsupported, problemContains: "empty body"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			r := fetchOne(t, f, pagefetch.Request{URL: s.url(tt.path)})
			wantStatus(t, r, tt.status, tt.reason)
			if r.Text != tt.text {
				t.Errorf("text %q, want %q", r.Text, tt.text)
			}
			if tt.fingerprint != "" && r.Fingerprint != tt.fingerprint {
				t.Errorf("fingerprint %q, want %q", r.Fingerprint, tt.fingerprint)
			}
			if tt.status == pagefetch.StatusOK && tt.text != "" && r.Fingerprint != pagefetch.Fingerprint(tt.text) {
				t.Errorf("fingerprint %q is not Fingerprint(text)", r.Fingerprint)
			}
			if !strings.Contains(r.Problem, tt.problemContains) {
				t.Errorf("problem %q lacks %q", r.Problem, tt.problemContains)
			}
		})
	}
}

func TestTextIsCapped(t *testing.T) {
	line := "<p>" + strings.Repeat("Visa rule text. ", 60) + "</p>\n"
	body := "<main>" + strings.Repeat(line, 400) + "</main>" // ~380 KiB of text
	s := newSite(t)
	s.handle("/long", serveHTML(body))
	r := fetchOne(t, newFetcher(t, testConfig()), pagefetch.Request{URL: s.url("/long")})
	wantStatus(t, r, pagefetch.StatusOK, "")
	if len(r.Text) > pagefetch.MaxText || len(r.Text) < pagefetch.MaxText-1000 {
		t.Errorf("text is %d bytes, want just under %d", len(r.Text), pagefetch.MaxText)
	}
	if strings.HasSuffix(r.Text, " ") || strings.Count(r.Text, "\n") == 0 {
		t.Errorf("text not cut at a line end")
	}
}
