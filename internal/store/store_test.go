package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/entrycheck/entrycheck/internal/store"
)

func open(t *testing.T, path string) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestLedgerIsAtomicAndDurable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "q.db")
	s := open(t, path)
	ctx := context.Background()
	buckets := []store.Bucket{{Scope: "ip", Key: "a", Limit: 7}, {Scope: "global", Key: "all", Limit: 100}}
	var mu sync.Mutex
	granted := 0
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := s.Consume(ctx, "2026-11-22", buckets)
			if err != nil {
				t.Error(err)
				return
			}
			if c.Exhausted < 0 {
				mu.Lock()
				granted++
				mu.Unlock()
			} else if c.Exhausted != 0 || c.Used[0] != 7 {
				t.Errorf("refusal %+v, want bucket 0 at its limit", c)
			}
		}()
	}
	wg.Wait()
	if granted != 7 {
		t.Fatalf("%d granted, want 7", granted)
	}
	if n, _ := s.QuotaUsed(ctx, "2026-11-22", "global", "all"); n != 7 {
		t.Errorf("global used %d, want 7: a refused request must not count anywhere", n)
	}
	// A second store may not count in the same file (see lock_test.go).
	if _, err := store.Open(ctx, path); err == nil || !strings.Contains(err.Error(), "already open") {
		t.Errorf("second open: %v", err)
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	if c, _ := s.Consume(ctx, "2026-11-22", buckets); c.Exhausted != 0 {
		t.Errorf("after reopening: %+v, the counts were lost", c)
	}
	if c, _ := s.Consume(ctx, "2026-11-23", buckets); c.Exhausted != -1 || c.Used[0] != 1 {
		t.Errorf("the next day: %+v, want a fresh bucket", c)
	}
}

func TestZeroLimitRefuses(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "q.db"))
	defer s.Close()
	c, err := s.Consume(context.Background(), "2026-11-22", []store.Bucket{{Scope: "ip", Key: "a", Limit: 0}})
	if err != nil || c.Exhausted != 0 {
		t.Errorf("%+v %v", c, err)
	}
}

// A count that cannot be written is taken back: the caller is told the
// check failed, and its quota is as it was.
func TestFailedQuotaWriteUsesNoUnit(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "f.db"))
	defer s.Close()
	ctx := context.Background()
	buckets := []store.Bucket{{Scope: "ip", Key: "a", Limit: 2}}
	consume := func() (store.Consumption, error) { return s.Consume(ctx, "2026-11-22", buckets) }
	if c, err := consume(); err != nil || c.Exhausted >= 0 {
		t.Fatalf("first: %+v %v", c, err)
	}
	if _, err := s.DB().Exec(`PRAGMA query_only = 1`); err != nil { // one connection: every write now fails
		t.Fatal(err)
	}
	if _, err := consume(); err == nil {
		t.Fatal("a count that could not be written was reported as taken")
	}
	if _, err := s.DB().Exec(`PRAGMA query_only = 0`); err != nil {
		t.Fatal(err)
	}
	if c, err := consume(); err != nil || c.Exhausted >= 0 || c.Used[0] != 2 {
		t.Errorf("after the failed write: %+v %v; want the second unit", c, err)
	}
	if c, err := consume(); err != nil || c.Exhausted != 0 {
		t.Errorf("third: %+v %v; want the limit", c, err)
	}
}

// TestDatabaseURI: a file: URI opens the file it names, not a file under a
// directory called "file:"; a URI with options and a URL of another scheme
// are refused, saying why.
func TestDatabaseURI(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, dsn := range []string{"file:" + filepath.Join(dir, "a.db"), "file://" + filepath.Join(dir, "b.db"), "file:c.db", "sqlite://d.db"} {
		s, err := store.Open(context.Background(), dsn)
		if err != nil {
			t.Errorf("%s: %v", dsn, err)
			continue
		}
		s.Close()
	}
	for _, name := range []string{"a.db", "b.db", "c.db", "d.db"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was not created: %v", name, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "file:")); err == nil {
		t.Errorf("a directory named file: was created")
	}
	for dsn, want := range map[string]string{
		"file:e.db?mode=memory":  "options",
		"file://db.example/e.db": "host",
		"mysql://db.example/e":   "neither",
	} {
		if _, err := store.Open(context.Background(), dsn); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want a refusal about %s", dsn, err, want)
		}
	}
}
