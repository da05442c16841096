package api

import (
	"container/list"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
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
//
// One peer address may hold at most perAddr of the connections, so that a
// single host cannot fill the cap with connections it keeps busy (slow
// bodies): at its bound, a new connection from it makes room by closing
// the address's own connection idle the longest, else its oldest that has
// sent no request header yet, and is closed at once when all of the
// address's connections are busy. The accept loop never waits for one
// address. Trusted proxies are exempt: every client behind one shares its
// address, and the in-flight bound per client address (inFlight) reads
// through it.
type connLimit struct {
	max, perAddr int
	trusted      []netip.Prefix
	log          *slog.Logger

	mu    sync.Mutex
	conns map[net.Conn]*connEntry
	// byAddr counts the connections of each capped peer address.
	byAddr map[netip.Addr]int
	// idle holds the connections between requests, longest idle first;
	// fresh the new ones that have not sent a request header yet, oldest
	// first. Busy connections are in neither.
	idle, fresh list.List
	// changed wakes the accept loop waiting for room: a connection closed
	// or went idle.
	changed chan struct{}
	// warned is when the log last said that new connections wait, and
	// warnedAddr when it last said that an address was at its bound.
	warned, warnedAddr time.Time
}

type connEntry struct {
	conn net.Conn
	// addr is the peer address the connection counts against; invalid
	// for a trusted proxy, which has no bound.
	addr netip.Addr
	// in is the list holding elem, nil while the connection is busy.
	in   *list.List
	elem *list.Element
}

// newConnLimit bounds the open connections to n and those of one peer
// address outside the trusted networks to perAddr (each at least 1).
func newConnLimit(n, perAddr int, trusted []netip.Prefix, log *slog.Logger) *connLimit {
	return &connLimit{
		max: max(1, n), perAddr: max(1, perAddr), trusted: trusted, log: log,
		conns: map[net.Conn]*connEntry{}, byAddr: map[netip.Addr]int{}, changed: make(chan struct{}, 1),
	}
}

// cappedAddr is the peer address of c that the per-address bound counts,
// or the zero Addr when it has none: a trusted proxy, or a peer that is
// not an IP address.
func (l *connLimit) cappedAddr(c net.Conn) netip.Addr {
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	if err != nil {
		return netip.Addr{}
	}
	a := ap.Addr().Unmap().WithZone("")
	for _, p := range l.trusted {
		if p.Contains(a) {
			return netip.Addr{}
		}
	}
	return a
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
		l.forget(e)
	}
}

// admit counts c in, once there is room: at the cap it closes the
// connection idle the longest or, when none is, the oldest that has not
// sent a request header yet; when all are busy it waits for one to close
// or go idle. First, c's address must have room (roomForAddr), else c is
// closed at once.
func (l *connLimit) admit(c net.Conn) {
	addr := l.cappedAddr(c)
	if !l.roomForAddr(addr) {
		// Its goroutine reads nothing and ends; its StateClosed finds it
		// not counted.
		c.Close()
		return
	}
	for {
		l.mu.Lock()
		if len(l.conns) < l.max {
			e := &connEntry{conn: c, addr: addr}
			l.conns[c] = e
			if addr.IsValid() {
				l.byAddr[addr]++
			}
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

// roomForAddr makes room for one more connection of addr when it is at
// its bound, by closing its own connection idle the longest, else its
// oldest that has sent no request header; false when every connection of
// addr is busy. The lists are searched in order, which costs at most the
// connection cap and only for an address at its bound.
func (l *connLimit) roomForAddr(addr netip.Addr) bool {
	if !addr.IsValid() {
		return true
	}
	l.mu.Lock()
	if l.byAddr[addr] < l.perAddr {
		l.mu.Unlock()
		return true
	}
	victim := l.evictOf(addr)
	if victim == nil {
		l.warnAddr()
	}
	l.mu.Unlock()
	if victim == nil {
		return false
	}
	victim.Close()
	return true
}

// evict takes the connection to close off the books: the one idle the
// longest, else the oldest that has not sent a request header; nil when
// every connection is busy. l.mu is held.
func (l *connLimit) evict() net.Conn {
	return l.evictOf(netip.Addr{})
}

// evictOf is evict among the connections of addr (any when addr is the
// zero Addr). l.mu is held.
func (l *connLimit) evictOf(addr netip.Addr) net.Conn {
	for _, from := range []*list.List{&l.idle, &l.fresh} {
		for f := from.Front(); f != nil; f = f.Next() {
			if e := f.Value.(*connEntry); !addr.IsValid() || e.addr == addr {
				l.forget(e)
				return e.conn
			}
		}
	}
	return nil
}

// forget takes e off the books. l.mu is held.
func (l *connLimit) forget(e *connEntry) {
	l.move(e, nil)
	delete(l.conns, e.conn)
	if e.addr.IsValid() {
		if l.byAddr[e.addr]--; l.byAddr[e.addr] <= 0 {
			delete(l.byAddr, e.addr)
		}
	}
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

// warnAddr logs, at most once a minute, that an address had all its
// connections busy and a new one was closed; which address stays out of
// the log, as in the access log. l.mu is held.
func (l *connLimit) warnAddr() {
	if now := time.Now(); now.Sub(l.warnedAddr) >= time.Minute {
		l.warnedAddr = now
		l.log.Warn("a peer address has all its connections busy at its cap: its new connections are closed (raise --max-conns-per-addr if it is a proxy of yours, or list it in --trusted-proxies)",
			"max_conns_per_addr", l.perAddr)
	}
}
