// Package quota counts the free tier: the daily buckets a free check, a
// client registration and a token request consume, keyed by hashes of the
// caller's address and network (never the address), the 429 answer that
// names the exhausted bucket, and the day's counters.
//
// It depends on the domain, the store, the configuration and the request
// and response packages; the protocol packages of the API import it.
package quota

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/api/request"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/store"
)

// Quota scopes, named in the scope field of a 429 answer.
const (
	ScopeIP      = "ip_daily"
	ScopeNetwork = "network_daily"
	ScopeClient  = "client_daily"
	ScopeGlobal  = "global_daily"
	// ScopeNetworkClients counts the checks of registered clients by the
	// network they call from, whichever clients they are.
	ScopeNetworkClients       = "network_clients_daily"
	ScopeRegistrations        = "registrations_ip_daily"
	ScopeRegistrationsNetwork = "registrations_network_daily"
	ScopeRegistrationsGlobal  = "registrations_global_daily"
	ScopeTokens               = "tokens_client_daily"
	// ScopeUnknownClient counts, all together, the anonymous checks of
	// clients whose trusted proxy does not give their address (see
	// request.ClientIP).
	ScopeUnknownClient = "unknown_client_daily"
)

// GlobalKey keys the buckets shared by every caller.
const GlobalKey = "all"

// unknownClient keys the buckets of the clients a trusted proxy does not
// name: no address reads like it, and it is the same every day and
// instance, so it needs no hashing.
const unknownClient = "unknown"

// CounterPaidCalls is the day's counter of settled paid calls.
const CounterPaidCalls = "paid_calls"

// Principal is who a free check counts against: an address or a client.
type Principal struct {
	ClientID string // empty for anonymous callers
}

// Day is the quota day (UTC) of t and the instant its buckets reset.
func Day(t time.Time) (string, time.Time) {
	t = t.UTC()
	y, m, d := t.Date()
	return t.Format(time.DateOnly), time.Date(y, m, d+1, 0, 0, 0, 0, time.UTC)
}

// Store is what the ledger needs of the database: atomic, durable counts
// per bucket and the day's counters.
type Store interface {
	Consume(ctx context.Context, day string, buckets []store.Bucket) (store.Consumption, error)
	QuotaUsed(ctx context.Context, day, scope, key string) (int, error)
	Counters(ctx context.Context, day string) (map[string]int64, error)
}

// Ledger counts callers against the daily quotas.
type Ledger struct {
	Store  Store
	Limits config.Quotas
	// Trusted are the proxies whose forwarding headers name the client.
	Trusted []netip.Prefix
	Hasher  *Hasher
	Clock   entrycheck.Clock
	// FreeChecks counts the free checks served, Rejections the refusals
	// by exhausted scope.
	FreeChecks prometheus.Counter
	Rejections *prometheus.CounterVec
}

// CallerKeys are the bucket keys of the caller's address and network
// (IPv4 /24, IPv6 /56) on day. known is false for a client a trusted
// proxy does not name: both keys are then unknownClient, one bucket for
// all such clients.
func (l *Ledger) CallerKeys(ctx context.Context, r *http.Request, day string) (ip, network string, known bool, err error) {
	addr, known := request.ClientIP(r, l.Trusted)
	if !known {
		return unknownClient, unknownClient, false, nil
	}
	if ip, err = l.Hasher.Hash(ctx, day, "ip", addr.String()); err != nil {
		return "", "", true, err
	}
	network, err = l.Hasher.Hash(ctx, day, "net", request.NetworkOf(addr).String())
	return ip, network, true, err
}

// Take counts one use in every bucket, atomically and durably, unless one
// of them is exhausted; a refusal is counted by its scope.
func (l *Ledger) Take(ctx context.Context, day string, buckets []store.Bucket) (store.Consumption, error) {
	c, err := l.Store.Consume(ctx, day, buckets)
	if err == nil && c.Exhausted >= 0 {
		l.Rejections.WithLabelValues(buckets[c.Exhausted].Scope).Inc()
	}
	return c, err
}

// Use is the outcome of counting one free check.
type Use struct {
	// Own is the caller's own bucket (the client's, or the address's) and
	// Used its count after this check.
	Own   store.Bucket
	Used  int
	Reset time.Time
	// Exhausted is the bucket that refused the check, nil when it was served.
	Exhausted *store.Bucket
}

// ConsumeFree counts one free check of the caller of r (principal p, or
// the client address for anonymous callers) evaluated at t, in every bucket
// it consumes, atomically and durably. The site, /free/check and the MCP
// tool share the buckets.
func (l *Ledger) ConsumeFree(ctx context.Context, r *http.Request, p Principal, t time.Time) (Use, error) {
	dayKey, reset := Day(t)
	buckets, err := l.Buckets(ctx, r, config.CountsChecks, p, dayKey)
	if err != nil {
		return Use{}, err
	}
	c, err := l.Take(ctx, dayKey, buckets)
	if err != nil {
		return Use{}, err
	}
	u := Use{Own: buckets[0], Used: c.Used[0], Reset: reset}
	if c.Exhausted >= 0 {
		// Whichever bucket ran out, the caller has no check left today.
		u.Used = buckets[0].Limit
		u.Exhausted = &buckets[c.Exhausted]
		return u, nil
	}
	l.FreeChecks.Inc()
	return u, nil
}

// PeekFree is what ConsumeFree would find now, counting nothing: the
// caller's own bucket and its use so far, or the bucket that would refuse
// the check. The counts are the durable ones, which every answered check
// has reached.
func (l *Ledger) PeekFree(ctx context.Context, r *http.Request, p Principal, t time.Time) (Use, error) {
	dayKey, reset := Day(t)
	buckets, err := l.Buckets(ctx, r, config.CountsChecks, p, dayKey)
	if err != nil {
		return Use{}, err
	}
	u := Use{Own: buckets[0], Reset: reset}
	for i, b := range buckets {
		used, err := l.Store.QuotaUsed(ctx, dayKey, b.Scope, b.Key)
		if err != nil {
			return Use{}, fmt.Errorf("reading the %s quota: %w", b.Scope, err)
		}
		if i == 0 {
			u.Used = used
		}
		if used >= b.Limit {
			u.Used = buckets[0].Limit
			u.Exhausted = &buckets[i]
			break
		}
	}
	return u, nil
}

// Today are the day's counters: the free checks served worldwide and the
// paid calls settled.
type Today struct {
	Date       string
	Reset      time.Time
	FreeChecks int
	PaidCalls  int64
}

// Today reads the counters of the current day.
func (l *Ledger) Today(ctx context.Context) (Today, error) {
	dayKey, reset := Day(l.Clock.Now())
	free, err := l.Store.QuotaUsed(ctx, dayKey, ScopeGlobal, GlobalKey)
	if err != nil {
		return Today{}, err
	}
	counters, err := l.Store.Counters(ctx, dayKey)
	if err != nil {
		return Today{}, err
	}
	return Today{Date: dayKey, Reset: reset, FreeChecks: free, PaidCalls: counters[CounterPaidCalls]}, nil
}
