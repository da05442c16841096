package api

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"sync/atomic"

	"github.com/entrycheck/entrycheck/internal/api/response"
)

// A request with both Content-Length and Transfer-Encoding is framed two
// ways: net/http reads it as chunked and drops Content-Length before any
// handler runs, while a proxy in front may have read it by its length and
// taken the rest for a second request, which is how requests are smuggled
// (RFC 9112 section 11.2). Such a request is refused, and its connection
// closed so that nothing sent after it is answered. The connection records
// what net/http no longer shows: that a header block carried both.

// Listener wraps a listener for HTTPServer, whose connections record the
// framing of the requests read from them.
func Listener(ln net.Listener) net.Listener { return framingListener{ln} }

type framingListener struct{ net.Listener }

func (l framingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &framedConn{Conn: c}, nil
}

// framedConn watches the header lines read from a connection. A blank line
// ends a block; a block with both Content-Length and Transfer-Encoding
// marks the connection for good. Body lines are watched too, so a body
// that spells out both headers marks it as well: a rare refusal, never a
// request let through.
type framedConn struct {
	net.Conn
	ambiguous atomic.Bool
	// The line being read: its length and its first bytes, lower-cased.
	lineLen    int
	linePrefix []byte
	length, te bool
}

const framingPrefix = len("transfer-encoding:")

func (c *framedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	for _, b := range p[:n] {
		c.scan(b)
	}
	return n, err
}

func (c *framedConn) scan(b byte) {
	if b != '\n' {
		if b != '\r' {
			c.lineLen++
		}
		if len(c.linePrefix) < framingPrefix {
			c.linePrefix = append(c.linePrefix, lower(b))
		}
		return
	}
	if c.lineLen == 0 {
		if c.length && c.te {
			c.ambiguous.Store(true)
		}
		c.length, c.te = false, false
	}
	c.length = c.length || bytes.HasPrefix(c.linePrefix, []byte("content-length:"))
	c.te = c.te || bytes.HasPrefix(c.linePrefix, []byte("transfer-encoding:"))
	c.lineLen, c.linePrefix = 0, c.linePrefix[:0]
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}

type framedConnKey struct{}

// framingContext hands the connection to refuseAmbiguousFraming (the
// http.Server's ConnContext).
func framingContext(ctx context.Context, c net.Conn) context.Context {
	if fc, ok := c.(*framedConn); ok {
		return context.WithValue(ctx, framedConnKey{}, fc)
	}
	return ctx
}

// refuseAmbiguousFraming answers a chunked request whose header block also
// carried Content-Length with 400, and closes its connection.
func refuseAmbiguousFraming(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fc, _ := r.Context().Value(framedConnKey{}).(*framedConn)
		if fc != nil && len(r.TransferEncoding) > 0 && fc.ambiguous.Load() {
			w.Header().Set("Connection", "close")
			response.Fail(w, r, http.StatusBadRequest, response.CodeInvalidBody, "the request has both Content-Length and Transfer-Encoding: send one of them (RFC 9112 section 6.3); the connection is closed")
			return
		}
		next.ServeHTTP(w, r)
	})
}
