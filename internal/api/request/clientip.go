package request

import (
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
)

// ClientIP returns the address of the client: the socket peer, unless the
// peer is a configured trusted proxy, in which case the nearest hop in
// X-Forwarded-For (or the for= of Forwarded) that is not itself a trusted
// proxy. Headers from anyone else are ignored, so they cannot buy extra
// quota.
//
// known is false when that hop names no address: RFC 7239's "unknown", an
// obfuscated identifier ("_hidden") or garbage. Such a client is neither
// the proxy (whose own requests would then share its quota with every
// hidden client) nor a bucket of its own per identifier (the identifier is
// the proxy's choice, possibly new for every request, so that would be
// unlimited): the quotas count all unknown clients together as one, under
// the anonymous limit.
func ClientIP(r *http.Request, trusted []netip.Prefix) (addr netip.Addr, known bool) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return netip.IPv4Unspecified(), true
	}
	peer = peer.Unmap().WithZone("")
	if !isTrusted(trusted, peer) {
		return peer, true
	}
	hops := forwardedFor(r)
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := hopAddr(hops[i])
		if !ok {
			return netip.Addr{}, false
		}
		if !isTrusted(trusted, a) {
			return a, true
		}
	}
	return peer, true
}

func isTrusted(trusted []netip.Prefix, a netip.Addr) bool {
	for _, p := range trusted {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// forwardedFor lists the hops of X-Forwarded-For, or the for= parameters of
// Forwarded (RFC 7239) unquoted, nearest last. Empty list elements are
// skipped, as RFC 9110 section 5.6.1 asks.
func forwardedFor(r *http.Request) []string {
	var hops []string
	if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		for _, line := range xff {
			for _, h := range strings.Split(line, ",") {
				if h = strings.TrimSpace(h); h != "" {
					hops = append(hops, h)
				}
			}
		}
		return hops
	}
	for _, line := range r.Header.Values("Forwarded") {
		for _, elem := range strings.Split(line, ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if ok && strings.EqualFold(strings.TrimSpace(k), "for") {
					hops = append(hops, strings.Trim(strings.TrimSpace(v), `"`))
				}
			}
		}
	}
	return hops
}

// hopAddr reads the address of one hop: "203.0.113.7", "2001:db8::1",
// with a port ("203.0.113.7:4711", "[2001:db8::1]:4711") or RFC 7239's
// obfuscated port ("[2001:db8::1]:_p1"), or bracketed without one. ok is
// false for anything else, such as "unknown" and "_hidden".
func hopAddr(hop string) (netip.Addr, bool) {
	host := hop
	if strings.HasPrefix(hop, "[") {
		end := strings.IndexByte(hop, ']')
		if end < 0 {
			return netip.Addr{}, false
		}
		if rest := hop[end+1:]; rest != "" && !(rest[0] == ':' && validPort(rest[1:])) {
			return netip.Addr{}, false
		}
		host = hop[1:end]
		if a, err := netip.ParseAddr(host); err != nil || !a.Is6() {
			return netip.Addr{}, false
		}
	} else if h, port, ok := strings.Cut(hop, ":"); ok && !strings.Contains(port, ":") {
		// One colon: an IPv4 address and its port (an IPv6 address has
		// more, and is read whole below).
		if !validPort(port) {
			return netip.Addr{}, false
		}
		host = h
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}, false
	}
	return a.Unmap().WithZone(""), true
}

// validPort accepts a port number or RFC 7239's obfuscated port ("_" and
// letters, digits, ".", "_", "-").
func validPort(p string) bool {
	if _, err := strconv.ParseUint(p, 10, 16); err == nil {
		return true
	}
	if len(p) < 2 || p[0] != '_' {
		return false
	}
	for _, c := range p[1:] {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// NetworkOf returns the network an address is counted in: IPv4 /24, IPv6 /56
// (the smallest allocation a provider typically gives one customer).
func NetworkOf(a netip.Addr) netip.Prefix {
	bits := 24
	if a.Is6() {
		bits = 56
	}
	p, _ := a.Prefix(bits)
	return p
}
