package api

import (
	"container/list"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// connLimit bounds the connections an http.Server keeps open, through its
// ConnState hook. A connection between requests costs a goroutine and its
// buffers (16 to 25 KB) and serves nobody, so at the cap a new connection
// makes room by closing the one idle the longest, as http.Server.Shutdown
// closes idle connections: HTTP/1.1 clients expect a keep-alive connection
// to close between requests and retry on a new one. When none is idle, it
// closes the oldest connection that has not sent a whole request header
// yet: a client sends its request as it connects, so under a flood of
// silent connections the oldest is the likeliest to be one of them, and
// waiting for them to time out would hold back every client queued behind.
// Only when every connection is busy does a new one wait for a slot (the
// accept loop waits, the kernel queues the rest). A plain cap on accepted
// connections (netutil.LimitListener) would instead let idle connections
// starve new clients for up to IdleTimeout.
type connLimit struct {
	max int
	log *slog.Logger

	mu    sync.Mutex
	conns map[net.Conn]*connEntry
	// idle holds the connections between requests, longest idle first;
	// fresh the new ones that have not sent a request header yet, oldest
	// first. Busy connections are in neither.
	idle, fresh list.List
	// changed wakes the accept loop waiting for room: a connection closed
	// or went idle.
	changed chan struct{}
	// warned is when the log last said that new connections wait.
	warned time.Time
}

type connEntry struct {
	conn net.Conn
	// in is the list holding elem, nil while the connection is busy.
	in   *list.List
	elem *list.Element
}

// newConnLimit bounds the open connections to n (at least 1).
func newConnLimit(n int, log *slog.Logger) *connLimit {
	return &connLimit{max: max(1, n), log: log, conns: map[net.Conn]*connEntry{}, changed: make(chan struct{}, 1)}
}

// track is the server's ConnState hook. The server calls it with StateNew
// from its accept loop, before serving the connection, so waiting there
// holds back further accepts.
func (l *connLimit) track(c net.Conn, state http.ConnState) {
	switch state {
	case http.StateNew:
		l.admit(c)
		return
	case http.StateIdle, http.StateClosed, http.StateHijacked:
		defer l.wake()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	e, ok := l.conns[c]
	if !ok {
		return // closed here to make room: no longer counted
	}
	switch state {
	case http.StateActive:
		l.move(e, nil)
	case http.StateIdle:
		l.move(e, &l.idle)
	case http.StateClosed, http.StateHijacked:
		l.move(e, nil)
		delete(l.conns, c)
	}
}

// admit counts c in, once there is room: at the cap it closes the
// connection idle the longest or, when none is, the oldest that has not
// sent a request header yet; when all are busy it waits for one to close
// or go idle.
func (l *connLimit) admit(c net.Conn) {
	for {
		l.mu.Lock()
		if len(l.conns) < l.max {
			e := &connEntry{conn: c}
			l.conns[c] = e
			l.move(e, &l.fresh)
			l.mu.Unlock()
			return
		}
		victim := l.evict()
		if victim == nil {
			l.warnWaiting()
		}
		l.mu.Unlock()
		if victim != nil {
			// Its goroutine ends on its own, and its StateClosed finds it
			// no longer counted.
			victim.Close()
			continue
		}
		<-l.changed
	}
}

// evict takes the connection to close off the books: the one idle the
// longest, else the oldest that has not sent a request header; nil when
// every connection is busy. l.mu is held.
func (l *connLimit) evict() net.Conn {
	f := l.idle.Front()
	if f == nil {
		f = l.fresh.Front()
	}
	if f == nil {
		return nil
	}
	e := f.Value.(*connEntry)
	l.move(e, nil)
	delete(l.conns, e.conn)
	return e.conn
}

// move puts e at the back of list to (nil: in no list, busy). l.mu is held.
func (l *connLimit) move(e *connEntry, to *list.List) {
	if e.in != nil {
		e.in.Remove(e.elem)
	}
	e.in, e.elem = to, nil
	if to != nil {
		e.elem = to.PushBack(e)
	}
}

// wake tells a waiting admit that the books changed.
func (l *connLimit) wake() {
	select {
	case l.changed <- struct{}{}:
	default:
	}
}

// warnWaiting logs, at most once a minute, that every connection is busy:
// a cap this low for the load delays new clients. l.mu is held.
func (l *connLimit) warnWaiting() {
	if now := time.Now(); now.Sub(l.warned) >= time.Minute {
		l.warned = now
		l.log.Warn("every connection is busy at the connection cap: new connections wait (raise --max-conns if this is load, not abuse)",
			"max_conns", l.max)
	}
}
