package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/entrycheck/entrycheck"
)

// Stable machine-readable error codes of the API.
const (
	codeInvalidParameters = "invalid_parameters"
	codeUnknownParameter  = "unknown_parameter"
	codeInvalidBody       = "invalid_body"
	codeInvalidToken      = "invalid_token"
	codePaymentRequired   = "payment_required"
	codeNotFound          = "not_found"
	codeMethodNotAllowed  = "method_not_allowed"
	codeTooLarge          = "payload_too_large"
	codeMediaType         = "unsupported_media_type"
	codeRateLimited       = "rate_limited"
	codePaymentsOff       = "payments_not_configured"
	codeForbiddenHost     = "forbidden_host"
	codeInternal          = "internal_error"
	codeUnavailable       = "service_unavailable"
	codeRangeInvalid      = "range_not_satisfiable"
)

// errorBody is the JSON body of every non-OAuth error.
type errorBody struct {
	Error     string               `json:"error"`
	Message   string               `json:"message"`
	RequestID string               `json:"request_id"`
	Problems  []entrycheck.Problem `json:"problems,omitempty"`
}

// buffers recycles encoding buffers: a check answer is a few KiB, and
// allocating it afresh for every request doubled the garbage per request.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// writeJSON encodes v completely before writing, so an encoding failure is
// still a clean 500 and not a truncated 200.
// How long an answer may be kept: one policy per kind of answer, named
// where it is sent.
const (
	// cacheNone: answers that count against a quota, are paid for, carry
	// credentials or depend on what was typed; a stored copy would skip
	// the count, leak or mislead.
	cacheNone = "no-store"
	// cacheLive: live counters, revalidated on every use.
	cacheLive = "no-cache"
	// cacheDocument: documents that change only with the configuration or
	// the dataset.
	cacheDocument = "public, max-age=300"
)

// respond sends v as JSON with status under a cache policy.
func respond(w http.ResponseWriter, status int, v any, cache string) {
	w.Header().Set("Cache-Control", cache)
	writeJSON(w, status, v)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	buf := buffers.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 1<<20 { // do not keep the occasional huge matrix answer
			buf.Reset()
			buffers.Put(buf)
		}
	}()
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, `{"error":"internal_error","message":"the answer could not be encoded"}`, http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h["Content-Type"] = contentTypeJSON
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

var contentTypeJSON = []string{"application/json"}

func (s *Server) fail(w http.ResponseWriter, r *http.Request, status int, code, message string, problems ...entrycheck.Problem) {
	writeJSON(w, status, errorBody{Error: code, Message: message, RequestID: requestIDOf(r), Problems: problems})
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
	entrycheck.EINVALID:     {http.StatusBadRequest, codeInvalidParameters, "invalid_request", false},
	entrycheck.EUNAVAILABLE: {http.StatusServiceUnavailable, codeUnavailable, "temporarily_unavailable", true},
}

// answerOf is what an error answers: its status and body, whether the
// client gets a Retry-After, and the RFC 6749 code for the OAuth
// endpoints. A fault of the service is logged and answered 500 without
// detail; a domain error that is an outage is logged too.
func (s *Server) answerOf(ctx context.Context, err error) (status int, body errorBody, oauth string, retry bool) {
	id := requestIDFrom(ctx)
	var se *statusError
	if errors.As(err, &se) {
		return se.status, errorBody{Error: se.code, Message: se.message, RequestID: id}, "invalid_request", false
	}
	var e *entrycheck.Error
	if errors.As(err, &e) {
		if d, ok := domainErrors[e.Code]; ok {
			msg := e.Message
			if len(e.Problems) > 0 {
				msg += ": see problems"
			}
			if d.outage {
				s.log.ErrorContext(ctx, "service unavailable", "request_id", id, "error", err)
			}
			return d.status, errorBody{Error: d.code, Message: msg, RequestID: id, Problems: e.Problems}, d.oauth, d.outage
		}
	}
	s.log.ErrorContext(ctx, "request failed", "request_id", id, "error", err)
	return http.StatusInternalServerError, errorBody{Error: codeInternal, RequestID: id,
		Message: "something went wrong on our side; retry later and quote the request_id if it persists"}, "server_error", false
}

// failErr answers an error of a REST request (see answerOf). A request its
// client abandoned gets no answer.
func (s *Server) failErr(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)) {
		// The client went away first: nobody reads an answer, and it is no
		// failure of the service.
		s.log.InfoContext(r.Context(), "client closed the request", "request_id", requestIDOf(r))
		w.WriteHeader(statusClientClosed)
		return
	}
	status, body, _, retry := s.answerOf(r.Context(), err)
	if retry {
		w.Header().Set("Retry-After", strconv.Itoa(retryUnavailableAfter))
	}
	writeJSON(w, status, body)
}

// statusClientClosed is recorded (access log, metrics) for a request its
// client abandoned before the answer: nginx's 499, outside HTTP's classes,
// so that a disconnect never counts as a server error.
const statusClientClosed = 499

// retryUnavailableAfter is the Retry-After of a 503: long enough for a
// database or facilitator to come back, short enough not to lose a client.
const retryUnavailableAfter = 30

// unavailable answers 503 with Retry-After: a part the answer needs (the
// database, the facilitator) did not answer. The cause is logged by the
// caller, never sent.
func (s *Server) unavailable(w http.ResponseWriter, r *http.Request, message string) {
	w.Header().Set("Retry-After", strconv.Itoa(retryUnavailableAfter))
	s.fail(w, r, http.StatusServiceUnavailable, codeUnavailable, message)
}

// notFound answers a path no route serves; a path served for other
// methods only (GET on POST /oauth/token, which the site's catch-all
// route receives) gets the 405 instead.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	if allow := s.allowed(r.URL.Path); len(allow) > 0 && !slices.Contains(allow, r.Method) {
		s.methodNotAllowed(w, r)
		return
	}
	s.fail(w, r, http.StatusNotFound, codeNotFound, "no such resource: see /openapi.json for the endpoints")
}

func (s *Server) methodNotAllowed(w http.ResponseWriter, r *http.Request) {
	allow := s.allowed(r.URL.Path)
	w.Header().Set("Allow", strings.Join(allow, ", "))
	s.fail(w, r, http.StatusMethodNotAllowed, codeMethodNotAllowed, r.Method+" is not allowed here: use "+strings.Join(allow, " or ")+" (see /openapi.json for the methods of each endpoint)")
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

// statusError is an HTTP-level refusal (media type, size) that a handler
// returns through the same path as application errors.
type statusError struct {
	status        int
	code, message string
}

func (e *statusError) Error() string { return e.message }

// serveContent is http.ServeContent (conditional and range requests) with
// its one plain-text refusal, a Range the content cannot satisfy (416),
// answered as the service's JSON error.
func (s *Server) serveContent(w http.ResponseWriter, r *http.Request, modtime time.Time, content io.ReadSeeker) {
	http.ServeContent(&rangeRefusal{ResponseWriter: w, s: s, r: r}, r, "", modtime, content)
}

// rangeRefusal replaces net/http's text for a 416 with the JSON error.
type rangeRefusal struct {
	http.ResponseWriter
	s       *Server
	r       *http.Request
	refused bool
}

func (w *rangeRefusal) WriteHeader(status int) {
	if status != http.StatusRequestedRangeNotSatisfiable {
		w.ResponseWriter.WriteHeader(status)
		return
	}
	w.refused = true
	w.s.fail(w.ResponseWriter, w.r, status, codeRangeInvalid, "the Range header asks for bytes this file does not have: ask for a range within its Content-Length, or send no Range")
}

func (w *rangeRefusal) Write(b []byte) (int, error) {
	if w.refused {
		return len(b), nil // net/http's text, replaced
	}
	return w.ResponseWriter.Write(b)
}
