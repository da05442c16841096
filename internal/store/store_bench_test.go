package store_test

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/entrycheck/entrycheck/internal/store"
)

func BenchmarkConsumeSQLite(b *testing.B) {
	s, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "q.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	i := 0
	for b.Loop() {
		i++
		_, err := s.Consume(ctx, "2026-11-22", []store.Bucket{{"ip", fmt.Sprint(i % 100), 1 << 30}, {"net", "n", 1 << 30}, {"global", "all", 1 << 30}})
		if err != nil {
			b.Fatal(err)
		}
	}
}
