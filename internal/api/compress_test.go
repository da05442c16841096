package api_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/entrycheck/entrycheck/internal/x402"
)

// fetchRaw sends a request as a browser would, without the transparent
// gzip of net/http's client and without following redirects, and returns
// the answer and its body as sent, after checking its Content-Length if it
// has one. An empty header value sends none.
func fetchRaw(t *testing.T, method, url string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] != "" {
			req.Header.Set(header[i], header[i+1])
		}
	}
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if cl := resp.Header.Get("Content-Length"); method != http.MethodHead && cl != "" && cl != strconv.Itoa(len(b)) {
		t.Errorf("%s %s: Content-Length %q for %d bytes", method, url, cl, len(b))
	}
	return resp, b
}

// decoded is b decoded from the content coding enc ("br", "gzip" or none).
func decoded(t *testing.T, enc string, b []byte) []byte {
	t.Helper()
	var r io.Reader
	switch enc {
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	case "gzip":
		z, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = z
	case "":
		return b
	default:
		t.Fatalf("unknown content coding %q", enc)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("%s: %v", enc, err)
	}
	return out
}

// stable decodes a paid answer without the fields that differ between two
// requests for the same thing: the request id and the payment receipt.
func stable(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not a JSON object: %v\n%.300s", err, b)
	}
	delete(m, "request_id")
	delete(m, "payment")
	return m
}

func varies(h http.Header) bool {
	return listed(strings.Join(h.Values("Vary"), ","), "Accept-Encoding")
}

// TestCompressPaidAnswer: the paid matrix of a passport (tens of
// kilobytes) is sent in the encoding the client accepts, with its receipt
// header, and decodes to the answer sent uncompressed to a client that
// accepts none, apart from its request id and receipt (compared as JSON
// after removing those two fields).
func TestCompressPaidAnswer(t *testing.T) {
	e := start(t, "", withLocalFacilitator)
	key := mustKey(t)
	path := "/v1/passport/DEU"
	pay := func() string {
		return header(t, newPayment(t, key, e.offerOf(path).Accepts[0], e.clock.Now()).sign(t, key))
	}

	plain, plainBody := fetchRaw(t, http.MethodGet, e.url+path, x402.HeaderPaymentSignature, pay())
	if plain.StatusCode != http.StatusOK || plain.Header.Get("Content-Encoding") != "" || !varies(plain.Header) || len(plainBody) < 10<<10 {
		t.Fatalf("without Accept-Encoding: %d, Content-Encoding %q, Vary %q, %d bytes", plain.StatusCode, plain.Header.Get("Content-Encoding"), plain.Header.Values("Vary"), len(plainBody))
	}
	want := stable(t, plainBody)

	for _, enc := range []string{"br", "gzip"} {
		resp, body := fetchRaw(t, http.MethodGet, e.url+path, x402.HeaderPaymentSignature, pay(), "Accept-Encoding", enc)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Encoding") != enc || !varies(resp.Header) ||
			resp.Header.Get(x402.HeaderPaymentResponse) == "" || resp.Header.Get("Access-Control-Expose-Headers") == "" {
			t.Fatalf("%s: %d, headers %v", enc, resp.StatusCode, resp.Header)
		}
		if resp.Header.Get("Content-Length") == "" {
			t.Errorf("%s: no Content-Length", enc)
		}
		if len(body) >= len(plainBody)/3 {
			t.Errorf("%s: %d bytes for %d", enc, len(body), len(plainBody))
		}
		raw := decoded(t, enc, body)
		if got := stable(t, raw); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the decompressed answer differs from the uncompressed one", enc)
		}
	}
}

// TestCompressHeadAndSmallAnswers: a HEAD carries the headers of its GET
// and no body; the offer of a 402 is compressed like any answer, and
// small answers and errors go out as written.
func TestCompressHeadAndSmallAnswers(t *testing.T) {
	e := start(t, "")
	get, getBody := fetchRaw(t, http.MethodGet, e.url+"/v1/passport/DEU", "Accept-Encoding", "gzip, br")
	head, headBody := fetchRaw(t, http.MethodHead, e.url+"/v1/passport/DEU", "Accept-Encoding", "gzip, br")
	if get.StatusCode != http.StatusPaymentRequired || get.Header.Get("Content-Encoding") != "br" || get.Header.Get(x402.HeaderPaymentRequired) == "" {
		t.Errorf("GET offer: %d, Content-Encoding %q", get.StatusCode, get.Header.Get("Content-Encoding"))
	}
	if !json.Valid(decoded(t, "br", getBody)) {
		t.Errorf("GET offer does not decode to JSON")
	}
	if head.StatusCode != get.StatusCode || len(headBody) != 0 || head.Header.Get("Content-Encoding") != "br" ||
		!varies(head.Header) || head.Header.Get(x402.HeaderPaymentRequired) == "" {
		t.Errorf("HEAD offer: %d, %d bytes, headers %v", head.StatusCode, len(headBody), head.Header)
	}
	for _, path := range []string{"/v1/passport/GER", "/healthz"} {
		r, b := fetchRaw(t, http.MethodGet, e.url+path, "Accept-Encoding", "br")
		if r.Header.Get("Content-Encoding") != "" || !json.Valid(b) {
			t.Errorf("%s: %d bytes, Content-Encoding %q", path, len(b), r.Header.Get("Content-Encoding"))
		}
	}
}
