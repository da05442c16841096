package api_test

import (
	"bufio"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/api"
)

// TestIdleConnectionsLeaveRoomForNewClients opens twice the default
// connection cap of keep-alive connections to the service as serve runs
// it, each after one request, and checks that a new client is still
// answered promptly and that the server kept no more than the cap open.
// How fast, and at what memory, scripts/bench-idle.sh measures.
func TestIdleConnectionsLeaveRoomForNewClients(t *testing.T) {
	e := start(t, "")
	maxConns := e.cfg.MaxConns
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// The clients here stand for many, from one address: the bound per
	// address is TestConnectionsPerAddress's.
	cfg := e.cfg
	cfg.MaxConnsPerAddr = 2 * maxConns
	srv := api.HTTPServer("", e.service.Handler(), slog.New(slog.DiscardHandler), cfg)
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	addr := ln.Addr().String()

	conns, err := openIdle(addr, 2*maxConns)
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	if errors.Is(err, syscall.EMFILE) {
		t.Skipf("%d connections need more open files than this process may have: %v", 2*maxConns, err)
	}
	if err != nil {
		t.Fatal(err)
	}

	begun := time.Now()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Get("http://" + addr + "/healthz")
	if err != nil {
		t.Fatalf("a new client with %d idle connections open: %v", len(conns), err)
	}
	resp.Body.Close()
	elapsed := time.Since(begun)
	if resp.StatusCode != http.StatusOK || elapsed > 2*time.Second {
		t.Errorf("a new client with %d idle connections open: %d after %s", len(conns), resp.StatusCode, elapsed)
	}
	open := 0
	for _, c := range conns {
		if !serverClosed(c) {
			open++
		}
	}
	if open > maxConns {
		t.Errorf("%d of %d idle connections still open, the cap is %d", open, len(conns), maxConns)
	}
	t.Logf("%d idle connections (%d left open by the server): a new client answered in %s", len(conns), open, elapsed)
}

// openIdle opens n connections that each make one keep-alive request.
func openIdle(addr string, n int) ([]net.Conn, error) {
	var (
		mu    sync.Mutex
		conns []net.Conn
		errs  []error
		wg    sync.WaitGroup
	)
	next := make(chan struct{}, n)
	for range n {
		next <- struct{}{}
	}
	close(next)
	for range 50 {
		wg.Go(func() {
			for range next {
				c, err := keepAliveRequest(addr)
				mu.Lock()
				if c != nil {
					conns = append(conns, c)
				}
				errs = append(errs, err)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return conns, errors.Join(errs...)
}

func keepAliveRequest(addr string) (net.Conn, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n"); err != nil {
		return c, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return c, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	c.SetDeadline(time.Time{})
	return c, nil
}

// serverClosed says whether the server has closed c: a read ends instead
// of timing out.
func serverClosed(c net.Conn) bool {
	c.SetReadDeadline(time.Now().Add(time.Millisecond))
	_, err := c.Read(make([]byte, 1))
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}
