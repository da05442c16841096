package find

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/compression"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// Titles of the pages: /go helps find a route, the 404 page says first
// that the page asked for does not exist.
const (
	titleGo       = "Find a route | entrycheck"
	titleNotFound = "Page not found | entrycheck"
)

// findView is the page model shared by the 404 page and /go, under title.
func (f *Finder) findView(r *http.Request, title string) templates.FindView {
	css, _, _ := templates.AssetPath("site.css") // embedded: cannot fail
	icon, _, _ := templates.AssetPath("favicon.svg")
	v := templates.FindView{Page: templates.Page{
		Title: title, Description: "Find the entry requirements of a passport and destination.",
		Path: r.URL.Path, BaseURL: f.BaseURL, Stylesheet: css, Icon: icon,
	}}
	v.Countries = f.Countries
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
