package pagefetch

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"
)

// Config tunes a Fetcher. The zero value of every field but UserAgent means
// its default.
type Config struct {
	// UserAgent names the service and its contact page, e.g.
	// "entrycheck-verifier/1 (+https://example.org/transparency/)". Required.
	// Its product token (before the first "/" or space) is the name matched
	// against robots.txt groups.
	UserAgent string
	// Timeout bounds one HTTP attempt, the whole exchange including
	// redirects and the body. Default 20s.
	Timeout time.Duration
	// MaxBody caps a body in bytes; a larger one fails with ReasonTooLarge.
	// Default 2 MiB.
	MaxBody int64
	// Retries is the number of extra attempts after a retryable failure
	// (network error, timeout, 429, 5xx). Default 2; negative means none.
	Retries int
	// Backoff is the delay before the first retry, doubled for each further
	// one, with up to 10% jitter. Default 2s.
	Backoff time.Duration
	// MaxBackoff caps a retry delay, including one asked for by
	// Retry-After, and a robots.txt Crawl-delay. Default 30s.
	MaxBackoff time.Duration
	// HostInterval is the minimum gap between two requests to one origin,
	// robots.txt and retries included. Default 2s; negative means none.
	HostInterval time.Duration
	// Concurrency is how many origins are fetched at once; one origin is
	// always fetched sequentially. Default 8.
	Concurrency int
	// MaxRedirects is how many redirects one request may follow. Default 5;
	// negative means none.
	MaxRedirects int
	// Transport makes the HTTP round trips; nil means a clone of
	// http.DefaultTransport with bounded dial, TLS and header timeouts.
	Transport http.RoundTripper
}

const (
	defaultTimeout      = 20 * time.Second
	defaultMaxBody      = 2 << 20
	defaultRetries      = 2
	defaultBackoff      = 2 * time.Second
	defaultMaxBackoff   = 30 * time.Second
	defaultHostInterval = 2 * time.Second
	defaultConcurrency  = 8
	defaultMaxRedirects = 5
)

// withDefaults returns c with every unset field given its default and the
// "none" sentinels (negative values) turned into zero.
func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = defaultTimeout
	}
	if c.MaxBody <= 0 {
		c.MaxBody = defaultMaxBody
	}
	c.Retries = orNone(c.Retries, defaultRetries)
	if c.Backoff <= 0 {
		c.Backoff = defaultBackoff
	}
	if c.MaxBackoff <= 0 {
		c.MaxBackoff = defaultMaxBackoff
	}
	c.HostInterval = orNone(c.HostInterval, defaultHostInterval)
	if c.Concurrency <= 0 {
		c.Concurrency = defaultConcurrency
	}
	c.MaxRedirects = orNone(c.MaxRedirects, defaultMaxRedirects)
	return c
}

// Fetcher fetches pages politely (see the package documentation). It is
// safe for concurrent use, but concurrent FetchAll calls do not pace each
// other: run one at a time.
type Fetcher struct {
	cfg Config
	// agent is the lower-case product token of cfg.UserAgent, the name we
	// answer to in robots.txt.
	agent  string
	client *http.Client
	// ownTransport says the transport is ours, so its idle connections may
	// be closed after a run.
	ownTransport bool
}

// New returns a Fetcher for cfg. It fails when cfg.UserAgent is empty or
// could not be sent as a header.
func New(cfg Config) (*Fetcher, error) {
	cfg = cfg.withDefaults()
	cfg.UserAgent = strings.TrimSpace(cfg.UserAgent)
	if cfg.UserAgent == "" {
		return nil, errors.New("pagefetch: Config.UserAgent is required: sites must be able to tell who is fetching")
	}
	if strings.ContainsFunc(cfg.UserAgent, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return nil, fmt.Errorf("pagefetch: Config.UserAgent %q contains control characters", cfg.UserAgent)
	}
	agent := productToken(cfg.UserAgent)
	if agent == "" {
		return nil, fmt.Errorf("pagefetch: Config.UserAgent %q has no product token to match robots.txt with", cfg.UserAgent)
	}
	f := &Fetcher{cfg: cfg, agent: agent}
	transport := cfg.Transport
	if transport == nil {
		transport = defaultTransport(cfg.Timeout)
		f.ownTransport = true
	}
	f.client = &http.Client{
		Transport:     transport,
		CheckRedirect: f.checkRedirect,
		// No Timeout: each attempt carries its own context deadline, which
		// also lets the caller's cancellation through.
	}
	return f, nil
}

// productToken returns the lower-case name at the start of a User-Agent,
// "entrycheck-verifier" for "entrycheck-verifier/1 (+https://...)".
func productToken(userAgent string) string {
	token, _, _ := strings.Cut(userAgent, "/")
	if i := strings.IndexFunc(token, func(r rune) bool { return r == ' ' || r == '\t' }); i >= 0 {
		token = token[:i]
	}
	return strings.ToLower(token)
}

// defaultTransport clones http.DefaultTransport (keeping its proxy and
// HTTP/2 settings) and bounds each phase, so a silent server costs at most
// about timeout even before the attempt's context deadline cuts in.
func defaultTransport(timeout time.Duration) http.RoundTripper {
	var t *http.Transport
	if dt, ok := http.DefaultTransport.(*http.Transport); ok {
		t = dt.Clone()
	} else {
		t = &http.Transport{Proxy: http.ProxyFromEnvironment, ForceAttemptHTTP2: true}
	}
	dialer := &net.Dialer{Timeout: min(10*time.Second, timeout), KeepAlive: 30 * time.Second}
	t.DialContext = dialer.DialContext
	t.TLSHandshakeTimeout = min(10*time.Second, timeout)
	t.ResponseHeaderTimeout = timeout
	t.ExpectContinueTimeout = time.Second
	// One origin is fetched sequentially: more idle connections are waste.
	t.MaxIdleConnsPerHost = 1
	t.IdleConnTimeout = 30 * time.Second
	return t
}

// orNone is v, def when v is unset (zero), and zero ("none") when v is negative.
func orNone[T int | time.Duration](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}
