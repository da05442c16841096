package api

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/entrycheck/entrycheck/internal/config"
)

// Server timeouts: long enough for a trip evaluation on a slow link, short
// enough that slow clients cannot hold connections. What idle keep-alive
// connections cost is bounded by the connection cap (connLimit), not by
// IdleTimeout, which stays above the upstream idle timeouts of the usual
// proxies and load balancers (60 s for nginx's upstream keepalive_timeout
// and AWS ALB): the proxy closes first, and never sends a request on a
// connection this server is closing.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 15 * time.Second
	WriteTimeout      = 30 * time.Second
	IdleTimeout       = 90 * time.Second
	MaxHeaderBytes    = 16 << 10
)

// HTTPServer wraps h in an http.Server with the service's timeouts and
// limits, keeping at most cfg.MaxConns connections open, cfg.MaxConnsPerAddr
// of them from one address outside cfg.TrustedProxies (see connLimit). It
// serves a Listener, which lets it refuse requests framed two ways.
func HTTPServer(addr string, h http.Handler, log *slog.Logger, cfg config.Config) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           refuseAmbiguousFraming(drainDeadline(h)),
		ConnContext:       framingContext,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
		ConnState:         newConnLimit(cfg.MaxConns, cfg.MaxConnsPerAddr, cfg.TrustedProxies, log).track,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
