package api

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/config"
)

// capped serves h on a loopback port with the connection cap n.
func capped(t *testing.T, n int, h http.Handler) (string, *connLimit) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.MaxConns = n
	srv := HTTPServer("", h, slog.New(slog.DiscardHandler), cfg)
	limit := newConnLimit(n, cfg.MaxConnsPerAddr, nil, slog.New(slog.DiscardHandler))
	srv.ConnState = limit.track
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), limit
}

// waitIdle waits until the server counts n idle connections: a client has
// its answer a moment before the server marks the connection idle.
func (l *connLimit) waitIdle(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		l.mu.Lock()
		idle := l.idle.Len()
		l.mu.Unlock()
		if idle == n {
			return
		}
	}
	t.Fatalf("the server never counted %d idle connections", n)
}

// clientConn is one raw client connection.
type clientConn struct {
	net.Conn
	r *bufio.Reader
}

// dial connects and, unless path is empty, makes one request and keeps the
// connection open (keepAlive) or asks the server to close it.
func dial(t *testing.T, addr, path string, keepAlive bool) *clientConn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	cc := &clientConn{Conn: c, r: bufio.NewReader(c)}
	if path != "" {
		if err := cc.get(path, keepAlive); err != nil {
			t.Fatal(err)
		}
	}
	return cc
}

// get makes one request on c; an answer other than 200 is an error.
func (c *clientConn) get(path string, keepAlive bool) error {
	conn := ""
	if !keepAlive {
		conn = "Connection: close\r\n"
	}
	c.SetDeadline(time.Now().Add(5 * time.Second))
	defer c.SetDeadline(time.Time{})
	if _, err := io.WriteString(c, "GET "+path+" HTTP/1.1\r\nHost: test\r\n"+conn+"\r\n"); err != nil {
		return err
	}
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return nil
}

// closed says whether the server has closed c: a read ends instead of
// timing out.
func (c *clientConn) closed() bool {
	c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	_, err := c.r.ReadByte()
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

func answerOK(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }

// TestIdleCapClosesTheLongestIdle: at the cap a new connection is served
// at once, and the connection idle the longest is the one closed.
func TestIdleCapClosesTheLongestIdle(t *testing.T) {
	addr, limit := capped(t, 3, http.HandlerFunc(answerOK))
	var a, b, c *clientConn
	for i, conn := range []**clientConn{&a, &b, &c} {
		*conn = dial(t, addr, "/", true)
		limit.waitIdle(t, i+1)
	}
	// a's second request makes b the longest idle.
	if err := a.get("/", true); err != nil {
		t.Fatal(err)
	}
	limit.waitIdle(t, 3)
	dial(t, addr, "/", false)
	if !b.closed() || a.closed() || c.closed() {
		t.Errorf("after one new connection: closed a %v, b %v, c %v; want b only", a.closed(), b.closed(), c.closed())
	}
}

// TestIdleCapClosesSilentConnectionsNext: when no connection is idle, the
// oldest that has sent nothing makes room, so that silent connections
// cannot hold new clients back until their header timeout.
func TestIdleCapClosesSilentConnectionsNext(t *testing.T) {
	addr, _ := capped(t, 2, http.HandlerFunc(answerOK))
	s1 := dial(t, addr, "", false)
	time.Sleep(10 * time.Millisecond) // s1 is the older
	s2 := dial(t, addr, "", false)
	start := time.Now()
	dial(t, addr, "/", false)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a new client waited %s behind silent connections", d)
	}
	if !s1.closed() || s2.closed() {
		t.Errorf("closed: older silent %v, newer silent %v; want the older only", s1.closed(), s2.closed())
	}
}

// TestIdleCapWaitsWhileAllBusy: busy connections are never closed; a new
// one waits until one of them finishes.
func TestIdleCapWaitsWhileAllBusy(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	addr, _ := capped(t, 2, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/busy" {
			started <- struct{}{}
			<-release
		}
		io.WriteString(w, "ok")
	}))
	busy := make(chan error, 2)
	for range 2 {
		c := dial(t, addr, "", false)
		go func() { busy <- c.get("/busy", false) }()
	}
	<-started
	<-started
	third := dial(t, addr, "", false)
	answered := make(chan error, 1)
	go func() { answered <- third.get("/", false) }()
	select {
	case <-answered:
		t.Fatal("a third connection was served while the cap of 2 was busy")
	case <-time.After(300 * time.Millisecond):
	}
	release <- struct{}{}
	if err := <-busy; err != nil {
		t.Errorf("a busy request was cut off: %v", err)
	}
	select {
	case err := <-answered:
		if err != nil {
			t.Errorf("the waiting connection, once a busy one finished: %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Error("the waiting connection was not served after a busy one finished")
	}
	close(release)
	if err := <-busy; err != nil {
		t.Errorf("a busy request was cut off: %v", err)
	}
}
