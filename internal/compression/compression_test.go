package compression_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/entrycheck/entrycheck/internal/compression"
)

func TestNegotiate(t *testing.T) {
	for header, want := range map[string]string{
		"":                           "",
		"br, gzip":                   "br",
		"gzip, br":                   "br",
		"gzip":                       "gzip",
		"x-gzip":                     "gzip",
		"br;q=0, gzip;q=0":           "",
		"br;q=0, gzip":               "gzip",
		"br;q=0.5, gzip;q=0.8":       "gzip",
		"BR; Q=1, gzip;q=0.9":        "br",
		"*":                          "br",
		"gzip;q=0.2, *;q=0.1":        "gzip",
		"*;q=0":                      "",
		"identity":                   "",
		"identity, gzip;q=0.5":       "",
		"gzip, identity;q=0.5":       "gzip",
		"deflate, compress":          "",
		"br;q=bogus, gzip;q=0.1":     "gzip",
		"gzip;q=1.5, br;q=0.001":     "br",
		" br ; q=0.7 , gzip ; q=0.7": "br",
	} {
		if got := compression.Negotiate(header); got != want {
			t.Errorf("Negotiate(%q) = %q, want %q", header, got, want)
		}
	}
}

func TestCompressRoundTrips(t *testing.T) {
	data := bytes.Repeat([]byte("<p>Visa required, as of 17 February 2026.</p>\n"), 300)
	var c compression.Compressor
	for range 2 { // the second round reuses the pooled encoders
		for _, enc := range compression.Encodings() {
			b, err := c.Compress(enc, data)
			if err != nil {
				t.Fatal(err)
			}
			var r io.Reader = brotli.NewReader(bytes.NewReader(b))
			if enc == compression.Gzip {
				if r, err = gzip.NewReader(bytes.NewReader(b)); err != nil {
					t.Fatal(err)
				}
			}
			got, err := io.ReadAll(r)
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("%s does not decode to the input: %v", enc, err)
			}
			if len(b) >= len(data)/4 {
				t.Errorf("%s: %d bytes from %d", enc, len(b), len(data))
			}
		}
	}
	if _, err := c.Compress("deflate", data); err == nil {
		t.Error("an unknown encoding was accepted")
	}
}
