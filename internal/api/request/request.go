// Package request holds what the API reads from an HTTP request beyond
// its route: the request id the service answers with, the client's
// address behind trusted proxies, and the media types it sends and
// accepts.
//
// It depends on the standard library only; every package of the API may
// import it.
package request

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/http"
)

type ctxKey struct{}

// WithID returns ctx carrying the request id id.
func WithID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, ctxKey{}, id)
}

// ID returns the request id of r (see WithID).
func ID(r *http.Request) string { return IDFrom(r.Context()) }

// IDFrom returns the request id ctx carries, "" when none.
func IDFrom(ctx context.Context) string {
	id, _ := ctx.Value(ctxKey{}).(string)
	return id
}

// ValidID reports whether a client's X-Request-Id may be used as the
// request id: 8 to 64 letters, digits, '-', '_' or '.'.
func ValidID(id string) bool {
	if len(id) < 8 || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// NewID makes a request id.
func NewID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}
