package api

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
)

// staticFiles serves the generated tree. Paths that name no file get the
// API's JSON 404, and a missing tree is not fatal: the API still answers.
func (s *Server) staticFiles(dir string) http.Handler {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			s.fail(w, r, http.StatusNotFound, codeNotFound, "no such resource, and no generated site is served here (run entrycheck build); the API is described at /openapi.json")
		})
	}
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+r.URL.Path)))
		if st, err := os.Stat(name); err != nil || st.IsDir() && !exists(filepath.Join(name, "index.html")) {
			s.notFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	})
}

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}
