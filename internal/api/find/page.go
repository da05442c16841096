package find

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/compression"
	"github.com/entrycheck/entrycheck/internal/locale"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// findView is the page model shared by the 404 page and /go, in the
// language of c, titled by message title ("Find a route", "Page not
// found"): the /go page says what it helps with, the 404 page first that
// the page asked for does not exist. The search form offers the countries
// by their names in the language.
func (f *Finder) findView(r *http.Request, c *locale.Catalog, title string) templates.FindView {
	css, _, _ := templates.AssetPath("site.css") // embedded: cannot fail
	icon, _, _ := templates.AssetPath("favicon.svg")
	v := templates.FindView{Page: templates.Page{
		Title: c.Text(title) + " | " + templates.SiteName, Description: c.Text("page.find.description"),
		Path: r.URL.Path, BaseURL: f.BaseURL, Stylesheet: css, Icon: icon, W: c,
	}}
	v.Countries = f.Countries
	if c.Code != locale.English {
		snap := f.Evaluator().Snapshot()
		v.Countries = templates.CountryOptionsIn(c, snap.Matrix.Countries(), snap.Countries.Aliases)
	}
	return v
}

// writeFind sends the page in markdown or HTML, compressed as the static
// files are when the client accepts it; it is never cached, since it
// answers what was typed.
func (f *Finder) writeFind(w http.ResponseWriter, r *http.Request, status int, v templates.FindView) {
	h := w.Header()
	h.Set("Cache-Control", response.CacheNone)
	h.Add("Vary", "Accept")
	h.Add("Vary", "Accept-Encoding")
	var body []byte
	if request.PrefersMarkdown(r) {
		h.Set("Content-Type", "text/markdown; charset=utf-8")
		body = templates.FindMarkdown(v)
	} else {
		var b bytes.Buffer
		if err := templates.FindPage(v).Render(r.Context(), &b); err != nil {
			response.Error(f.Log, w, r, err)
			return
		}
		h.Set("Content-Type", "text/html; charset=utf-8")
		body = b.Bytes()
	}
	if enc := compression.Negotiate(r.Header.Get("Accept-Encoding")); enc != "" {
		if c, err := f.compressor.Compress(enc, body); err == nil && len(c) < len(body) {
			response.Encoded(h, enc, "")
			body = c
		}
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
