package api

import (
	"log/slog"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/api/response"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// inFlight bounds the requests of one client address served at once
// (config.Config.MaxInFlightPerAddr). The address is the quotas': the
// socket peer, or behind a trusted proxy the forwarded client, with the
// clients the proxy does not name counted together. The connection cap
// per address cannot see the clients behind a proxy, and an address that
// keeps many slow requests open holds as many workers; past the bound a
// request is answered 429 at once, before its body is read.
type inFlight struct {
	max     int
	trusted []netip.Prefix
	log     *slog.Logger

	mu sync.Mutex
	n  map[netip.Addr]int
	// warned is when the log last said that an address was refused.
	warned time.Time
}

// newInFlight bounds the requests of one client address to n (at least 1).
func newInFlight(n int, trusted []netip.Prefix, log *slog.Logger) *inFlight {
	return &inFlight{max: max(1, n), trusted: trusted, log: log, n: map[netip.Addr]int{}}
}

// limit is the middleware.
func (l *inFlight) limit(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if discovery.Unlimited(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		addr, known := request.ClientIP(r, l.trusted)
		if !known {
			addr = netip.Addr{}
		}
		if !l.enter(addr) {
			w.Header().Set("Retry-After", "1")
			// The connection is closed rather than drained of a body
			// nobody reads, which may come slowly.
			w.Header().Set("Connection", "close")
			response.Fail(w, r, http.StatusTooManyRequests, response.CodeTooManyInFlight,
				"this address has "+strconv.Itoa(l.max)+" requests in progress, the most served at once: wait for an answer before sending more")
			return
		}
		defer l.leave(addr)
		next.ServeHTTP(w, r)
	})
}

func (l *inFlight) enter(a netip.Addr) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[a] >= l.max {
		l.warn()
		return false
	}
	l.n[a]++
	return true
}

// warn logs, at most once a minute, that an address was refused: a proxy
// missing from --trusted-proxies makes all its clients one address. Which
// address stays out of the log, as in the access log. l.mu is held.
func (l *inFlight) warn() {
	if now := time.Now(); now.Sub(l.warned) >= time.Minute {
		l.warned = now
		l.log.Warn("a client address has all its requests in flight: more get 429 (if it is a proxy of yours, list it in --trusted-proxies)",
			"max_in_flight_per_addr", l.max)
	}
}

func (l *inFlight) leave(a netip.Addr) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.n[a]--; l.n[a] <= 0 {
		delete(l.n, a)
	}
}
