package discovery

import (
	"testing"

	"github.com/entrycheck/entrycheck/internal/config"
)

// TestTablesAgree: every paid route has a price, and every skill names
// routes that exist. The settings themselves (base URL, prices) are
// checked once, by config.Load.
func TestTablesAgree(t *testing.T) {
	prices := PricesOf(config.Default().Prices)
	for _, r := range Routes {
		if r.Tier != TierPaid {
			continue
		}
		priced := false
		for _, p := range prices {
			priced = priced || p.Method == r.Method && p.Path == r.Path && p.USD != ""
		}
		if !priced {
			t.Errorf("%s %s is paid but has no price", r.Method, r.Path)
		}
	}
	for _, sk := range skills {
		for _, path := range sk.endpoints {
			if _, ok := route(path); !ok {
				t.Errorf("skill %s names %s, which is not a route", sk.name, path)
			}
		}
	}
}
