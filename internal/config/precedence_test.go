package config

import (
	"flag"
	"fmt"
	"strconv"
	"testing"
)

// TestFlagOverEnvironmentOverDefault: for every setting that has a flag,
// the flag wins over the environment, which wins over the default.
func TestFlagOverEnvironmentOverDefault(t *testing.T) {
	registrars := map[string]func(*Config, *flag.FlagSet){
		"build": (*Config).RegisterBuild, "serve": (*Config).RegisterServe, "verify": (*Config).RegisterVerify, "answer": (*Config).RegisterAnswer,
	}
	settings := []struct {
		command, flag, env, fromEnv, fromFlag string
		get                                   func(Config) string
	}{
		{"answer", "data", "ENTRYCHECK_DATA", "env-data", "flag-data", func(c Config) string { return c.MatrixDir }},
		{"answer", "data-lock", "ENTRYCHECK_DATA_LOCK", "env.lock", "flag.lock", func(c Config) string { return c.DataLock }},
		{"answer", "db", "DATABASE_URL", "env.db", "flag.db", func(c Config) string { return c.Database }},
		{"build", "previous-data", "ENTRYCHECK_PREVIOUS_DATA", "env-prev", "flag-prev", func(c Config) string { return c.PreviousMatrixDir }},
		{"build", "geo", "ENTRYCHECK_GEO", "env-geo", "flag-geo", func(c Config) string { return c.GeoDir }},
		{"build", "public", "ENTRYCHECK_PUBLIC", "env-public", "flag-public", func(c Config) string { return c.PublicDir }},
		{"build", "base-url", "ENTRYCHECK_BASE_URL", "https://env.example", "https://flag.example", func(c Config) string { return c.BaseURL }},
		{"build", "languages", "ENTRYCHECK_LANGUAGES", "en,es", "en,ar", func(c Config) string { return c.Languages }},
		{"serve", "addr", "ENTRYCHECK_ADDR", "127.0.0.1:1", "127.0.0.1:2", func(c Config) string { return c.Addr }},
		{"serve", "max-conns", "ENTRYCHECK_MAX_CONNS", "500", "700", func(c Config) string { return strconv.Itoa(c.MaxConns) }},
		{"serve", "max-conns-per-addr", "ENTRYCHECK_MAX_CONNS_PER_ADDR", "10", "20", func(c Config) string { return strconv.Itoa(c.MaxConnsPerAddr) }},
		{"serve", "max-in-flight-per-addr", "ENTRYCHECK_MAX_IN_FLIGHT_PER_ADDR", "5", "6", func(c Config) string { return strconv.Itoa(c.MaxInFlightPerAddr) }},
		{"serve", "db-timeout", "ENTRYCHECK_DB_TIMEOUT", "3s", "4s", func(c Config) string { return c.DBTimeout.String() }},
		{"serve", "pay-to", "ENTRYCHECK_PAY_TO", "0xenv", "0xflag", func(c Config) string { return c.PayTo }},
		{"serve", "facilitator", "ENTRYCHECK_FACILITATOR", "local", "https://facilitator.example", func(c Config) string { return c.Facilitator }},
		{"serve", "ap2-key", "ENTRYCHECK_AP2_KEY", "env.pem", "flag.pem", func(c Config) string { return c.AP2Key }},
		{"serve", "ap2-trusted-keys", "ENTRYCHECK_AP2_TRUSTED_KEYS", "env.jwks", "flag.jwks", func(c Config) string { return c.AP2TrustedKeys }},
		{"serve", "verify-at", "ENTRYCHECK_VERIFY_AT", "04:00", "05:00", func(c Config) string { return c.Verify.At }},
		{"serve", "trusted-proxies", "ENTRYCHECK_TRUSTED_PROXIES", "10.0.0.0/8", "192.168.0.0/16", func(c Config) string { return fmt.Sprint(c.TrustedProxies) }},
		{"verify", "verify-timeout", "ENTRYCHECK_VERIFY_TIMEOUT", "7m", "9m", func(c Config) string { return c.Verify.Timeout.String() }},
	}
	for _, s := range settings {
		t.Run(s.flag, func(t *testing.T) {
			def := Default()
			fs := flag.NewFlagSet(s.command, flag.ContinueOnError)
			registrars[s.command](&def, fs)
			if fs.Lookup(s.flag) == nil {
				t.Fatalf("%s has no --%s", s.command, s.flag)
			}
			want := s.get(def)
			t.Setenv(s.env, s.fromEnv)
			load := func(args ...string) string {
				c := Default()
				fs := flag.NewFlagSet(s.command, flag.ContinueOnError)
				registrars[s.command](&c, fs)
				if err := fs.Parse(args); err != nil {
					t.Fatal(err)
				}
				if err := c.Load(); err != nil && s.flag != "facilitator" && s.flag != "pay-to" {
					t.Fatalf("Load: %v", err)
				}
				return s.get(c)
			}
			fromEnv := load()
			fromFlag := load("--"+s.flag, s.fromFlag)
			if fromEnv == want || fromFlag == fromEnv || fromFlag == want {
				t.Errorf("default %q, with %s %q, with --%s too %q", want, s.env, fromEnv, s.flag, fromFlag)
			}
		})
	}
}
