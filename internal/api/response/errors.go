package response

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/request"
)

// Stable machine-readable error codes of the API.
const (
	CodeInvalidParameters = "invalid_parameters"
	CodeUnknownParameter  = "unknown_parameter"
	CodeInvalidBody       = "invalid_body"
	CodeInvalidToken      = "invalid_token"
	// CodeInvalidRequest: an Authorization header that is not Bearer
	// (RFC 6750 section 3.1).
	CodeInvalidRequest   = "invalid_request"
	CodePaymentRequired  = "payment_required"
	CodeNotFound         = "not_found"
	CodeMethodNotAllowed = "method_not_allowed"
	CodeTooLarge         = "payload_too_large"
	CodeMediaType        = "unsupported_media_type"
	CodeRateLimited      = "rate_limited"
	CodeTooManyInFlight  = "too_many_in_flight"
	CodeTimeout          = "request_timeout"
	CodePaymentsOff      = "payments_not_configured"
	CodeForbiddenHost    = "forbidden_host"
	CodeInternal         = "internal_error"
	CodeUnavailable      = "service_unavailable"
	CodeRangeInvalid     = "range_not_satisfiable"
)

// Codes lists every error code an error body may carry, which the API
// description's enum of Error.error is.
var Codes = []string{
	CodeInvalidParameters, CodeUnknownParameter, CodeInvalidBody, CodeInvalidToken, CodeInvalidRequest, CodePaymentRequired,
	CodeNotFound, CodeMethodNotAllowed, CodeTooLarge, CodeMediaType, CodeRateLimited, CodeTooManyInFlight,
	CodeTimeout, CodePaymentsOff, CodeForbiddenHost, CodeInternal, CodeUnavailable, CodeRangeInvalid,
}

// ErrorBody is the JSON body of every non-OAuth error.
type ErrorBody struct {
	Error     string               `json:"error" jsonschema:"Stable machine code of what went wrong, for a program to act on; message says it for people."`
	Message   string               `json:"message" jsonschema:"What was wrong and how to fix it."`
	RequestID string               `json:"request_id"`
	Problems  []entrycheck.Problem `json:"problems,omitempty"`
}

// domainErrors answers each code of entrycheck.Error, in one place for
// the REST endpoints, the MCP tools and the OAuth endpoints: its status,
// the machine code of the body, the RFC 6749 code on the OAuth endpoints,
// and whether it is an outage (logged as an error, with Retry-After).
var domainErrors = map[string]struct {
	status      int
	code, oauth string
	outage      bool
}{
	entrycheck.EINVALID:     {http.StatusBadRequest, CodeInvalidParameters, "invalid_request", false},
	entrycheck.EUNAVAILABLE: {http.StatusServiceUnavailable, CodeUnavailable, "temporarily_unavailable", true},
}

// StatusError is an HTTP-level refusal (media type, size) that a handler
// returns through the same path as application errors.
type StatusError struct {
	Status        int
	Code, Message string
}

func (e *StatusError) Error() string { return e.Message }

// Answer is what an error answers: its status and body, whether the
// client gets a Retry-After, and the RFC 6749 code for the OAuth
// endpoints.
type Answer struct {
	Status int
	Body   ErrorBody
	OAuth  string
	Retry  bool
}

// SetRetryAfter sets the Retry-After of an outage.
func (a Answer) SetRetryAfter(h http.Header) {
	if a.Retry {
		h.Set("Retry-After", strconv.Itoa(retryUnavailableAfter))
	}
}

// AnswerOf is what err answers (see Answer). A fault of the service is
// logged and answered 500 without detail; a domain error that is an
// outage is logged too.
func AnswerOf(ctx context.Context, log *slog.Logger, err error) Answer {
	id := request.IDFrom(ctx)
	var se *StatusError
	if errors.As(err, &se) {
		return Answer{se.Status, ErrorBody{Error: se.Code, Message: se.Message, RequestID: id}, "invalid_request", false}
	}
	var e *entrycheck.Error
	if errors.As(err, &e) {
		if d, ok := domainErrors[e.Code]; ok {
			msg := e.Message
			if len(e.Problems) > 0 {
				msg += ": see problems"
			}
			if d.outage {
				log.ErrorContext(ctx, "service unavailable", "request_id", id, "error", err)
			}
			return Answer{d.status, ErrorBody{Error: d.code, Message: msg, RequestID: id, Problems: e.Problems}, d.oauth, d.outage}
		}
	}
	log.ErrorContext(ctx, "request failed", "request_id", id, "error", err)
	return Answer{http.StatusInternalServerError, ErrorBody{Error: CodeInternal, RequestID: id,
		Message: "something went wrong on our side; retry later and quote the request_id if it persists"}, "server_error", false}
}

// Fail answers an error of a REST request with its code and message.
func Fail(w http.ResponseWriter, r *http.Request, status int, code, message string, problems ...entrycheck.Problem) {
	Write(w, status, ErrorBody{Error: code, Message: message, RequestID: request.ID(r), Problems: problems})
}

// Error answers an error of a REST request (see AnswerOf). A request its
// client abandoned gets no answer.
func Error(log *slog.Logger, w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		// The client went away first: nobody reads an answer, and it is no
		// failure of the service.
		log.InfoContext(r.Context(), "client closed the request", "request_id", request.ID(r))
		w.WriteHeader(statusClientClosed)
		return
	}
	a := AnswerOf(r.Context(), log, err)
	a.SetRetryAfter(w.Header())
	Write(w, a.Status, a.Body)
}

// statusClientClosed is recorded (access log, metrics) for a request its
// client abandoned before the answer: nginx's 499, outside HTTP's classes,
// so that a disconnect never counts as a server error.
const statusClientClosed = 499

// retryUnavailableAfter is the Retry-After of a 503: long enough for a
// database or facilitator to come back, short enough not to lose a client.
const retryUnavailableAfter = 30

// Unavailable answers 503 with Retry-After: a part the answer needs (the
// database, the facilitator) did not answer. The cause is logged by the
// caller, never sent.
func Unavailable(w http.ResponseWriter, r *http.Request, message string) {
	w.Header().Set("Retry-After", strconv.Itoa(retryUnavailableAfter))
	Fail(w, r, http.StatusServiceUnavailable, CodeUnavailable, message)
}

// OAuthError is the RFC 6749 / RFC 7591 error body, plus the request id.
type OAuthError struct {
	Error            string `json:"error" jsonschema:"RFC 6749 / RFC 7591 error code; server_error (500) and temporarily_unavailable (503, the database did not answer) as RFC 6749 section 4.1.2.1 names them."`
	ErrorDescription string `json:"error_description"`
	RequestID        string `json:"request_id"`
}

// OAuthFail answers an error of the OAuth endpoints in RFC 6749's shape.
func OAuthFail(w http.ResponseWriter, r *http.Request, status int, code, description string) {
	JSON(w, status, OAuthError{Error: code, ErrorDescription: description, RequestID: request.ID(r)}, CacheNone)
}

// OAuthErr answers a failure of the OAuth endpoints' own work in RFC
// 6749's shape (see AnswerOf): temporarily_unavailable (503, Retry-After)
// when the database did not answer, server_error otherwise.
func OAuthErr(log *slog.Logger, w http.ResponseWriter, r *http.Request, err error) {
	a := AnswerOf(r.Context(), log, err)
	a.SetRetryAfter(w.Header())
	OAuthFail(w, r, a.Status, a.OAuth, a.Body.Message)
}
