package quota

import (
	"context"
	"net/http"
	"strings"

	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/store"
)

// A daily cap as the ledger counts it: the quota of config.QuotaSettings
// that sets its limit (Quota names its row, whose Counts says which calls
// it counts), the scope a refusal names, whose bucket a call goes in, and
// what a refusal says. A new quota is its row in config.QuotaSettings and
// its row here.
type dailyCap struct {
	Quota string
	Scope string
	// What says what the cap counts, in the API description.
	What string
	// Key is the bucket of the caller the call is counted in; "" when the
	// cap does not count this caller's calls.
	Key func(caller) string
	// Message says what is used up, and Alternatives what still works.
	Message      string
	Alternatives []string
}

// caps are the daily caps, in the order a call takes its buckets: the
// caller's own first (its limit goes in the X-RateLimit headers) and the
// shared ceilings last, so that the hottest row is locked for the
// shortest time.
var caps = []dailyCap{
	{Quota: "client", Scope: ScopeClient, Key: ownClient,
		What:         "checks per registered client",
		Message:      "the daily free checks of this registered client are used up",
		Alternatives: []string{AltPay}},
	// A registered client's checks also count against the network it
	// calls from, so that registering many clients cannot multiply what
	// one network takes from the worldwide ceiling.
	{Quota: "network_clients", Scope: ScopeNetworkClients, Key: clientsNetwork,
		What:         "checks of all registered clients calling from one IPv4 /24 or IPv6 /56, so that registering many clients cannot multiply a network's share",
		Message:      "the daily free checks of registered clients calling from this network are used up",
		Alternatives: []string{AltPay}},
	{Quota: "anonymous", Scope: ScopeIP, Key: anonymousAddress,
		What:         "anonymous checks per IP address",
		Message:      "the daily free checks of this IP address are used up",
		Alternatives: []string{altRegister, AltPay}},
	{Quota: "anonymous", Scope: ScopeUnknownClient, Key: unnamedAddress,
		What:         "anonymous checks of every client whose address a trusted proxy withholds, with Forwarded: for=unknown or an obfuscated identifier, counted together as one address",
		Message:      "the daily free checks shared by all clients whose address the proxy in front of this service withholds (Forwarded: for=unknown or an obfuscated identifier) are used up",
		Alternatives: []string{altRegister, AltPay}},
	{Quota: "network", Scope: ScopeNetwork, Key: anonymousNetwork,
		What:         "anonymous checks per IPv4 /24 or IPv6 /56",
		Message:      "the daily free checks of this network are used up",
		Alternatives: []string{altRegister, AltPay}},
	{Quota: "global", Scope: ScopeGlobal, Key: everyone,
		What:         "worldwide ceiling shared by the site, the API, the MCP server and widgets",
		Message:      "the service's worldwide daily free checks are used up",
		Alternatives: []string{AltPay}},
	{Quota: "registrations", Scope: ScopeRegistrations, Key: address,
		What:         "client registrations per IP address",
		Message:      "the daily client registrations of this IP address are used up",
		Alternatives: []string{altReuseClient}},
	{Quota: "registrations_network", Scope: ScopeRegistrationsNetwork, Key: network,
		What:         "client registrations per IPv4 /24 or IPv6 /56",
		Message:      "the daily client registrations of this network are used up",
		Alternatives: []string{altReuseClient}},
	{Quota: "registrations_global", Scope: ScopeRegistrationsGlobal, Key: everyone,
		What:         "client registrations worldwide",
		Message:      "the service's worldwide daily client registrations are used up",
		Alternatives: []string{altReuseClient, AltPay}},
	{Quota: "tokens", Scope: ScopeTokens, Key: ownClient,
		What:         "access tokens issued to one client",
		Message:      "this client's daily access tokens are used up; keep using a token until it expires (expires_in) instead of requesting one per call",
		Alternatives: []string{"reuse the access token you have until it expires", AltPay}},
}

// caller is whom a call is counted for: the keys of its address and
// network (CallerKeys), whether a trusted proxy named the address, and the
// registered client it authenticated as, if any.
type caller struct {
	ip, network string
	named       bool
	client      string
}

// The buckets of a caller.
func ownClient(c caller) string { return c.client }
func address(c caller) string   { return c.ip }
func network(c caller) string   { return c.network }
func everyone(caller) string    { return GlobalKey }

func clientsNetwork(c caller) string { return when(c.client != "", c.network) }

func anonymousAddress(c caller) string { return when(c.client == "" && c.named, c.ip) }

func unnamedAddress(c caller) string { return when(c.client == "" && !c.named, unknownClient) }

func anonymousNetwork(c caller) string { return when(c.client == "" && c.named, c.network) }

func when(ok bool, key string) string {
	if !ok {
		return ""
	}
	return key
}

// Buckets lists the buckets a call of scope by the caller of r (principal
// p) consumes on day: one for each cap that counts it.
func (l *Ledger) Buckets(ctx context.Context, r *http.Request, scope config.QuotaScope, p Principal, day string) ([]store.Bucket, error) {
	ip, network, named, err := l.CallerKeys(ctx, r, day)
	if err != nil {
		return nil, err
	}
	c := caller{ip: ip, network: network, named: named, client: p.ClientID}
	var out []store.Bucket
	for _, k := range caps {
		setting := settingOf(k.Quota)
		if setting.Counts != scope {
			continue
		}
		if key := k.Key(c); key != "" {
			out = append(out, store.Bucket{Scope: k.Scope, Key: key, Limit: *setting.Of(&l.Limits)})
		}
	}
	return out, nil
}

// settingOf is the row of config.QuotaSettings named name.
func settingOf(name string) config.QuotaSetting {
	for _, s := range config.QuotaSettings {
		if s.Name == name {
			return s
		}
	}
	panic("quota: no quota setting " + name) // the tables disagree: a programming error
}

// capOf is the cap of scope.
func capOf(scope string) dailyCap {
	for _, k := range caps {
		if k.Scope == scope {
			return k
		}
	}
	return dailyCap{Scope: scope}
}

// Scopes lists every quota scope a 429 answer may name.
func Scopes() []string {
	out := make([]string, len(caps))
	for i, k := range caps {
		out[i] = k.Scope
	}
	return out
}

// ScopeWords says what each scope counts: "ip_daily (anonymous checks per
// IP address), ...".
func ScopeWords() string {
	words := make([]string, len(caps))
	for i, k := range caps {
		words[i] = k.Scope + " (" + k.What + ")"
	}
	return strings.Join(words, ", ")
}
