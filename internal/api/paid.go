package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/entrycheck/entrycheck/internal/api/request"
)

// paidPassport answers GET /v1/passport/{iso3}: the passport's requirement for every destination.
func (s *Server) paidPassport(r *http.Request) (any, error) {
	return s.evaluator().PassportMatrix(chi.URLParam(r, "iso3"), request.ID(r), s.clock)
}
