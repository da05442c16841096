package api

import (
	"net/http"
	"slices"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/entrycheck/entrycheck/internal/api/response"
)

// notFound answers a path no route serves; a path served for other
// methods only (GET on POST /oauth/token, which the site's catch-all
// route receives) gets the 405 instead.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if allow := s.allowed(r.URL.Path); len(allow) > 0 && !slices.Contains(allow, r.Method) {
		s.methodNotAllowed(w, r)
		return
	}
	response.Fail(w, r, http.StatusNotFound, response.CodeNotFound, "no such resource: see /openapi.json for the endpoints")
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	allow := s.allowed(r.URL.Path)
	w.Header().Set("Allow", strings.Join(allow, ", "))
	response.Fail(w, r, http.StatusMethodNotAllowed, response.CodeMethodNotAllowed, r.Method+" is not allowed here: use "+strings.Join(allow, " or ")+" (see /openapi.json for the methods of each endpoint)")
}

// allowed lists the methods the routes serve at path. The site's
// catch-all counts only where no other route serves the path: it answers
// any path, but GET /oauth/token is not a page.
func (s *Server) allowed(path string) []string {
	var routes, site []string
	for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete, http.MethodOptions} {
		rctx := chi.NewRouteContext()
		switch {
		case !s.router.Match(rctx, m, path):
		case rctx.RoutePattern() == "/*":
			site = append(site, m)
		default:
			routes = append(routes, m)
		}
	}
	if len(routes) == 0 {
		return site
	}
	return routes
}
