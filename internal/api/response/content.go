package response

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"time"

	"github.com/entrycheck/entrycheck/internal/compression"
)

// ServeContent is http.ServeContent (conditional and range requests) with
// its one plain-text refusal, a Range the content cannot satisfy (416),
// answered as the service's JSON error.
func ServeContent(w http.ResponseWriter, r *http.Request, modtime time.Time, content io.ReadSeeker) {
	http.ServeContent(&rangeRefusal{ResponseWriter: w, r: r}, r, "", modtime, content)
}

// rangeRefusal replaces net/http's text for a 416 with the JSON error.
type rangeRefusal struct {
	http.ResponseWriter
	r       *http.Request
	refused bool
}

func (w *rangeRefusal) WriteHeader(status int) {
	if status != http.StatusRequestedRangeNotSatisfiable {
		w.ResponseWriter.WriteHeader(status)
		return
	}
	w.refused = true
	Fail(w.ResponseWriter, w.r, status, CodeRangeInvalid, "the Range header asks for bytes this file does not have: ask for a range within its Content-Length, or send no Range")
}

func (w *rangeRefusal) Write(b []byte) (int, error) {
	if w.refused {
		return len(b), nil // net/http's text, replaced
	}
	return w.ResponseWriter.Write(b)
}

// Encoded marks an answer as sent in the content coding enc (none when
// enc is empty): its Content-Encoding, and its strong ETag, the quoted
// etag of the identity body with the coding appended ("hash-br"), so that
// every variant has its own. An empty etag sets none.
func Encoded(h http.Header, enc, etag string) {
	if enc != "" {
		h.Set("Content-Encoding", enc)
		if etag != "" {
			etag = etag[:len(etag)-1] + "-" + enc + `"`
		}
	}
	if etag != "" {
		h.Set("ETag", etag)
	}
}

// Document is a body served from memory under the document cache policy,
// readable from any origin, with conditional requests on a strong ETag of
// its bytes and its compressed variants made once.
type Document struct {
	MediaType string
	// Link is the Link header sent with it, if any.
	Link string

	body     []byte
	etag     string
	variants map[string][]byte
}

// NewDocument prepares body for serving: its ETag, and every compressed
// variant smaller than the body, made with c.
func NewDocument(mediaType, link string, body []byte, c *compression.Compressor) *Document {
	sum := sha256.Sum256(body)
	d := &Document{MediaType: mediaType, Link: link, body: body, etag: `"` + hex.EncodeToString(sum[:16]) + `"`, variants: map[string][]byte{}}
	for _, enc := range compression.Encodings() {
		if b, err := c.Compress(enc, body); err == nil && len(b) < len(body) {
			d.variants[enc] = b
		}
	}
	return d
}

// ServeHTTP sends the document, compressed when the client accepts one of
// its variants.
func (d *Document) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Content-Type", d.MediaType)
	h.Set("Cache-Control", CacheDocument)
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Vary", "Accept-Encoding")
	if d.Link != "" {
		h.Set("Link", d.Link)
	}
	body, enc := d.body, compression.Negotiate(r.Header.Get("Accept-Encoding"))
	if d.variants[enc] != nil {
		body = d.variants[enc]
	} else {
		enc = ""
	}
	Encoded(h, enc, d.etag)
	ServeContent(w, r, time.Time{}, bytes.NewReader(body))
}
