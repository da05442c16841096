package request

import (
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/config"
)

// TestClientIP: the client address behind a trusted proxy, from each form
// of X-Forwarded-For and Forwarded; "unknown" where the nearest untrusted
// hop names no address.
func TestClientIP(t *testing.T) {
	trusted, err := config.ParsePrefixes("10.0.0.0/8, 2001:db8:ffff::/48")
	if err != nil {
		t.Fatal(err)
	}
	const proxy, stranger = "10.0.0.1:34567", "198.51.100.9:34567"
	cases := []struct {
		name, peer, xff, forwarded string
		want                       string
	}{
		{"no proxy: the peer", stranger, "", "", "198.51.100.9"},
		{"untrusted peer: its headers ignored", stranger, "203.0.113.7", "for=192.0.2.1", "198.51.100.9"},
		{"untrusted peer: its unknown ignored", stranger, "", "for=unknown", "198.51.100.9"},
		{"trusted peer, no header: the proxy itself", proxy, "", "", "10.0.0.1"},
		{"IPv6 peer", "[2001:db8::2]:443", "", "", "2001:db8::2"},
		{"IPv4-mapped peer", "[::ffff:198.51.100.9]:443", "", "", "198.51.100.9"},

		{"XFF address", proxy, "203.0.113.7", "", "203.0.113.7"},
		{"XFF IPv4 with port", proxy, "203.0.113.7:4711", "", "203.0.113.7"},
		{"XFF IPv6", proxy, "2001:db8::1", "", "2001:db8::1"},
		{"XFF bracketed IPv6 with port", proxy, "[2001:db8::1]:4711", "", "2001:db8::1"},
		{"XFF bracketed IPv6", proxy, "[2001:db8::1]", "", "2001:db8::1"},
		{"XFF IPv4-mapped IPv6", proxy, "::ffff:203.0.113.7", "", "203.0.113.7"},
		{"XFF IPv6 with zone", proxy, "fe80::1%eth0", "", "fe80::1"},
		{"XFF nearest untrusted hop", proxy, "192.0.2.1, 203.0.113.7:4711, 10.1.2.3", "", "203.0.113.7"},
		{"XFF trusted IPv6 proxy skipped", proxy, "[2001:db8::1]:4711, [2001:db8:ffff::5]:80", "", "2001:db8::1"},
		{"XFF several header lines", proxy, "192.0.2.1\n203.0.113.7", "", "203.0.113.7"},
		{"XFF empty elements skipped", proxy, "203.0.113.7, ,", "", "203.0.113.7"},
		{"XFF only trusted hops: the peer", proxy, "10.9.9.9", "", "10.0.0.1"},
		{"XFF wins over Forwarded", proxy, "203.0.113.7", "for=192.0.2.1", "203.0.113.7"},
		{"XFF unknown", proxy, "unknown", "", "unknown"},
		{"XFF garbage", proxy, "not-an-address", "", "unknown"},
		{"XFF port out of range", proxy, "203.0.113.7:70000", "", "unknown"},
		{"XFF bracketed IPv4", proxy, "[203.0.113.7]:80", "", "unknown"},
		{"XFF unclosed bracket", proxy, "[2001:db8::1:80", "", "unknown"},
		{"XFF hidden behind a named hop", proxy, "unknown, 203.0.113.7", "", "203.0.113.7"},

		{"Forwarded address", proxy, "", "for=192.0.2.60", "192.0.2.60"},
		{"Forwarded IPv4 with port", proxy, "", "for=192.0.2.60:4711", "192.0.2.60"},
		{"Forwarded quoted IPv4 with port", proxy, "", `for="192.0.2.60:4711"`, "192.0.2.60"},
		{"Forwarded quoted IPv6 with port", proxy, "", `for="[2001:db8::1]:4711"`, "2001:db8::1"},
		{"Forwarded quoted IPv6", proxy, "", `for="[2001:db8::1]"`, "2001:db8::1"},
		{"Forwarded obfuscated port", proxy, "", `for="192.0.2.60:_p-1"`, "192.0.2.60"},
		{"Forwarded parameter case and spaces", proxy, "", `proto=https; For = 192.0.2.60 ;by=10.0.0.1`, "192.0.2.60"},
		{"Forwarded nearest element", proxy, "", `for=192.0.2.60;proto=http;by=203.0.113.43, for="[2001:db8:cafe::17]:4711"`, "2001:db8:cafe::17"},
		{"Forwarded trusted proxy skipped", proxy, "", `for=192.0.2.60, for=10.0.0.7`, "192.0.2.60"},
		{"Forwarded unknown", proxy, "", "for=unknown", "unknown"},
		{"Forwarded obfuscated identifier", proxy, "", "for=_hidden", "unknown"},
		{"Forwarded obfuscated with port", proxy, "", `for="_hidden:4711"`, "unknown"},
		{"Forwarded nearest hop hidden", proxy, "", "for=198.51.100.17, for=_hidden", "unknown"},
		{"Forwarded hidden hop behind a named one", proxy, "", "for=_hidden, for=198.51.100.17", "198.51.100.17"},
		{"Forwarded bad port", proxy, "", `for="[2001:db8::1]:port"`, "unknown"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = c.peer
			for _, line := range strings.Split(c.xff, "\n") {
				if line != "" {
					r.Header.Add("X-Forwarded-For", line)
				}
			}
			if c.forwarded != "" {
				r.Header.Set("Forwarded", c.forwarded)
			}
			got := "unknown"
			if a, known := ClientIP(r, trusted); known {
				got = a.String()
			}
			if got != c.want {
				t.Errorf("peer %s, X-Forwarded-For %q, Forwarded %q: %s, want %s", c.peer, c.xff, c.forwarded, got, c.want)
			}
		})
	}
}

func TestNetworkOf(t *testing.T) {
	for in, want := range map[string]string{"198.51.100.77": "198.51.100.0/24", "2001:db8:1234:5678::1": "2001:db8:1234:5600::/56"} {
		if got := NetworkOf(netip.MustParseAddr(in)).String(); got != want {
			t.Errorf("NetworkOf(%s) = %s, want %s", in, got, want)
		}
	}
}
