package api

import (
	"errors"
	"net/http"

	"github.com/entrycheck/entrycheck"

	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// paidTrip answers POST /v1/trips/evaluate: the body is decoded and
// validated (every problem with its JSON pointer) before any payment.
func (s *Server) paidTrip(r *http.Request) (any, error) {
	if !isMediaType(r, "application/json") {
		return nil, &statusError{status: http.StatusUnsupportedMediaType, code: codeMediaType, message: "send the trip as Content-Type: application/json; see the TripRequest schema in /openapi.json"}
	}
	req, err := evaluation.DecodeTripRequest(r.Body)
	var e *entrycheck.Error
	if errors.As(err, &e) && len(e.Problems) == 1 && e.Problems[0].Code == entrycheck.ProblemBodyTooLarge {
		return nil, &statusError{status: http.StatusRequestEntityTooLarge, code: codeTooLarge, message: e.Problems[0].Message}
	}
	if err != nil && !errors.As(err, &e) {
		// Not a problem of the trip but of its transport: the body was cut
		// short, badly chunked or too slow.
		return nil, &statusError{status: http.StatusBadRequest, code: codeInvalidBody, message: "the request body could not be read to its end (cut short, badly chunked or too slow): send the whole trip again"}
	}
	if err != nil {
		return nil, err
	}
	return s.evaluator().EvaluateTrip(req, requestIDOf(r), s.clock)
}
