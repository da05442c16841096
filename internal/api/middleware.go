package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// requestID takes a well-formed X-Request-Id from the client (so that its
// logs and ours match) or makes one, and echoes it in the response.
func (s *Server) requestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !request.ValidID(id) {
			id = request.NewID()
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(request.WithID(r.Context(), id)))
	})
}

// recoverer turns a panic into a logged 500 so one bad request cannot stop
// the service, in the error shape of the endpoint.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.ErrorContext(r.Context(), "panic", "request_id", request.ID(r), "panic", v)
				const message = "something went wrong on our side; quote the request_id if it persists"
				if discovery.OAuthEndpoint(r.URL.Path) {
					// OAuth clients read RFC 6749's shape, as from the endpoints' own failures.
					response.OAuthFail(w, r, http.StatusInternalServerError, "server_error", message)
					return
				}
				response.Fail(w, r, http.StatusInternalServerError, response.CodeInternal, message)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// accessLog logs one structured line per request, without the client address,
// and feeds the request metrics.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		route := chi.RouteContext(r.Context()).RoutePattern()
		if route == "" || route == "/*" {
			route = "static"
		}
		elapsed := time.Since(start)
		s.metrics.observe(route, r.Method, sw.status, elapsed)
		s.log.LogAttrs(r.Context(), levelFor(sw.status), "request",
			slogString("request_id", request.ID(r)), slogString("method", r.Method), slogString("route", route),
			slogInt("status", sw.status), slogInt("bytes", sw.bytes), slogDuration("duration", elapsed))
	})
}

// securityHeaders sets the headers every answer carries. There is no
// Cross-Origin-Opener-Policy: the pages hold no visitor's state or secret
// for an opener to reach, and same-origin moves every arrival from another
// site into a new browsing-context group (a new renderer process), which
// measured as 200-300 ms of blocked main thread on a throttled phone.
func securityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
		next.ServeHTTP(w, r)
	})
}
