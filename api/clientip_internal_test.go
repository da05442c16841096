package api

import (
	"net/http/httptest"
	"net/netip"
	"testing"
)

func TestForwardedFor(t *testing.T) {
	r := httptest.NewRequest("GET", "/", nil)
	r.Header.Set("Forwarded", `for=192.0.2.60;proto=http, for="[2001:db8:cafe::17]:4711"`)
	got := forwardedFor(r)
	if len(got) != 2 || got[0] != "192.0.2.60" || got[1] != "2001:db8:cafe::17" {
		t.Errorf("Forwarded: %v", got)
	}
	r.Header.Set("X-Forwarded-For", "203.0.113.1, 10.0.0.1")
	if got := forwardedFor(r); len(got) != 2 || got[0] != "203.0.113.1" {
		t.Errorf("X-Forwarded-For takes precedence: %v", got)
	}
}

func TestNetworkOf(t *testing.T) {
	for in, want := range map[string]string{"198.51.100.77": "198.51.100.0/24", "2001:db8:1234:5678::1": "2001:db8:1234:5600::/56"} {
		if got := networkOf(netip.MustParseAddr(in)).String(); got != want {
			t.Errorf("networkOf(%s) = %s, want %s", in, got, want)
		}
	}
}
