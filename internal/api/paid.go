package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// paidPassport answers GET /v1/passport/{iso3}: the passport's requirement for every destination.
func (s *Server) paidPassport(r *http.Request) (any, error) {
	return s.evaluator().PassportMatrix(chi.URLParam(r, "iso3"), requestIDOf(r), s.clock)
}
