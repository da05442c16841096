package rest

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/entrycheck/entrycheck/internal/api/request"
)

// PaidPassport answers GET /v1/passport/{iso3}: the passport's requirement for every destination.
func (e *Endpoints) PaidPassport(r *http.Request) (any, error) {
	return e.Evaluator().PassportMatrix(chi.URLParam(r, "iso3"), request.ID(r), e.Clock)
}
