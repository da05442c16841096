package apidoc_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// TestDocumentIsTheSameBytesEveryTime: the build and the server write the
// document independently, tests write it at once from many goroutines, and
// all must get the same bytes: writing it changes none of the tables it is
// written from.
func TestDocumentIsTheSameBytesEveryTime(t *testing.T) {
	site := discovery.NewSite(config.Default(), discovery.Dataset{Version: "2026-02-17"})
	var wg sync.WaitGroup
	docs := make([][]byte, 4)
	for i := range docs {
		wg.Go(func() { docs[i] = apidoc.For(site) })
	}
	wg.Wait()
	for i, doc := range append(docs, apidoc.For(site)) {
		if !bytes.Equal(doc, docs[0]) {
			t.Errorf("document %d differs from the first (%d and %d bytes)", i, len(doc), len(docs[0]))
		}
	}
}
