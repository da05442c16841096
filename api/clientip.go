package api

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// clientIP returns the address of the client: the socket peer, unless the
// peer is a configured trusted proxy, in which case the nearest address in
// X-Forwarded-For (or Forwarded) that is not itself a trusted proxy. Headers
// from anyone else are ignored, so they cannot buy extra quota.
func (s *Server) clientIP(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	peer, err := netip.ParseAddr(host)
	if err != nil {
		return netip.IPv4Unspecified()
	}
	peer = peer.Unmap()
	if !s.trusted(peer) {
		return peer
	}
	hops := forwardedFor(r)
	for i := len(hops) - 1; i >= 0; i-- {
		a, err := netip.ParseAddr(hops[i])
		if err != nil {
			return peer
		}
		a = a.Unmap()
		if !s.trusted(a) {
			return a
		}
	}
	return peer
}

func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// forwardedFor lists the client addresses of X-Forwarded-For, or of the
// for= parameters of Forwarded (RFC 7239), nearest last.
func forwardedFor(r *http.Request) []string {
	var hops []string
	if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
		for _, line := range xff {
			for _, h := range strings.Split(line, ",") {
				hops = append(hops, strings.TrimSpace(h))
			}
		}
		return hops
	}
	for _, line := range r.Header.Values("Forwarded") {
		for _, elem := range strings.Split(line, ",") {
			for _, pair := range strings.Split(elem, ";") {
				k, v, ok := strings.Cut(strings.TrimSpace(pair), "=")
				if !ok || !strings.EqualFold(k, "for") {
					continue
				}
				v = strings.Trim(v, `"`)
				if strings.HasPrefix(v, "[") {
					v = strings.TrimPrefix(strings.SplitN(v, "]", 2)[0], "[")
				} else if host, _, err := net.SplitHostPort(v); err == nil {
					v = host
				}
				hops = append(hops, v)
			}
		}
	}
	return hops
}

// networkOf returns the network an address is counted in: IPv4 /24, IPv6 /56
// (the smallest allocation a provider typically gives one customer).
func networkOf(a netip.Addr) netip.Prefix {
	bits := 24
	if a.Is6() {
		bits = 56
	}
	p, _ := a.Prefix(bits)
	return p
}
