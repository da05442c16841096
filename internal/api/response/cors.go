package response

import "net/http"

// CORS for the endpoints any site may call from a browser (the widget, MCP
// clients in a page). No cookies are used, so any origin may call with a
// bearer token.
const (
	CORSAllowHeaders  = "Authorization, Content-Type, X-Request-Id"
	CORSExposeHeaders = "X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After"
)

// AllowAnyOrigin lets pages of any site read an answer and the headers in expose.
func AllowAnyOrigin(h http.Header, expose string) {
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Expose-Headers", expose)
	h.Add("Vary", "Origin")
}

// Preflight answers a CORS preflight: the methods and request headers are
// allowed for a day.
func Preflight(w http.ResponseWriter, methods, headers string) {
	h := w.Header()
	h.Set("Access-Control-Allow-Methods", methods)
	h.Set("Access-Control-Allow-Headers", headers)
	h.Set("Access-Control-Max-Age", "86400")
	w.WriteHeader(http.StatusNoContent)
}
