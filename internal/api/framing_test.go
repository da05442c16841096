package api_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestSmugglingRefused sends, over one raw connection to the server as
// `entrycheck serve` runs it, a request framed both by Content-Length and
// by Transfer-Encoding, then a second request: the first is refused with
// the JSON error and Connection: close, and the second is never answered.
// A request framed one way is still served on a kept-alive connection.
func TestSmugglingRefused(t *testing.T) {
	e := start(t, "")
	addr := serveReal(t, e)
	send := func(raw string) (*http.Response, []byte, string) {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		c.Write([]byte(raw))
		br := bufio.NewReader(c)
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("no answer: %v", err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		rest, _ := io.ReadAll(br)
		return resp, body, string(rest)
	}
	const second = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
	for _, head := range []string{
		"Content-Length: 4\r\nTransfer-Encoding: chunked\r\n",
		"transfer-encoding: chunked\r\ncontent-length: 12\r\n",
	} {
		resp, body, rest := send("POST /v1/trips/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" + head + "\r\n2\r\n{}\r\n0\r\n\r\n" + second)
		if resp.StatusCode != http.StatusBadRequest || !resp.Close || !strings.Contains(string(body), `"error":"invalid_body"`) {
			t.Errorf("%q: %d, close %v: %s", head, resp.StatusCode, resp.Close, body)
		}
		if rest != "" {
			t.Errorf("%q: the request after it was answered: %.200s", head, rest)
		}
	}
	// One framing: both requests are answered on the same connection.
	_, _, rest := send("POST /v1/trips/evaluate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n" + second + "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
	if !strings.HasPrefix(rest, "HTTP/1.1 200") {
		t.Errorf("a chunked request closed its connection: %.200s", rest)
	}
}
