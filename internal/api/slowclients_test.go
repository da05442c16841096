package api_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/api"
	"github.com/entrycheck/entrycheck/internal/config"
)

// serveReal serves e's handler as serve does, with e's configuration, on
// a loopback port, and returns its address.
func serveReal(t *testing.T, e *env) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := api.HTTPServer("", e.service.Handler(), slog.New(slog.DiscardHandler), e.cfg)
	go srv.Serve(api.Listener(ln))
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// raiseOpenFiles lifts the soft limit of open files towards n (both ends
// of every connection are in this process).
func raiseOpenFiles(t *testing.T, n uint64) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil || lim.Cur >= n {
		return
	}
	lim.Cur = min(n, lim.Max)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Logf("raising the open files limit: %v", err)
	}
}

// dialFrom is a dialer whose connections come from the loopback address ip
// (on Linux all of 127/8 is loopback).
func dialFrom(ip string) *net.Dialer {
	return &net.Dialer{Timeout: 2 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
}

// slowHead is the header block of a request whose body of n bytes then
// comes slowly.
func slowHead(path string, n int) string {
	return fmt.Sprintf("POST %s HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, n)
}

// slowBody opens a connection from d, sends head and then a byte of body
// every interval, until ctx ends or the server answers or closes; it
// returns the answer's status line, if any.
func slowBody(ctx context.Context, d *net.Dialer, addr, head string, interval time.Duration) (string, error) {
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return "", err
	}
	defer c.Close()
	if _, err := io.WriteString(c, head); err != nil {
		return "", err
	}
	r := bufio.NewReader(c)
	for {
		// Wait interval for an answer, then send one more byte.
		c.SetReadDeadline(time.Now().Add(interval))
		line, err := r.ReadString('\n')
		var ne net.Error
		switch {
		case err == nil:
			return strings.TrimSpace(line), nil
		case !errors.As(err, &ne) || !ne.Timeout():
			return "", err // closed
		case ctx.Err() != nil:
			return "", ctx.Err()
		}
		if _, err := c.Write([]byte{' '}); err != nil {
			return "", err
		}
	}
}

// TestSlowBodiesLeaveRoomForOtherAddresses opens 1,100 connections from
// 127.0.0.1 that each send a request header and then a body byte every
// 2 s, redialling when the server closes them, as a persistent attacker
// would; meanwhile new connections from 127.0.0.2 must have /healthz and
// a free check answered within 1 s, again and again for several seconds.
// Without per-address bounds the slow bodies hold every slot of the
// connection cap until ReadTimeout, and new clients wait in the kernel.
func TestSlowBodiesLeaveRoomForOtherAddresses(t *testing.T) {
	const (
		attackers = 1100
		probing   = 5 * time.Second
	)
	raiseOpenFiles(t, 4*attackers)
	e := start(t, "", func(c *config.Config) {
		c.MaxInFlightPerAddr = config.DefaultMaxInFlightPerAddr
		c.Quotas = config.Quotas{Anonymous: 1 << 30, Client: 1 << 30, Registrations: 3, Network: 1 << 30, Global: 1 << 30}
	})
	addr := serveReal(t, e)

	ctx, stop := context.WithCancel(context.Background())
	var (
		wg                sync.WaitGroup
		dials, sentHeader atomic.Int64
		statusMu          sync.Mutex
		statuses          = map[string]int{}
	)
	head := slowHead("/oauth/register", 1000)
	attacker := dialFrom("127.0.0.1")
	for range attackers {
		wg.Go(func() {
			for ctx.Err() == nil {
				dials.Add(1)
				line, err := slowBody(ctx, attacker, addr, head, 2*time.Second)
				if err == nil {
					status, _, _ := strings.Cut(strings.TrimPrefix(line, "HTTP/1.1 "), " ")
					statusMu.Lock()
					statuses[status]++
					statusMu.Unlock()
				}
				sentHeader.Add(1)
				select {
				case <-ctx.Done():
				case <-time.After(time.Second):
				}
			}
		})
	}
	t.Cleanup(func() { stop(); wg.Wait() })
	// Let the connections open and send their headers.
	time.Sleep(1500 * time.Millisecond)

	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{
		DialContext: dialFrom("127.0.0.2").DialContext, DisableKeepAlives: true,
	}}
	var (
		latencies []time.Duration
		failures  []string
	)
	for end := time.Now().Add(probing); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		for _, path := range []string{"/healthz", "/free/check?passport=DEU&destination=THA"} {
			begun := time.Now()
			resp, err := client.Get("http://" + addr + path)
			elapsed := time.Since(begun)
			latencies = append(latencies, elapsed)
			if err != nil {
				failures = append(failures, fmt.Sprintf("%s after %s: %v", path, elapsed.Round(time.Millisecond), err))
				continue
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				failures = append(failures, fmt.Sprintf("%s: status %d after %s", path, resp.StatusCode, elapsed.Round(time.Millisecond)))
			}
		}
	}
	stop()
	wg.Wait()
	slices.Sort(latencies)
	statusMu.Lock()
	t.Logf("%d slow-body connections from 127.0.0.1 (%d dials in all; answers %v); from 127.0.0.2: %d requests, median %s, slowest %s",
		attackers, dials.Load(), statuses, len(latencies), latencies[len(latencies)/2].Round(time.Microsecond), latencies[len(latencies)-1].Round(time.Microsecond))
	statusMu.Unlock()
	if len(failures) > 0 {
		t.Errorf("%d of %d requests from another address failed or took over 1 s, such as: %s", len(failures), len(latencies), strings.Join(failures[:min(5, len(failures))], "; "))
	}
}

// boundedBodies are the routes that take a body, with the media type they
// take and the code of their refusal of a body over their bound.
var boundedBodies = []struct{ path, contentType, code string }{
	{"/v1/trips/evaluate", "application/json", "payload_too_large"},
	{"/mcp", "application/json", "payload_too_large"},
	{"/a2a", "application/json", "payload_too_large"},
	{"/oauth/register", "application/json", "invalid_client_metadata"},
	{"/oauth/token", "application/x-www-form-urlencoded", "invalid_request"},
}

// TestOversizedBodyIsRefusedBeforeContinue: a request declaring a 1 GiB
// body and waiting for 100 Continue gets 413 at once, as its first and
// only answer, and the connection is closed.
func TestOversizedBodyIsRefusedBeforeContinue(t *testing.T) {
	e := start(t, "")
	addr := serveReal(t, e)
	for _, c := range boundedBodies {
		t.Run(c.path, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			conn.SetDeadline(time.Now().Add(3 * time.Second))
			fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: test\r\nContent-Type: %s\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\nExpect: 100-continue\r\n\r\n", c.path, c.contentType, 1<<30)
			r := bufio.NewReader(conn)
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			if !strings.HasPrefix(line, "HTTP/1.1 413 ") {
				t.Fatalf("first status line %q, want 413 (and no 100 Continue)", strings.TrimSpace(line))
			}
			resp, err := http.ReadResponse(bufio.NewReader(io.MultiReader(strings.NewReader(line), r)), nil)
			if err != nil {
				t.Fatal(err)
			}
			var body struct{ Error string }
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil || body.Error != c.code {
				t.Errorf("body error %q (%v), want %q", body.Error, err, c.code)
			}
			if !resp.Close || !closedWithin(conn, time.Second) {
				t.Errorf("the connection stays open (Connection: close said: %t)", resp.Close)
			}
		})
	}
}

// closedWithin says whether the server closes c within d.
func closedWithin(c net.Conn, d time.Duration) bool {
	c.SetReadDeadline(time.Now().Add(d))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	return !errors.As(err, &ne) || !ne.Timeout()
}

// TestChunkedBodyOverTheBoundIs413: a chunked body, which declares no
// length, is read up to the route's bound and refused past it.
func TestChunkedBodyOverTheBoundIs413(t *testing.T) {
	e := start(t, "")
	addr := serveReal(t, e)
	big := strings.Repeat(" ", 70<<10)
	for _, c := range boundedBodies {
		t.Run(c.path, func(t *testing.T) {
			// A reader of unknown length is sent chunked.
			req, _ := http.NewRequest(http.MethodPost, "http://"+addr+c.path, io.MultiReader(strings.NewReader(big)))
			req.Header.Set("Content-Type", c.contentType)
			req.Header.Set("Accept", "application/json, text/event-stream")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body struct{ Error string }
			json.NewDecoder(resp.Body).Decode(&body)
			if resp.StatusCode != http.StatusRequestEntityTooLarge || body.Error != c.code {
				t.Errorf("chunked %d bytes: %d %q, want 413 %q", len(big), resp.StatusCode, body.Error, c.code)
			}
		})
	}
}

// TestSlowBodyIsCut: a body trickling a byte a second is cut after the
// grace and its length at the minimum rate (about 3 s for 100 bytes), with
// a 408, long before the 15 s ReadTimeout; so is the wait for the rest of
// a body a route does not read.
func TestSlowBodyIsCut(t *testing.T) {
	e := start(t, "")
	addr := serveReal(t, e)
	begun := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	line, err := slowBody(ctx, &net.Dialer{}, addr, slowHead("/v1/trips/evaluate", 100), time.Second)
	elapsed := time.Since(begun)
	if err != nil || !strings.HasPrefix(line, "HTTP/1.1 408 ") || elapsed > 6*time.Second {
		t.Fatalf("slow body: %q (%v) after %s, want a 408 within 6 s", line, err, elapsed)
	}
	t.Logf("a 100-byte body at 1 byte/s: %s after %s", line, elapsed.Round(time.Millisecond))

	// A route that takes no body does not read it, but the server reads
	// what is left (up to 256 KiB) before it answers, to reuse the
	// connection: that wait has the same deadline.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	begun = time.Now()
	io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: test\r\nContent-Length: 100\r\n\r\nx")
	c.SetReadDeadline(time.Now().Add(6 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil || resp.StatusCode != http.StatusOK || !resp.Close || !closedWithin(c, time.Second) {
		t.Fatalf("GET /healthz with a 100-byte body sent 1 byte of: %v after %s, want 200 and the connection closed within 6 s", err, time.Since(begun).Round(time.Millisecond))
	}
	t.Logf("GET /healthz with a slow body: answered, and the connection closed, after %s", time.Since(begun).Round(time.Millisecond))
}

// TestInFlightPerAddress: an address with MaxInFlightPerAddr requests in
// progress gets 429 for one more, at once, while /healthz and the clients
// a trusted proxy forwards are still served.
func TestInFlightPerAddress(t *testing.T) {
	e := start(t, "", func(c *config.Config) {
		c.MaxInFlightPerAddr = 2
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}
	})
	addr := strings.TrimPrefix(e.url, "http://")
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	t.Cleanup(func() { cancel(); wg.Wait() })
	for range 2 {
		// A slow request refused because a poll below held the slot it
		// came for is sent again, until both are in progress.
		wg.Go(func() {
			for ctx.Err() == nil {
				if line, _ := slowBody(ctx, &net.Dialer{}, addr, slowHead("/v1/trips/evaluate", 100), 10*time.Second); !strings.Contains(line, " 429 ") {
					return
				}
			}
		})
	}
	// Wait until both are in progress: the third request is refused.
	// (TestEveryDocumentedAnswerIsRecorded holds this 429 to openapi.json.)
	var (
		resp *http.Response
		body struct{ Error string }
	)
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		var err error
		if resp, err = http.Get(e.url + "/stats.json"); err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			break
		}
	}
	if resp.StatusCode != http.StatusTooManyRequests || body.Error != "too_many_in_flight" || resp.Header.Get("Retry-After") != "1" {
		t.Fatalf("a third request at once: %d %q (Retry-After %q), want 429 too_many_in_flight", resp.StatusCode, body.Error, resp.Header.Get("Retry-After"))
	}
	if r := e.get("/healthz"); r.StatusCode != http.StatusOK {
		t.Errorf("/healthz: %d, want it exempt", r.StatusCode)
	}
	if r := e.get("/free/check?passport=DEU&destination=THA", "X-Forwarded-For", "203.0.113.9"); r.StatusCode != http.StatusOK {
		t.Errorf("a client forwarded by the trusted proxy: %d, want its own count", r.StatusCode)
	}
}

// TestConnectionsPerAddress: past MaxConnsPerAddr busy connections, a new
// one from the same address is closed at once, while a trusted proxy keeps
// as many as it opens.
func TestConnectionsPerAddress(t *testing.T) {
	const perAddr = 4
	e := start(t, "", func(c *config.Config) {
		c.MaxConnsPerAddr = perAddr
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.2/32")}
	})
	addr := serveReal(t, e)
	busy := func(ip string) net.Conn {
		c, err := dialFrom(ip).Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		io.WriteString(c, slowHead("/v1/trips/evaluate", 100))
		return c
	}
	for range perAddr {
		busy("127.0.0.1")
	}
	var proxied []net.Conn
	for range 3 * perAddr {
		proxied = append(proxied, busy("127.0.0.2"))
	}
	time.Sleep(200 * time.Millisecond) // the server reads the headers: the connections are busy
	extra := busy("127.0.0.1")
	if !closedWithin(extra, time.Second) {
		t.Errorf("connection %d from one address is still open, want it closed at once", perAddr+1)
	}
	for i, c := range proxied {
		if serverClosed(c) {
			t.Errorf("connection %d of the trusted proxy was closed", i+1)
		}
	}
}
