package store_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/store"
)

// TestInstancesStartingTogether: instances that start at once on an empty
// PostgreSQL database all migrate it without error, once. Each trial starts
// three on a fresh schema; races are rare, hence the trials.
func TestInstancesStartingTogether(t *testing.T) {
	url := os.Getenv("ENTRYCHECK_TEST_POSTGRES_URL")
	if url == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI must set ENTRYCHECK_TEST_POSTGRES_URL so that the migrations are tested on PostgreSQL")
		}
		t.Skip("no PostgreSQL (ENTRYCHECK_TEST_POSTGRES_URL); CI runs this test")
	}
	const trials, instances = 20, 3
	for trial := range trials {
		t.Run(fmt.Sprint(trial), func(t *testing.T) {
			dsn := datatest.PostgresSchema(t, url, fmt.Sprintf("store_migrate_test_%d", trial))
			stores := make([]*store.Store, instances)
			errs := make([]error, instances)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range instances {
				wg.Add(1)
				go func() {
					defer wg.Done()
					<-start
					stores[i], errs[i] = store.Open(context.Background(), dsn)
				}()
			}
			close(start)
			wg.Wait()
			for i, s := range stores {
				if errs[i] != nil {
					t.Errorf("instance %d: %v", i, errs[i])
					continue
				}
				defer s.Close()
				var rows, version int
				if err := s.DB().QueryRow(`SELECT COUNT(*), MAX(version) FROM schema_version`).Scan(&rows, &version); err != nil {
					t.Fatal(err)
				}
				if rows != 1 || version != store.SchemaVersion() {
					t.Errorf("instance %d sees %d versions, the latest %d; want only %d", i, rows, version, store.SchemaVersion())
				}
			}
		})
	}
}
