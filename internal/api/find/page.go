package find

import (
	"bytes"
	"net/http"

	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
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
	v := templates.FindView{Page: templates.Page{
		Title: title, Description: "Find the entry requirements of a passport and destination.",
		Path: r.URL.Path, BaseURL: f.BaseURL, Stylesheet: css,
	}}
	v.Countries = f.Countries
	return v
}

// writeFind sends the page in markdown or HTML; it is never cached, since
// it answers what was typed.
func (f *Finder) writeFind(w http.ResponseWriter, r *http.Request, status int, v templates.FindView) {
	h := w.Header()
	h.Set("Cache-Control", response.CacheNone)
	h.Add("Vary", "Accept")
	if request.PrefersMarkdown(r) {
		h.Set("Content-Type", "text/markdown; charset=utf-8")
		w.WriteHeader(status)
		_, _ = w.Write(templates.FindMarkdown(v))
		return
	}
	var b bytes.Buffer
	if err := templates.FindPage(v).Render(r.Context(), &b); err != nil {
		response.Error(f.Log, w, r, err)
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}
