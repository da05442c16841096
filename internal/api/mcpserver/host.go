package mcpserver

import (
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
)

// allowedHost protects against DNS rebinding: a request that reached a
// loopback listener must name a loopback host or the configured public host,
// never a host an attacker's page resolved to 127.0.0.1.
func (e *Endpoint) allowedHost(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || !isLoopback(local.String()) {
		return true
	}
	if isLoopback(r.Host) {
		return true
	}
	base, err := url.Parse(e.BaseURL)
	return err == nil && strings.EqualFold(base.Hostname(), hostname(r.Host))
}

func isLoopback(hostport string) bool {
	host := hostname(hostport)
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.IsLoopback()
}

// hostname is the host of a Host header or address, without port or brackets.
func hostname(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}
