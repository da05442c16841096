package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/store"
)

const (
	testTimeout = 500 * time.Millisecond
	testDay     = "2026-11-22"
)

// requestWork is one kind of database work done while serving a request,
// run against a store that cannot answer.
type requestWork struct {
	name string
	do   func(ctx context.Context, s *store.Store, i int) error
}

var requestWorks = []requestWork{
	{"Consume", func(ctx context.Context, s *store.Store, i int) error {
		_, err := s.Consume(ctx, testDay, []store.Bucket{{Scope: "ip", Key: "a", Limit: 100}, {Scope: "global", Key: "all", Limit: 1000}})
		return err
	}},
	{"CreateClient", func(ctx context.Context, s *store.Store, i int) error {
		now := time.Now()
		return s.CreateClient(ctx, store.Client{ID: fmt.Sprintf("frozen-%d", i), SecretHash: "h", Name: "n", CreatedAt: now, ExpiresAt: now.Add(time.Hour)})
	}},
	{"CreateToken", func(ctx context.Context, s *store.Store, i int) error {
		now := time.Now()
		return s.CreateToken(ctx, store.Token{ID: fmt.Sprintf("frozen-%d", i), ClientID: "c", SecretHash: "h", ExpiresAt: now.Add(time.Hour)}, 5, now)
	}},
	{"Client", func(ctx context.Context, s *store.Store, i int) error {
		_, err := s.Client(ctx, "c")
		return err
	}},
	{"Counters", func(ctx context.Context, s *store.Store, i int) error {
		_, err := s.Counters(ctx, testDay)
		return err
	}},
	{"UseNonce", func(ctx context.Context, s *store.Store, i int) error {
		_, err := s.UseNonce(ctx, "eip155:84532", "0xasset", "0xpayer", fmt.Sprintf("0x%d", i))
		return err
	}},
	{"DaySalt", func(ctx context.Context, s *store.Store, i int) error {
		_, err := s.DaySalt(ctx, fmt.Sprintf("2026-12-%02d", i%28+1))
		return err
	}},
}

// assertUnavailableInTime runs each work and wants EUNAVAILABLE within the
// timeout and a second.
func assertUnavailableInTime(t *testing.T, s *store.Store, works []requestWork, n int) {
	t.Helper()
	for _, w := range works {
		start := time.Now()
		err := w.do(context.Background(), s, n)
		took := time.Since(start)
		if !isUnavailable(err) {
			t.Errorf("%s: %v after %v, want EUNAVAILABLE", w.name, err, took.Round(time.Millisecond))
		}
		if took > testTimeout+time.Second {
			t.Errorf("%s took %v, want at most %v", w.name, took.Round(time.Millisecond), testTimeout+time.Second)
		}
		t.Logf("%s: unavailable after %v", w.name, took.Round(time.Millisecond))
	}
}

func isUnavailable(err error) bool {
	var e *entrycheck.Error
	return errors.As(err, &e) && e.Code == entrycheck.EUNAVAILABLE
}

// TestDeadlineFrozenPostgres: with the server frozen, every request's
// database work gives up after the timeout as EUNAVAILABLE, and once it
// thaws nothing it was refused is found counted.
func TestDeadlineFrozenPostgres(t *testing.T) {
	pg := datatest.StartPostgres(t)
	s, err := store.Open(context.Background(), pg.URL, store.WithTimeout(testTimeout))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	now := time.Now()
	if err := s.CreateClient(ctx, store.Client{ID: "c", SecretHash: "h", Name: "n", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	// Warm the pool, so that the frozen server meets both open connections
	// and new ones.
	for i := 0; i < 3; i++ {
		if err := requestWorks[0].do(ctx, s, 0); err != nil {
			t.Fatal(err)
		}
	}
	pg.Freeze()
	assertUnavailableInTime(t, s, requestWorks, 1)
	assertUnavailableInTime(t, s, requestWorks, 2) // on the connections the first round left
	pg.Thaw()

	// The server runs what it had received; whatever it was must not be
	// counted after the refusal.
	time.Sleep(time.Second)
	assertCountedAfter(ctx, t, s, "the thaw", 4)
	for i := 1; i <= 2; i++ {
		fresh, err := s.UseNonce(ctx, "eip155:84532", "0xasset", "0xpayer", fmt.Sprintf("0x%d", i))
		if err != nil {
			t.Fatal(err)
		}
		if !fresh {
			t.Errorf("nonce 0x%d was recorded by a refused call", i)
		}
	}
	live, err := s.LiveTokens(ctx, "c", now)
	if err != nil {
		t.Fatal(err)
	}
	if live != 0 {
		t.Errorf("%d tokens stored by refused calls", live)
	}
}

// TestDeadlineLockedSQLite: with another connection holding SQLite's write
// lock, writes give up after the timeout as EUNAVAILABLE, nothing is
// counted for them, and service returns when the lock is released.
func TestDeadlineLockedSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locked.db")
	s, err := store.Open(context.Background(), path, store.WithTimeout(testTimeout))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	now := time.Now()
	if err := s.CreateClient(ctx, store.Client{ID: "c", SecretHash: "h", Name: "n", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if err := requestWorks[0].do(ctx, s, 0); err != nil {
		t.Fatal(err)
	}

	// A second connection in this process, as a sqlite3 shell would be
	// from another: SQLite coordinates the two through the same file locks.
	other, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(0)")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	writes := []requestWork{requestWorks[0], requestWorks[1], requestWorks[2], requestWorks[5]}
	assertUnavailableInTime(t, s, writes, 1)
	assertUnavailableInTime(t, s, writes, 2)
	if _, err := conn.ExecContext(ctx, `ROLLBACK`); err != nil {
		t.Fatal(err)
	}

	assertCountedAfter(ctx, t, s, "the lock is released", 2)
	fresh, err := s.UseNonce(ctx, "eip155:84532", "0xasset", "0xpayer", "0x1")
	if err != nil || !fresh {
		t.Errorf("UseNonce after the lock: fresh %v, %v; want a fresh nonce", fresh, err)
	}
}

// TestLiveTokensUnderConcurrency: however many tokens a client mints at
// once, at most keep stay live.
func TestLiveTokensUnderConcurrency(t *testing.T) {
	for name, dsn := range datatest.StoreDSNs(t, "store_live_tokens") {
		t.Run(name, func(t *testing.T) {
			s := open(t, dsn)
			defer s.Close()
			ctx := context.Background()
			now := time.Now()
			if err := s.CreateClient(ctx, store.Client{ID: "c", SecretHash: "h", Name: "n", CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
				t.Fatal(err)
			}
			const keep = 5
			var wg sync.WaitGroup
			var mu sync.Mutex
			var failed []error
			for i := 0; i < 100; i++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					err := s.CreateToken(ctx, store.Token{ID: fmt.Sprintf("t%d", i), ClientID: "c", SecretHash: "h", ExpiresAt: now.Add(time.Hour)}, keep, now)
					if err != nil {
						mu.Lock()
						failed = append(failed, err)
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			if err := errors.Join(failed...); err != nil {
				t.Fatalf("%d of 100 mints failed: %v", len(failed), err)
			}
			live, err := s.LiveTokens(ctx, "c", now)
			if err != nil {
				t.Fatal(err)
			}
			if live != keep {
				t.Errorf("%d live tokens after 100 concurrent mints, want %d", live, keep)
			}
		})
	}
}

// assertCountedAfter: once the database answers again (after), a
// consumption works, and the quota holds exactly the counted ones: want,
// the refused consumptions of the two rounds of assertUnavailableInTime
// left out.
func assertCountedAfter(ctx context.Context, t *testing.T, s *store.Store, after string, want int) {
	t.Helper()
	if err := requestWorks[0].do(ctx, s, 0); err != nil {
		t.Fatalf("after %s: %v", after, err)
	}
	used, err := s.QuotaUsed(ctx, testDay, "ip", "a")
	if err != nil {
		t.Fatal(err)
	}
	if used != want {
		t.Errorf("quota used %d after %d counted and 2 refused consumptions, want %d", used, want, want)
	}
}
