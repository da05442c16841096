package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/store"
)

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
