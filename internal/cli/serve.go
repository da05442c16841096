package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/entrycheck/entrycheck/internal/api"
	"github.com/entrycheck/entrycheck/internal/api/payment"
	"github.com/entrycheck/entrycheck/internal/api/quota"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/sitetree"
	"github.com/entrycheck/entrycheck/internal/store"
)

// shutdownGrace is how long in-flight requests may finish after SIGTERM.
const shutdownGrace = 15 * time.Second

func runServe(env Env, args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serveUntil(ctx, env, args)
}

// serveUntil is the serve command, serving until ctx ends (a signal, or a
// test that is done).
func serveUntil(ctx context.Context, env Env, args []string) int {
	cfg := config.Default()
	fs := newFlags(env, "serve", "")
	cfg.RegisterServe(fs)
	if code, ok := configured(env, &cfg, fs.Parse(args)); !ok {
		return code
	}
	log := slog.New(slog.NewJSONHandler(env.Stderr, nil))
	if err := serve(ctx, env, cfg, log); err != nil {
		log.Error("serve failed", "error", err)
		return ExitFailure
	}
	return ExitOK
}

func serve(ctx context.Context, env Env, cfg config.Config, log *slog.Logger) error {
	snap, err := loadSnapshot(cfg)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, cfg.Database, store.WithTimeout(cfg.DBTimeout))
	if err != nil {
		return err
	}
	defer st.Close()
	ev, _, err := verifiedEvaluator(ctx, snap, st)
	if err != nil {
		return err
	}
	key, err := ipHashKey(cfg)
	if err != nil {
		return err
	}
	if err := agreeOnIPHashKey(ctx, st, key); err != nil {
		return err
	}
	houseCtx, stopHouse := context.WithCancel(ctx)
	waitHouse := keepHouse(houseCtx, st, env.Clock, housekeepingInterval, log)
	defer func() { stopHouse(); waitHouse() }()
	gate, err := payment.NewGate(cfg, st, env.Clock)
	if err != nil {
		return err
	}
	merchant, err := payment.NewMerchant(cfg, st, env.Clock, log)
	if err != nil {
		return err
	}
	service := api.NewServer(api.Deps{Evaluator: ev, Store: st, Config: cfg, Clock: env.Clock, Logger: log, IPHashKey: key, Payments: gate, Merchant: merchant})
	srv := api.HTTPServer(cfg.Addr, service.Handler(), log, cfg)
	// Listen before the verification is scheduled: a taken port ends the
	// command at once rather than behind the wait for a scheduled run.
	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", cfg.Addr, err)
	}
	waitVerification, err := scheduleVerification(ctx, cfg, st, snap, env, log, service.SetEvaluator)
	if err != nil {
		ln.Close()
		return err
	}
	defer waitVerification()
	log.Info("serving", "addr", ln.Addr().String(), "base_url", cfg.BaseURL, "database", st.Kind(),
		"dataset_version", ev.Snapshot().Version(), "public", cfg.PublicDir, "max_conns", cfg.MaxConns, "max_conns_per_addr", cfg.MaxConnsPerAddr, "max_in_flight_per_addr", cfg.MaxInFlightPerAddr, "facilitator", facilitatorName(cfg.Facilitator))
	warnStaleTree(log, cfg, ev.Snapshot().Version())
	fmt.Fprintln(env.Stdout, runningLine(ln.Addr().String(), cfg.BaseURL))
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(api.Listener(ln)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down", "grace", shutdownGrace.String())
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutting down: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// runningLine is the line a person who started serve waits for among the
// JSON logs: where to open the site and how to stop. The base URL is what
// people open; when the server listens elsewhere (a proxy in front, a
// --addr without its --base-url), the line names the listening address too.
func runningLine(listening, baseURL string) string {
	open := strings.TrimSuffix(baseURL, "/") + "/"
	if u, err := url.Parse(baseURL); err == nil && u.Host == listening {
		return fmt.Sprintf("entrycheck is running: open %s (Ctrl-C to stop)", open)
	}
	return fmt.Sprintf("entrycheck is running on %s for %s (Ctrl-C to stop)", listening, open)
}

// ipHashKey returns the configured key, or the one kept in the key file,
// made on first start. Instances sharing a PostgreSQL database must be given
// the same ENTRYCHECK_IP_HASH_KEY instead.
func ipHashKey(cfg config.Config) ([]byte, error) {
	if cfg.IPHashKey != "" {
		return []byte(cfg.IPHashKey), nil
	}
	if b, err := os.ReadFile(cfg.IPHashKeyFile); err == nil {
		k := strings.TrimSpace(string(b))
		if len(k) < 32 {
			return nil, fmt.Errorf("%s holds a key shorter than 32 characters", cfg.IPHashKeyFile)
		}
		return []byte(k), nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	k := hex.EncodeToString(b[:])
	if err := os.MkdirAll(filepath.Dir(cfg.IPHashKeyFile), 0o750); err != nil {
		return nil, err
	}
	if err := os.WriteFile(cfg.IPHashKeyFile, []byte(k+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("keeping the address-hash key: %w", err)
	}
	return []byte(k), nil
}

// settingIPHashKey names the address-hash key's fingerprint in the
// database's settings.
const settingIPHashKey = "ip_hash_key_fingerprint"

// agreeOnIPHashKey refuses to serve with another address-hash key than the
// database was first served with: instances sharing a database with
// different keys would each count an address in buckets of their own and
// double every quota.
func agreeOnIPHashKey(ctx context.Context, st *store.Store, key []byte) error {
	fp := quota.KeyFingerprint(key)
	stored, err := st.Agree(ctx, settingIPHashKey, fp)
	if err != nil {
		return err
	}
	if stored != fp {
		return fmt.Errorf("the database is used with another address-hash key (fingerprint %s, this instance has %s): "+
			"give every instance that shares it the same ENTRYCHECK_IP_HASH_KEY, or each counts quotas apart and doubles them; "+
			"to change the key on purpose, stop every instance, delete the row %q of the settings table, then start them with the new key",
			stored, fp, settingIPHashKey)
	}
	return nil
}

// facilitatorName names the configured facilitator for the log.
func facilitatorName(f string) string {
	switch f {
	case "":
		return "none (402 challenge only)"
	case config.FacilitatorLocal:
		return "local (development: nothing settles on-chain)"
	}
	return f
}

// warnStaleTree says when the generated tree was built for another base URL
// or dataset than the server's. The discovery documents follow the server's
// configuration, but the pages, sitemaps and feeds carry the build's
// absolute links and verdicts until the next build.
func warnStaleTree(log *slog.Logger, cfg config.Config, datasetVersion string) {
	info, err := sitetree.ReadInfo(cfg.PublicDir)
	if err != nil {
		log.Warn("the generated site is missing or unreadable: pages answer 404 until `entrycheck build` writes them", "public", cfg.PublicDir, "error", err)
		return
	}
	if base := cfg.BaseURL; info.BaseURL != base {
		log.Warn("the generated site was built for another base URL: discovery documents, llms.txt, robots.txt and openapi.json follow --base-url, but pages, sitemaps and feeds link to the build's until you rebuild with the same --base-url",
			"built_for", info.BaseURL, "base_url", base)
	}
	if info.DatasetVersion != datasetVersion {
		log.Warn("the generated site shows another matrix snapshot than the API answers from: rebuild with the same --data",
			"built_from", info.DatasetVersion, "dataset_version", datasetVersion)
	}
}
