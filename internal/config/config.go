// Package config holds the service's settings: one documented option per
// setting, its default, and the environment variable that overrides it.
// Flags override the environment, which overrides the defaults.
package config

import (
	"flag"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Config is the whole configuration of the binary.
type Config struct {
	// MatrixDir is the matrix snapshot directory (--data, ENTRYCHECK_DATA).
	MatrixDir string
	// DataLock is the lock file pinning the snapshots that may load
	// (--data-lock, ENTRYCHECK_DATA_LOCK). Empty: the one embedded in the
	// binary, so that a snapshot pinned elsewhere loads without a rebuild.
	DataLock string
	// PreviousMatrixDir is the snapshot served before MatrixDir; build
	// records the rule changes between the two in the event log
	// (--previous-data, ENTRYCHECK_PREVIOUS_DATA; empty: none).
	PreviousMatrixDir string
	// GeoDir holds the world map's country shapes, world-atlas 2.0.2
	// (--geo, ENTRYCHECK_GEO).
	GeoDir string
	// Addr is the listen address of serve (--addr, ENTRYCHECK_ADDR).
	Addr string
	// MaxConns is how many connections serve keeps open (--max-conns,
	// ENTRYCHECK_MAX_CONNS, default 1000). At the cap a new connection
	// closes the one idle the longest, and waits only when all are busy. An
	// idle keep-alive connection costs about 25 KB, so the default bounds
	// them to some 25 MB, while 1000 connections busy at once are far more
	// than two cores answer without queueing.
	MaxConns int
	// MaxConnsPerAddr is how many of those connections one peer address
	// may hold (--max-conns-per-addr, ENTRYCHECK_MAX_CONNS_PER_ADDR,
	// default 64); the networks of TrustedProxies are exempt, since every
	// client behind a proxy shares its address. At its cap a new
	// connection from the address closes the address's own connection
	// idle the longest, or is closed at once when all of them are busy.
	MaxConnsPerAddr int
	// MaxInFlightPerAddr is how many requests of one client address are
	// served at once (--max-in-flight-per-addr,
	// ENTRYCHECK_MAX_IN_FLIGHT_PER_ADDR, default 32); the client address
	// is read as the quotas read it, through TrustedProxies. Past it a
	// request gets 429 with Retry-After.
	MaxInFlightPerAddr int
	// Database is a SQLite file path or a postgres:// URL (--db, DATABASE_URL).
	Database string
	// DBTimeout bounds the database work of one request (--db-timeout,
	// ENTRYCHECK_DB_TIMEOUT): past it the request is answered 503 with
	// nothing counted, rather than hang while the database is stuck.
	DBTimeout time.Duration
	// PublicDir is the generated static tree that serve serves (--public, ENTRYCHECK_PUBLIC).
	PublicDir string
	// Languages lists the codes of the languages the build renders pages
	// in, comma-separated (--languages, ENTRYCHECK_LANGUAGES); empty means
	// every language the service speaks. A subset (en,es) builds faster,
	// for development and tests.
	Languages string
	// BuildMemoryMiB is the build's soft memory limit in MiB (--memory,
	// ENTRYCHECK_BUILD_MEMORY; 0 for none): past it the build collects its
	// garbage more often rather than grow. Go's own GOMEMLIMIT, when set,
	// wins over it.
	BuildMemoryMiB int
	// BaseURL is the public address of the service, used in links, discovery
	// documents and WWW-Authenticate (--base-url, ENTRYCHECK_BASE_URL).
	BaseURL string
	// TrustedProxies lists the networks whose X-Forwarded-For and Forwarded
	// headers are believed (--trusted-proxies, ENTRYCHECK_TRUSTED_PROXIES,
	// comma-separated CIDRs). Empty: the socket address is the client.
	TrustedProxies []netip.Prefix
	// IPHashKey keys the hashes under which client addresses are counted
	// (ENTRYCHECK_IP_HASH_KEY, at least 32 characters). When empty, serve
	// keeps a random key in IPHashKeyFile. Instances sharing a database must
	// share the key.
	IPHashKey     string
	IPHashKeyFile string
	// Quotas are the daily free-tier caps.
	Quotas Quotas
	// Prices are what the paid endpoints cost.
	Prices Prices
	// PayTo is the address paid endpoints ask payment to (ENTRYCHECK_PAY_TO).
	// Empty: paid endpoints answer 503 payments_not_configured.
	PayTo string
	// Facilitator settles payments (--facilitator, ENTRYCHECK_FACILITATOR):
	// empty answers every paid request with the x402 challenge only;
	// FacilitatorLocal verifies payments and records their nonces without
	// any chain (development: transaction ids start with "local:", no funds
	// move); an https:// URL is a remote x402 facilitator (/verify, /settle).
	Facilitator string
	// AP2Key is the path of the PEM EC P-256 private key that signs the
	// AP2 Checkout JWTs and receipts (--ap2-key, ENTRYCHECK_AP2_KEY). Empty:
	// serve makes a key for the run, and what it signed no longer verifies
	// after a restart.
	AP2Key string
	// AP2TrustedKeys is the path of a JWKS file of the keys trusted to sign
	// AP2 mandates: user keys and agent providers' keys
	// (--ap2-trusted-keys, ENTRYCHECK_AP2_TRUSTED_KEYS). Empty: no key is
	// trusted and every mandate is refused as untrusted_signer.
	AP2TrustedKeys string
	// Verify configures the daily re-reading of cited sources.
	Verify Verify

	// envErr is a malformed number in the environment, read by Default and
	// reported by Load.
	envErr error
}

// Verify configures the verification of cited sources (entrycheck verify,
// and serve's daily run).
type Verify struct {
	// At is the UTC time of day serve runs the verification, "HH:MM"
	// (--verify-at, ENTRYCHECK_VERIFY_AT, default 03:00); "off" disables it.
	At string
	// Jitter delays each daily run by a random part of it, so that
	// services started alike do not read the same pages at the same second
	// (ENTRYCHECK_VERIFY_JITTER, default 30m).
	Jitter time.Duration
	// Timeout bounds a whole run (--verify-timeout, ENTRYCHECK_VERIFY_TIMEOUT,
	// default 20m): pages not read by then are unreachable.
	Timeout time.Duration
	// Concurrency is how many hosts are read at once (ENTRYCHECK_VERIFY_CONCURRENCY, default 8).
	Concurrency int
	// HostInterval is the least time between two requests to one host
	// (ENTRYCHECK_VERIFY_HOST_INTERVAL, default 2s).
	HostInterval time.Duration
	// RequestTimeout bounds one request (ENTRYCHECK_VERIFY_REQUEST_TIMEOUT, default 20s).
	RequestTimeout time.Duration
	// Retries is the number of retries of a request that failed for a
	// passing reason (network, timeout, 429, 5xx) (ENTRYCHECK_VERIFY_RETRIES, default 2).
	Retries int
}

// The data is read from beside the repository, never from inside it: the
// current matrix snapshot (--data) and the world-atlas files (--geo).
const (
	DefaultMatrixDir = "../shared/dataset/passport-index/2026-02-17"
	DefaultGeoDir    = "../shared/geo/world-atlas-2.0.2"
)

// DefaultMaxConns is the default connection cap of serve (see Config.MaxConns).
const DefaultMaxConns = 1000

// Default per-address bounds of serve. A browser opens at most 6
// connections to a host, so 64 leaves room for ten browsers behind one
// office NAT, or an agent calling in parallel, while 16 addresses cannot
// fill the connection cap. A request takes milliseconds on two cores, so
// 32 at once is far more than an honest client keeps waiting, and a
// client's slow uploads or heavy calls cannot take more than 32 workers.
const (
	DefaultMaxConnsPerAddr    = 64
	DefaultMaxInFlightPerAddr = 32
)

// VerifyOff disables serve's daily verification.
const VerifyOff = "off"

// UserAgent is how the verification names itself to the sites it reads:
// the service and the page that explains what it does.
func (c Config) UserAgent() string {
	return "entrycheck-verifier/1 (+" + c.BaseURL + "/transparency/)"
}

// VerifyClock returns the daily run's time as an offset from midnight UTC;
// ok is false when the daily run is off.
func (v Verify) VerifyClock() (offset time.Duration, ok bool, err error) {
	if v.At == VerifyOff {
		return 0, false, nil
	}
	t, err := time.Parse("15:04", v.At)
	if err != nil {
		return 0, false, fmt.Errorf("verify-at %q: want a UTC time of day such as 03:00, or %q", v.At, VerifyOff)
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute, true, nil
}

// FacilitatorLocal is the built-in development facilitator.
const FacilitatorLocal = "local"

// CheckFacilitatorURL accepts an https URL, or http to a loopback host (tests, a local facilitator).
func CheckFacilitatorURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return fmt.Errorf("facilitator %q: want \"local\" or an https:// URL", s)
	}
	switch {
	case u.Scheme == "https":
		return nil
	case u.Scheme == "http":
		if a, err := netip.ParseAddr(u.Hostname()); (err == nil && a.IsLoopback()) || u.Hostname() == "localhost" {
			return nil
		}
	}
	return fmt.Errorf("facilitator %q: want \"local\" or an https:// URL (http only to a loopback host)", s)
}

// Prices set the prices of paid routes in US dollars, paid in USDC, by the
// name a route gives its price (discovery.Routes, which holds the default
// prices of spec section 4): decimal amounts with at most 6 decimals, each
// from ENTRYCHECK_PRICE_<NAME> (ENTRYCHECK_PRICE_CHECK=0.05). A route not
// named here costs its default.
type Prices map[string]string

// pricePrefix starts the environment variables that set prices.
const pricePrefix = "ENTRYCHECK_PRICE_"

// PriceEnv is the environment variable that sets the price named name.
func PriceEnv(name string) string { return pricePrefix + strings.ToUpper(name) }

// pricesFromEnv reads every ENTRYCHECK_PRICE_<NAME> of the environment.
func pricesFromEnv() Prices {
	p := Prices{}
	for _, kv := range os.Environ() {
		name, v, _ := strings.Cut(kv, "=")
		if rest, ok := strings.CutPrefix(name, pricePrefix); ok && rest != "" && v != "" {
			p[strings.ToLower(rest)] = v
		}
	}
	return p
}

// Quotas are the daily caps of the free tier (spec 5 and 8). All reset at
// midnight UTC. Each is a row of QuotaSettings, which names it, gives its
// default and says what it caps.
type Quotas struct {
	Anonymous            int
	Client               int
	Registrations        int
	Network              int
	Global               int
	NetworkClients       int
	RegistrationsNetwork int
	RegistrationsGlobal  int
	Tokens               int
}

// QuotaSetting is one daily cap: Name is its name in the environment
// (ENTRYCHECK_QUOTA_<NAME>) and in the texts that state it
// ({quota_<name>}), Default its value unless configured, Of its field, and
// Counts the calls it counts (a route's quota scope, discovery.Routes).
type QuotaSetting struct {
	Name    string
	Default int
	Of      func(*Quotas) *int
	Counts  QuotaScope
}

// QuotaScope names the calls a quota counts: the routes of one scope share
// its quotas.
type QuotaScope string

// The quota scopes.
const (
	CountsChecks        QuotaScope = "checks"
	CountsRegistrations QuotaScope = "registrations"
	CountsTokens        QuotaScope = "tokens"
)

// QuotaSettings are the free tier's caps: the configuration reads them,
// and every text that states a quota is filled from them.
var QuotaSettings = []QuotaSetting{
	// Anonymous checks per client IP address.
	{Name: "anonymous", Default: 5, Of: func(q *Quotas) *int { return &q.Anonymous }, Counts: CountsChecks},
	// Checks per registered OAuth client.
	{Name: "client", Default: 20, Of: func(q *Quotas) *int { return &q.Client }, Counts: CountsChecks},
	// Client registrations per IP address.
	{Name: "registrations", Default: 3, Of: func(q *Quotas) *int { return &q.Registrations }, Counts: CountsRegistrations},
	// Anonymous checks per IPv4 /24 or IPv6 /56: ten addresses' worth, so
	// that one host with many addresses cannot multiply the per-IP quota.
	{Name: "network", Default: 50, Of: func(q *Quotas) *int { return &q.Network }, Counts: CountsChecks},
	// Free checks worldwide, shared by the site, the free API and every
	// embedded widget.
	{Name: "global", Default: 50000, Of: func(q *Quotas) *int { return &q.Global }, Counts: CountsChecks},
	// Registered clients' checks per IPv4 /24 or IPv6 /56, whichever
	// clients they are: five clients' worth, so that registering many
	// clients cannot multiply a network's share of the worldwide ceiling.
	{Name: "network_clients", Default: 100, Of: func(q *Quotas) *int { return &q.NetworkClients }, Counts: CountsChecks},
	// Client registrations per IPv4 /24 or IPv6 /56.
	{Name: "registrations_network", Default: 6, Of: func(q *Quotas) *int { return &q.RegistrationsNetwork }, Counts: CountsRegistrations},
	// Client registrations worldwide.
	{Name: "registrations_global", Default: 1000, Of: func(q *Quotas) *int { return &q.RegistrationsGlobal }, Counts: CountsRegistrations},
	// Access tokens one client may obtain (a token lasts an hour).
	{Name: "tokens", Default: 50, Of: func(q *Quotas) *int { return &q.Tokens }, Counts: CountsTokens},
}

// QuotaEnv is the environment variable of the quota named name.
func QuotaEnv(name string) string { return "ENTRYCHECK_QUOTA_" + strings.ToUpper(name) }

// defaultQuotas are the quotas of QuotaSettings at their defaults.
func defaultQuotas() Quotas {
	var q Quotas
	for _, s := range QuotaSettings {
		*s.Of(&q) = s.Default
	}
	return q
}

// Default returns the defaults with the environment applied.
func Default() Config {
	c := Config{
		MatrixDir:          DefaultMatrixDir,
		GeoDir:             DefaultGeoDir,
		Addr:               "127.0.0.1:8080",
		MaxConns:           DefaultMaxConns,
		MaxConnsPerAddr:    DefaultMaxConnsPerAddr,
		MaxInFlightPerAddr: DefaultMaxInFlightPerAddr,
		// The build holds about 60 MiB of live data in every language
		// (the manifest and the summaries); at 100 MiB its peak RSS stays
		// under 150 MB for a few percent more time.
		BuildMemoryMiB: 100,
		Database:       "var/entrycheck.db",
		DBTimeout:      2 * time.Second,
		PublicDir:      "public",
		BaseURL:        "http://127.0.0.1:8080",
		IPHashKeyFile:  "var/ip-hash.key",
		Quotas:         defaultQuotas(),
		Prices:         pricesFromEnv(),
		Verify: Verify{At: "03:00", Jitter: 30 * time.Minute, Timeout: 20 * time.Minute, Concurrency: 8,
			HostInterval: 2 * time.Second, RequestTimeout: 20 * time.Second, Retries: 2},
	}
	env := func(name string, dst *string) {
		if v := os.Getenv(name); v != "" {
			*dst = v
		}
	}
	env("ENTRYCHECK_DATA", &c.MatrixDir)
	env("ENTRYCHECK_DATA_LOCK", &c.DataLock)
	env("ENTRYCHECK_PREVIOUS_DATA", &c.PreviousMatrixDir)
	env("ENTRYCHECK_GEO", &c.GeoDir)
	env("ENTRYCHECK_ADDR", &c.Addr)
	env("ENTRYCHECK_DB", &c.Database)
	env("DATABASE_URL", &c.Database)
	env("ENTRYCHECK_PUBLIC", &c.PublicDir)
	env("ENTRYCHECK_LANGUAGES", &c.Languages)
	env("ENTRYCHECK_BASE_URL", &c.BaseURL)
	env("ENTRYCHECK_IP_HASH_KEY", &c.IPHashKey)
	env("ENTRYCHECK_PAY_TO", &c.PayTo)
	env("ENTRYCHECK_FACILITATOR", &c.Facilitator)
	env("ENTRYCHECK_AP2_KEY", &c.AP2Key)
	env("ENTRYCHECK_AP2_TRUSTED_KEYS", &c.AP2TrustedKeys)
	env("ENTRYCHECK_VERIFY_AT", &c.Verify.At)
	c.envErr = c.numbersFromEnv()
	return c
}

// RegisterData adds the --data and --data-lock flags to fs.
func (c *Config) RegisterData(fs *flag.FlagSet) {
	fs.StringVar(&c.MatrixDir, "data", c.MatrixDir, "matrix snapshot `directory` (env ENTRYCHECK_DATA)")
	fs.StringVar(&c.DataLock, "data-lock", c.DataLock, "lock `file` pinning the matrix snapshots that may load (env ENTRYCHECK_DATA_LOCK; default: the one built in)")
}

// RegisterAnswer adds the flags of the commands that answer (check,
// passport, trip): the data and the event log, whose verification events
// date the records.
func (c *Config) RegisterAnswer(fs *flag.FlagSet) {
	c.RegisterData(fs)
	fs.StringVar(&c.Database, "db", c.Database, "SQLite file `path` (or file: URI) or postgres:// URL holding the event log, read for the verification state (env DATABASE_URL)")
}

// RegisterBuild adds the flags of the build command to fs.
func (c *Config) RegisterBuild(fs *flag.FlagSet) {
	c.RegisterData(fs)
	fs.StringVar(&c.PreviousMatrixDir, "previous-data", c.PreviousMatrixDir, "previous matrix snapshot `directory`, whose rule changes are recorded (env ENTRYCHECK_PREVIOUS_DATA)")
	fs.StringVar(&c.GeoDir, "geo", c.GeoDir, "`directory` of the world map's country shapes, world-atlas 2.0.2 (env ENTRYCHECK_GEO)")
	fs.StringVar(&c.Database, "db", c.Database, "SQLite file `path` (or file: URI) or postgres:// URL holding the event log (env DATABASE_URL)")
	fs.StringVar(&c.PublicDir, "public", c.PublicDir, "output `directory` (env ENTRYCHECK_PUBLIC)")
	fs.StringVar(&c.BaseURL, "base-url", c.BaseURL, "public base `URL` of the site (env ENTRYCHECK_BASE_URL)")
	fs.StringVar(&c.Languages, "languages", c.Languages, "comma-separated `codes` of the languages to render pages in, English always among them (env ENTRYCHECK_LANGUAGES; default: all)")
	fs.IntVar(&c.BuildMemoryMiB, "memory", c.BuildMemoryMiB, "soft memory limit of the build in `MiB`, 0 for none; GOMEMLIMIT wins (env ENTRYCHECK_BUILD_MEMORY)")
}

// RegisterServe adds the flags of the serve command to fs.
func (c *Config) RegisterServe(fs *flag.FlagSet) {
	c.RegisterData(fs)
	fs.StringVar(&c.Addr, "addr", c.Addr, "listen `address` (env ENTRYCHECK_ADDR)")
	fs.IntVar(&c.MaxConns, "max-conns", c.MaxConns, "open connections kept at most; at the cap a new one closes the one idle the longest (env ENTRYCHECK_MAX_CONNS)")
	fs.IntVar(&c.MaxConnsPerAddr, "max-conns-per-addr", c.MaxConnsPerAddr, "open connections kept at most from one peer address, trusted proxies exempt (env ENTRYCHECK_MAX_CONNS_PER_ADDR)")
	fs.IntVar(&c.MaxInFlightPerAddr, "max-in-flight-per-addr", c.MaxInFlightPerAddr, "requests of one client address served at once; past it 429 (env ENTRYCHECK_MAX_IN_FLIGHT_PER_ADDR)")
	fs.StringVar(&c.Database, "db", c.Database, "SQLite file `path` (or file: URI) or postgres:// URL (env DATABASE_URL)")
	fs.DurationVar(&c.DBTimeout, "db-timeout", c.DBTimeout, "bound of one request's database work, past which it is answered 503 (env ENTRYCHECK_DB_TIMEOUT)")
	fs.StringVar(&c.PublicDir, "public", c.PublicDir, "generated static `directory` to serve (env ENTRYCHECK_PUBLIC)")
	fs.StringVar(&c.BaseURL, "base-url", c.BaseURL, "public base `URL` of the service (env ENTRYCHECK_BASE_URL)")
	fs.StringVar(&c.PayTo, "pay-to", c.PayTo, "`address` that receives payments on the paid endpoints (env ENTRYCHECK_PAY_TO)")
	fs.StringVar(&c.Facilitator, "facilitator", c.Facilitator, "who settles payments: empty (the 402 challenge only), \"local\" (development, nothing on-chain) or an https:// facilitator `URL` (env ENTRYCHECK_FACILITATOR)")
	fs.StringVar(&c.AP2Key, "ap2-key", c.AP2Key, "PEM `file` of the EC P-256 private key that signs AP2 checkouts and receipts; empty: a key for this run only (env ENTRYCHECK_AP2_KEY)")
	fs.StringVar(&c.AP2TrustedKeys, "ap2-trusted-keys", c.AP2TrustedKeys, "JWKS `file` of the keys trusted to sign AP2 mandates; empty: every mandate is refused (env ENTRYCHECK_AP2_TRUSTED_KEYS)")
	fs.StringVar(&c.Verify.At, "verify-at", c.Verify.At, "UTC `time` of the daily verification of cited sources, HH:MM, or \"off\" (env ENTRYCHECK_VERIFY_AT)")
	fs.Func("trusted-proxies", "comma-separated `CIDRs` whose forwarding headers are trusted (env ENTRYCHECK_TRUSTED_PROXIES)", func(s string) error {
		p, err := ParsePrefixes(s)
		c.TrustedProxies = p
		return err
	})
}

// RegisterVerify adds the flags of the verify command to fs.
func (c *Config) RegisterVerify(fs *flag.FlagSet) {
	c.RegisterData(fs)
	fs.StringVar(&c.Database, "db", c.Database, "SQLite file `path` (or file: URI) or postgres:// URL holding the event log (env DATABASE_URL)")
	fs.StringVar(&c.BaseURL, "base-url", c.BaseURL, "public base `URL` of the service, named in the User-Agent (env ENTRYCHECK_BASE_URL)")
	fs.DurationVar(&c.Verify.Timeout, "verify-timeout", c.Verify.Timeout, "bound of the whole run (env ENTRYCHECK_VERIFY_TIMEOUT)")
}

// Load finishes the configuration: list and number settings from the
// environment, then validation.
func (c *Config) Load() error {
	if v := os.Getenv("ENTRYCHECK_TRUSTED_PROXIES"); v != "" && c.TrustedProxies == nil {
		p, err := ParsePrefixes(v)
		if err != nil {
			return fmt.Errorf("ENTRYCHECK_TRUSTED_PROXIES: %w", err)
		}
		c.TrustedProxies = p
	}
	if c.envErr != nil {
		return c.envErr
	}
	if c.MaxConns < 1 {
		return fmt.Errorf("the connection cap must be at least 1 (--max-conns, ENTRYCHECK_MAX_CONNS)")
	}
	if c.MaxConnsPerAddr < 1 {
		return fmt.Errorf("the connection cap per address must be at least 1 (--max-conns-per-addr, ENTRYCHECK_MAX_CONNS_PER_ADDR)")
	}
	if c.MaxInFlightPerAddr < 1 {
		return fmt.Errorf("the in-flight requests per address must be at least 1 (--max-in-flight-per-addr, ENTRYCHECK_MAX_IN_FLIGHT_PER_ADDR)")
	}
	if c.DBTimeout <= 0 {
		return fmt.Errorf("the database timeout must be positive (--db-timeout, ENTRYCHECK_DB_TIMEOUT)")
	}
	if c.Verify.Timeout <= 0 {
		return fmt.Errorf("the verification timeout must be positive (--verify-timeout)")
	}
	if _, _, err := c.Verify.VerifyClock(); err != nil {
		return err
	}
	c.BaseURL = strings.TrimRight(c.BaseURL, "/")
	if !strings.HasPrefix(c.BaseURL, "http://") && !strings.HasPrefix(c.BaseURL, "https://") {
		return fmt.Errorf("base URL %q must start with http:// or https://", c.BaseURL)
	}
	if c.Facilitator != "" && c.Facilitator != FacilitatorLocal {
		if err := CheckFacilitatorURL(c.Facilitator); err != nil {
			return err
		}
	}
	if c.Facilitator != "" && c.PayTo == "" {
		return fmt.Errorf("a facilitator needs the payment address (--pay-to, ENTRYCHECK_PAY_TO)")
	}
	for name, usd := range c.Prices {
		if !usdAmount.MatchString(usd) || strings.Trim(usd, "0.") == "" {
			return fmt.Errorf("%s=%q: want a positive amount of US dollars with at most 6 decimals, such as 0.03", PriceEnv(name), usd)
		}
	}
	if c.IPHashKey != "" && len(c.IPHashKey) < 32 {
		return fmt.Errorf("ENTRYCHECK_IP_HASH_KEY must be at least 32 characters")
	}
	return nil
}

// usdAmount is a price as USDC can pay it: dollars with at most 6 decimals.
var usdAmount = regexp.MustCompile(`^[0-9]+(\.[0-9]{1,6})?$`)

// numbersFromEnv reads the number and duration settings of the
// environment. Default calls it before any flag is parsed, so that a flag
// given wins over the environment; its error waits for Load.
func (c *Config) numbersFromEnv() error {
	for name, dst := range map[string]*time.Duration{
		"ENTRYCHECK_DB_TIMEOUT":             &c.DBTimeout,
		"ENTRYCHECK_VERIFY_JITTER":          &c.Verify.Jitter,
		"ENTRYCHECK_VERIFY_TIMEOUT":         &c.Verify.Timeout,
		"ENTRYCHECK_VERIFY_HOST_INTERVAL":   &c.Verify.HostInterval,
		"ENTRYCHECK_VERIFY_REQUEST_TIMEOUT": &c.Verify.RequestTimeout,
	} {
		if v := os.Getenv(name); v != "" {
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return fmt.Errorf("%s=%q: want a duration such as 30s or 20m", name, v)
			}
			*dst = d
		}
	}
	quotas := map[string]*int{}
	for _, q := range QuotaSettings {
		quotas[QuotaEnv(q.Name)] = q.Of(&c.Quotas)
	}
	if err := intsFromEnv(quotas, "a whole number per day"); err != nil {
		return err
	}
	return intsFromEnv(map[string]*int{
		"ENTRYCHECK_MAX_CONNS":              &c.MaxConns,
		"ENTRYCHECK_MAX_CONNS_PER_ADDR":     &c.MaxConnsPerAddr,
		"ENTRYCHECK_MAX_IN_FLIGHT_PER_ADDR": &c.MaxInFlightPerAddr,
		"ENTRYCHECK_BUILD_MEMORY":           &c.BuildMemoryMiB,
		"ENTRYCHECK_VERIFY_CONCURRENCY":     &c.Verify.Concurrency,
		"ENTRYCHECK_VERIFY_RETRIES":         &c.Verify.Retries,
	}, "a whole number")
}

// intsFromEnv sets each variable given in the environment; want says what
// a value must be, for the error.
func intsFromEnv(vars map[string]*int, want string) error {
	for name, dst := range vars {
		if v := os.Getenv(name); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return fmt.Errorf("%s=%q: want %s", name, v, want)
			}
			*dst = n
		}
	}
	return nil
}

// ParsePrefixes reads comma-separated CIDRs; a bare address means that one address.
func ParsePrefixes(s string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if !strings.Contains(part, "/") {
			a, err := netip.ParseAddr(part)
			if err != nil {
				return nil, fmt.Errorf("%q is not an IP address or CIDR", part)
			}
			out = append(out, netip.PrefixFrom(a, a.BitLen()))
			continue
		}
		p, err := netip.ParsePrefix(part)
		if err != nil {
			return nil, fmt.Errorf("%q is not a CIDR", part)
		}
		out = append(out, p.Masked())
	}
	return out, nil
}
