// Package compression holds what the generator and the server must agree on
// to send the site's text files compressed: which files are compressible,
// the encodings and the names of their precompressed variants, the levels,
// and the negotiation of Accept-Encoding.
//
// The generator precompresses large files at build (a static host such as
// nginx with gzip_static and brotli_static serves those variants as they
// are); the server compresses the small ones when asked, because variants
// of the tens of thousands of small pages would triple the file count for
// a few kilobytes each.
package compression

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/andybalholm/brotli"
)

// The encodings, by their Content-Encoding names.
const (
	Brotli = "br"
	Gzip   = "gzip"
)

// Encodings lists the encodings in order of preference when a client
// accepts several equally: brotli's output is the smaller.
func Encodings() []string { return []string{Brotli, Gzip} }

// Suffix is the file name suffix of a precompressed variant, as static
// hosts expect it ("index.html.br", "index.html.gz").
func Suffix(encoding string) string {
	if encoding == Brotli {
		return ".br"
	}
	return ".gz"
}

// Variant reports whether name is a precompressed variant, not a file of
// its own.
func Variant(name string) bool {
	for _, enc := range Encodings() {
		if strings.HasSuffix(name, Suffix(enc)) {
			return true
		}
	}
	return false
}

// PrecompressAt is the size from which the generator writes the variants
// of a compressible file. Below it, the server compresses on request: the
// route pages (under 10 KiB) stay below, since compressing their thousands
// at every cold build would cost more than serving them compressed once
// each from the cache.
const PrecompressAt = 16 << 10

// The levels: cheap enough to precompress at build and to compress small
// files on request, within a few percent of the best sizes on this site's
// pages.
const (
	gzipLevel     = 6
	brotliQuality = 5
	// brotliSmallWindow (a 256 KiB window) compresses the pages: the
	// encoders kept for reuse hold a window each, and the default one
	// (4 MiB) would keep megabytes per worker for pages of kilobytes.
	// Larger files get the default window.
	brotliSmallWindow = 18
)

// Compressible reports whether a file of this name is text worth compressing.
func Compressible(name string) bool {
	switch path.Ext(name) {
	case ".html", ".md", ".txt", ".json", ".xml", ".atom", ".css", ".js", ".svg":
		return true
	}
	return strings.HasPrefix(name, ".well-known/") && path.Ext(name) == "" // JSON documents without extension
}

// Compressor compresses with reused encoders; it is safe for concurrent
// use. Brotli encoders are reused for files that fit the small window.
type Compressor struct {
	gz, br sync.Pool
}

// Compress returns data in the encoding (Brotli or Gzip).
func (c *Compressor) Compress(encoding string, data []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(data)/3 + 64)
	switch encoding {
	case Brotli:
		var w *brotli.Writer
		if len(data) <= 1<<brotliSmallWindow {
			w, _ = c.br.Get().(*brotli.Writer)
			if w == nil {
				w = brotli.NewWriterOptions(&buf, brotli.WriterOptions{Quality: brotliQuality, LGWin: brotliSmallWindow})
			} else {
				w.Reset(&buf)
			}
			defer c.br.Put(w)
		} else {
			w = brotli.NewWriterLevel(&buf, brotliQuality)
		}
		if _, err := w.Write(data); err != nil {
			return nil, fmt.Errorf("brotli: %w", err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("brotli: %w", err)
		}
	case Gzip:
		w, _ := c.gz.Get().(*gzip.Writer)
		if w == nil {
			w, _ = gzip.NewWriterLevel(&buf, gzipLevel)
		} else {
			w.Reset(&buf)
		}
		defer c.gz.Put(w)
		if _, err := w.Write(data); err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
		if err := w.Close(); err != nil {
			return nil, fmt.Errorf("gzip: %w", err)
		}
	default:
		return nil, fmt.Errorf("compression: unknown encoding %q", encoding)
	}
	return buf.Bytes(), nil
}

// Negotiate picks the encoding of a response from an Accept-Encoding
// header (RFC 9110, section 12.5.3): the accepted encoding of highest
// weight, brotli before gzip at equal weight; "" for identity, when the
// client accepts neither or prefers identity explicitly. A coding of weight
// 0 is refused; "*" stands for every coding the header does not name.
func Negotiate(acceptEncoding string) string {
	weights := map[string]float64{}
	for _, part := range strings.Split(acceptEncoding, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
				if err != nil || f < 0 || f > 1 {
					f = 0 // a malformed weight accepts nothing
				}
				q = f
			}
		}
		if coding == "x-gzip" {
			coding = Gzip
		}
		weights[coding] = q
	}
	weight := func(coding string) float64 {
		if q, ok := weights[coding]; ok {
			return q
		}
		if q, ok := weights["*"]; ok {
			return q
		}
		return 0
	}
	best, bestQ := "", 0.0
	for _, enc := range Encodings() {
		if q := weight(enc); q > bestQ {
			best, bestQ = enc, q
		}
	}
	if q, named := weights["identity"]; named && q > bestQ {
		return ""
	}
	return best
}
