package request

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
)

// IsMediaType reports whether r's body is of the media type want.
func IsMediaType(r *http.Request, want string) bool {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return err == nil && mt == want
}

// PrefersMarkdown reports whether the client asked for text/markdown over HTML.
func PrefersMarkdown(r *http.Request) bool {
	best, bestQ := "", -1.0
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, ok := params["q"]; ok {
			if q, err = strconv.ParseFloat(v, 64); err != nil {
				q = 0
			}
		}
		if (mt == "text/markdown" || mt == "text/html") && q > bestQ {
			best, bestQ = mt, q
		}
	}
	return best == "text/markdown"
}

// AcceptsHTML reports whether the client (a browser) takes HTML.
func AcceptsHTML(r *http.Request) bool { return strings.Contains(r.Header.Get("Accept"), "text/html") }
