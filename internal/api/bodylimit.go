package api

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/entrycheck/entrycheck/internal/api/response"
)

// A request body is read in full, within its route's bound
// (discovery.MaxBody) and against a deadline, before the route's handler
// runs, so that no handler waits on a client:
//
//   - A declared body (Content-Length) over the bound is refused with 413
//     before a byte of it is read. net/http answers "100 Continue" only
//     when a handler first reads the body, so a client that asked
//     (Expect: 100-continue) never hears it; the connection is closed,
//     rather than drained of a body nobody reads.
//   - A chunked body is read up to the bound; one that goes past it gets
//     413 too.
//   - The body must arrive within bodyGrace plus its length at
//     minBodyRate (a chunked one: the bound at that rate). A client
//     trickling a few bytes a second is cut after a few seconds, with a
//     408 and a closed connection, instead of holding a worker and a
//     connection until ReadTimeout.
//
// The handler then reads the body from memory, at most 64 KiB, within the
// same bound.
const (
	// bodyGrace covers the round trip before the first body byte (a
	// client that waits for 100 Continue sends nothing before it).
	bodyGrace = 3 * time.Second
	// minBodyRate is 32 kbit/s, slower than a poor mobile link; a body at
	// the largest bound, 64 KiB, then has 19 s, which ReadTimeout cuts to
	// 15 s from the start of the request.
	minBodyRate = 4 << 10
)

// drainDeadline gives the body of every request the deadline boundBody
// gives it, for the routes that take none: after the handler, net/http
// reads what is left of a body up to 256 KiB to reuse the connection, and
// a body trickling in would keep the connection busy until ReadTimeout.
// The routes that take a body set their deadline again as they read it.
func drainDeadline(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if size := r.ContentLength; size > 0 {
			if d := bodyDeadline(size); d < ReadTimeout {
				// An error means a writer without deadlines; ReadTimeout
				// stays.
				_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
			}
		}
		next.ServeHTTP(w, r)
	})
}

// bodyDeadline is how long a body of size bytes may take to arrive.
func bodyDeadline(size int64) time.Duration {
	return bodyGrace + time.Duration(size)*time.Second/minBodyRate
}

// bodyRefusal answers a body refused before its handler read it, in the
// error format of the endpoint; status is 413, 408 or 400.
type bodyRefusal func(w http.ResponseWriter, r *http.Request, status int, message string)

// refuseBody is the bodyRefusal of the JSON endpoints.
func refuseBody(w http.ResponseWriter, r *http.Request, status int, message string) {
	code := response.CodeInvalidBody
	switch status {
	case http.StatusRequestEntityTooLarge:
		code = response.CodeTooLarge
	case http.StatusRequestTimeout:
		code = response.CodeTimeout
	}
	response.Fail(w, r, status, code, message)
}

// boundBody reads the body of a request to next within limit bytes and
// its deadline (see above), refusing it with refuse otherwise.
func boundBody(limit int64, refuse bodyRefusal, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		if r.ContentLength > limit {
			w.Header().Set("Connection", "close")
			refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body declares %d bytes and this endpoint takes at most %d: it was not read, and the connection is closed", r.ContentLength, limit))
			return
		}
		size := r.ContentLength
		if size < 0 {
			size = limit
		}
		rc := http.NewResponseController(w)
		// An error means a writer without deadlines (not a server's):
		// the body is then read as before.
		if d := bodyDeadline(size); d < ReadTimeout {
			_ = rc.SetReadDeadline(time.Now().Add(d))
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
		if err != nil {
			// Whatever of the body remains on the wire is not read.
			w.Header().Set("Connection", "close")
			var tooLarge *http.MaxBytesError
			var ne interface{ Timeout() bool }
			switch {
			case errors.As(err, &tooLarge):
				refuse(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is larger than %d bytes, the most this endpoint takes; the connection is closed", limit))
			case errors.As(err, &ne) && ne.Timeout():
				refuse(w, r, http.StatusRequestTimeout, fmt.Sprintf("the body came too slowly: it must arrive at %d bytes a second or faster, after %s of grace; the connection is closed", minBodyRate, bodyGrace))
			default:
				refuse(w, r, http.StatusBadRequest, "the request body could not be read to its end (cut short or badly chunked): send it again whole; the connection is closed")
			}
			return
		}
		// The body is read: lift its deadline, which the server's
		// watch for a client going away would otherwise take, once
		// passed, for a lost connection and cancel the request. The
		// server sets new deadlines for the next request.
		_ = rc.SetReadDeadline(time.Time{})
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}
