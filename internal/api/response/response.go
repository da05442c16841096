// Package response writes the API's answers: JSON encoded once and whole,
// the cache policy of every kind of answer, documents served from memory
// with their compressed variants, the CORS headers, and the error bodies,
// with the one table that maps each domain error code to its answer on
// the REST endpoints, the MCP tools and the OAuth endpoints.
//
// It depends on the domain and the compression and request packages only;
// the protocol packages of the API import it, never the other way round.
package response

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
)

// How long an answer may be kept: one policy per kind of answer, named
// where it is sent.
const (
	// CacheNone: answers that count against a quota, are paid for, carry
	// credentials or depend on what was typed; a stored copy would skip
	// the count, leak or mislead.
	CacheNone = "no-store"
	// CacheLive: live counters, revalidated on every use.
	CacheLive = "no-cache"
	// CacheDocument: documents and pages that change only with the
	// configuration, the dataset or a build.
	CacheDocument = "public, max-age=300"
	// CacheImmutable: content-hashed files, which never change.
	CacheImmutable = "public, max-age=31536000, immutable"
)

// buffers recycles encoding buffers: a check answer is a few KiB, and
// allocating it afresh for every request doubled the garbage per request.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// JSON sends v as JSON with status under a cache policy.
func JSON(w http.ResponseWriter, status int, v any, cache string) {
	w.Header().Set("Cache-Control", cache)
	Write(w, status, v)
}

// Write sends v as JSON with status and no cache policy of its own: the
// errors and refusals. v is encoded completely before anything is
// written, so an encoding failure is still a clean 500 and not a
// truncated 200.
func Write(w http.ResponseWriter, status int, v any) {
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

// Marshal encodes v as Write does, without escaping HTML and without the
// final newline.
func Marshal(v any) (json.RawMessage, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
