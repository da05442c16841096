package rest

import (
	"errors"
	"net/http"
	"strings"

	"github.com/entrycheck/entrycheck"

	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// PaidTrip answers POST /v1/trips/evaluate: the body is decoded and
// validated (every problem with its JSON pointer) before any payment. The
// answer's words are in the language of the lang parameter, else of the
// body's language, else of the Accept-Language header.
func (e *Endpoints) PaidTrip(r *http.Request) (any, error) {
	if !request.IsMediaType(r, "application/json") {
		return nil, &response.StatusError{Status: http.StatusUnsupportedMediaType, Code: response.CodeMediaType, Message: "send the trip as Content-Type: application/json; see the TripRequest schema in /openapi.json"}
	}
	req, err := evaluation.DecodeTripRequest(r.Body)
	var pe *entrycheck.Error
	if errors.As(err, &pe) && len(pe.Problems) == 1 && pe.Problems[0].Code == entrycheck.ProblemBodyTooLarge {
		return nil, &response.StatusError{Status: http.StatusRequestEntityTooLarge, Code: response.CodeTooLarge, Message: pe.Problems[0].Message}
	}
	if err != nil && !errors.As(err, &pe) {
		// Not a problem of the trip but of its transport: the body was cut
		// short, badly chunked or too slow.
		return nil, &response.StatusError{Status: http.StatusBadRequest, Code: response.CodeInvalidBody, Message: "the request body could not be read to its end (cut short, badly chunked or too slow): send the whole trip again"}
	}
	if err != nil {
		return nil, err
	}
	if lang := strings.TrimSpace(r.URL.Query().Get("lang")); lang != "" {
		req.Language = lang
	}
	if h := r.Header.Get("Accept-Language"); len(h) <= MaxAcceptLanguage {
		req.AcceptLanguage = h
	}
	return e.Evaluator().EvaluateTrip(req, request.ID(r), e.Clock)
}
