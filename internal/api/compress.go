package api

import (
	"bytes"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck/internal/compression"
)

// compressFrom is the size from which a JSON answer is sent compressed:
// below a kilobyte the saving is smaller than a packet, and the answers
// that matter (a passport's matrix is tens of kilobytes) are far above.
const compressFrom = 1 << 10

// compressJSON sends the JSON answers of h of compressFrom bytes or more
// in the encoding the client accepts (compression.Negotiate), with Vary:
// Accept-Encoding whether or not it accepts one. It compresses what
// response.Write sends: an answer whose length is declared before it is
// written whole. Anything else goes out as written: streams (no declared
// length), bodies already encoded, ranges, and answers with a validator,
// which pick their own variants (response.Document). A HEAD is compressed
// as its GET would be, so that both carry the same headers; net/http
// drops the body.
func compressJSON(c *compression.Compressor, h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		cw := &compressWriter{ResponseWriter: w, c: c, enc: compression.Negotiate(r.Header.Get("Accept-Encoding"))}
		h(cw, r)
		cw.finish()
	}
}

// compressWriter holds back an answer it compresses until the handler is
// done, then sends it with the compressed length; the headers the handler
// set (the payment receipt among them) go out with it.
type compressWriter struct {
	http.ResponseWriter
	c   *compression.Compressor
	enc string // the negotiated encoding, "" for identity

	status int // of an answer held back, 0 while none is
	held   bytes.Buffer
	passed bool // the status went out as written
}

func (w *compressWriter) WriteHeader(status int) {
	switch {
	case w.passed || w.status != 0:
		return // net/http ignores a second status too
	case status < http.StatusOK:
		w.ResponseWriter.WriteHeader(status) // informational: not the answer
		return
	}
	if h := w.Header(); compressible(status, h) {
		h.Add("Vary", "Accept-Encoding")
		if w.enc != "" {
			w.status = status
			return
		}
	}
	w.passed = true
	w.ResponseWriter.WriteHeader(status)
}

func (w *compressWriter) Write(b []byte) (int, error) {
	if !w.passed && w.status == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.status != 0 {
		return w.held.Write(b)
	}
	return w.ResponseWriter.Write(b)
}

// finish sends the answer held back, compressed; if compressing fails it
// goes out as written, its declared length still right.
func (w *compressWriter) finish() {
	if w.status == 0 {
		return
	}
	body := w.held.Bytes()
	if z, err := w.c.Compress(w.enc, body); err == nil {
		body = z
		w.Header().Set("Content-Encoding", w.enc)
		w.Header().Set("Content-Length", strconv.Itoa(len(z)))
	}
	w.ResponseWriter.WriteHeader(w.status)
	_, _ = w.ResponseWriter.Write(body) // the client went away: nothing to tell it
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *compressWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// compressible reports whether an answer of status with headers h is a
// JSON body, written whole, worth compressing.
func compressible(status int, h http.Header) bool {
	switch status {
	case http.StatusNoContent, http.StatusPartialContent, http.StatusNotModified:
		return false
	}
	if h.Get("Content-Encoding") != "" || h.Get("ETag") != "" || h.Get("Content-Range") != "" {
		return false
	}
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || mt != "application/json" && !strings.HasSuffix(mt, "+json") {
		return false
	}
	n, err := strconv.Atoi(h.Get("Content-Length"))
	return err == nil && n >= compressFrom
}
