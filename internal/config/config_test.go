package config

import (
	"flag"
	"reflect"
	"strconv"
	"testing"
)

func TestParsePrefixes(t *testing.T) {
	p, err := ParsePrefixes("10.0.0.0/8, 127.0.0.1 ,::1, 2001:db8::/32")
	if err != nil || len(p) != 4 || p[1].String() != "127.0.0.1/32" || p[2].String() != "::1/128" {
		t.Fatalf("%v %v", p, err)
	}
	for _, bad := range []string{"10.0.0.0/33", "localhost", "1.2.3"} {
		if _, err := ParsePrefixes(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestLoadValidates(t *testing.T) {
	t.Setenv("ENTRYCHECK_QUOTA_ANONYMOUS", "12")
	c := Default()
	if err := c.Load(); err != nil || c.Quotas.Anonymous != 12 {
		t.Fatalf("%v %+v", err, c.Quotas)
	}
	t.Setenv("ENTRYCHECK_QUOTA_ANONYMOUS", "many")
	c = Default()
	if err := c.Load(); err == nil {
		t.Error("a quota of \"many\" was accepted")
	}
	t.Setenv("ENTRYCHECK_QUOTA_ANONYMOUS", "")
	c = Default()
	c.BaseURL = "example.org"
	if err := c.Load(); err == nil {
		t.Error("a base URL without scheme was accepted")
	}
	c = Default()
	c.IPHashKey = "short"
	if err := c.Load(); err == nil {
		t.Error("a short address-hash key was accepted")
	}
	c = Default()
	c.MaxConns = 0
	if err := c.Load(); err == nil {
		t.Error("a connection cap of 0 was accepted")
	}
	for price, ok := range map[string]bool{"0.05": true, "1": true, "0.000001": true, "0": false, "0.0000001": false, "-1": false, "$1": false, "1,50": false} {
		t.Setenv("ENTRYCHECK_PRICE_CHECK", price)
		c = Default()
		if err := c.Load(); (err == nil) != ok || ok && c.Prices["check"] != price {
			t.Errorf("price %q: %v, %q", price, err, c.Prices["check"])
		}
	}
}

// TestDataLock: flag over environment over the lock built in (empty).
func TestDataLock(t *testing.T) {
	if c := Default(); c.DataLock != "" {
		t.Fatalf("default %q, want empty: the lock built in", c.DataLock)
	}
	t.Setenv("ENTRYCHECK_DATA_LOCK", "from-env.lock")
	c := Default()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	c.RegisterData(fs)
	if c.DataLock != "from-env.lock" {
		t.Errorf("environment: %q", c.DataLock)
	}
	if err := fs.Parse([]string{"--data-lock", "from-flag.lock"}); err != nil || c.DataLock != "from-flag.lock" {
		t.Errorf("flag: %q %v", c.DataLock, err)
	}
}

// TestGeoDir: flag over environment over the default beside the data.
func TestGeoDir(t *testing.T) {
	if c := Default(); c.GeoDir != DefaultGeoDir {
		t.Errorf("default %q", c.GeoDir)
	}
	t.Setenv("ENTRYCHECK_GEO", "from-env")
	c := Default()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	c.RegisterBuild(fs)
	if c.GeoDir != "from-env" {
		t.Errorf("environment: %q", c.GeoDir)
	}
	if err := fs.Parse([]string{"--geo", "from-flag"}); err != nil || c.GeoDir != "from-flag" {
		t.Errorf("flag: %q %v", c.GeoDir, err)
	}
}

// TestEveryQuotaIsOneSetting: each quota of Quotas is one row of
// QuotaSettings, set by its own environment variable.
func TestEveryQuotaIsOneSetting(t *testing.T) {
	if n := reflect.TypeFor[Quotas]().NumField(); len(QuotaSettings) != n {
		t.Fatalf("%d quota settings for the %d quotas of Quotas", len(QuotaSettings), n)
	}
	for i, q := range QuotaSettings {
		t.Setenv(QuotaEnv(q.Name), strconv.Itoa(1000+i))
	}
	c := Default()
	if err := c.Load(); err != nil {
		t.Fatal(err)
	}
	seen, defaults := map[int]string{}, defaultQuotas()
	for i, q := range QuotaSettings {
		got := *q.Of(&c.Quotas)
		if got != 1000+i {
			t.Errorf("%s=%d set the quota %s to %d", QuotaEnv(q.Name), 1000+i, q.Name, got)
		}
		if other, dup := seen[got]; dup {
			t.Errorf("quotas %s and %s are one field", other, q.Name)
		}
		seen[got] = q.Name
		if d := *q.Of(&defaults); d != q.Default {
			t.Errorf("quota %s: default %d, want %d", q.Name, d, q.Default)
		}
	}
}
