package datatest

import (
	"database/sql"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/entrycheck/entrycheck/internal/store"
)

// StoreDSNs are the databases a store test runs on: a SQLite file always,
// and PostgreSQL when ENTRYCHECK_TEST_POSTGRES_URL is set (CI sets it, and
// a CI run without it fails), in an empty schema of its own so that other
// packages' tests, which empty the shared database, run beside it safely.
func StoreDSNs(t *testing.T, schema string) map[string]string {
	t.Helper()
	dsns := map[string]string{"sqlite": filepath.Join(t.TempDir(), "store.db")}
	if u := os.Getenv("ENTRYCHECK_TEST_POSTGRES_URL"); u != "" {
		dsns["postgresql"] = PostgresSchema(t, u, schema)
	} else if os.Getenv("CI") != "" {
		t.Fatal("CI must set ENTRYCHECK_TEST_POSTGRES_URL so that the store is tested on PostgreSQL too")
	}
	return dsns
}

// PostgresSchema creates an empty schema, dropped after the test, and
// returns the URL that uses it.
func PostgresSchema(t *testing.T, dsn, schema string) string {
	t.Helper()
	db, err := sql.Open(store.Postgres, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, s := range []string{`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE`, `CREATE SCHEMA ` + schema} {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	t.Cleanup(func() {
		if db, err := sql.Open(store.Postgres, dsn); err == nil {
			db.Exec(`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE`)
			db.Close()
		}
	})
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
