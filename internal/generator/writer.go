package generator

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/entrycheck/entrycheck/internal/compression"
	"github.com/entrycheck/entrycheck/internal/sitetree"
)

// writer writes the tree incrementally: a file whose content hash matches
// the previous build's manifest, and which still exists, is left alone, so
// its modification time (Last-Modified) only moves when its content does.
type writer struct {
	root string
	old  map[string]string

	mu   sync.Mutex
	seen map[string]string
	dirs map[string]bool

	written, skipped atomic.Int64
	bytes            atomic.Int64

	compressor compression.Compressor
}

func newWriter(root string) (*writer, error) {
	w := &writer{root: root, old: map[string]string{}, seen: map[string]string{}, dirs: map[string]bool{}}
	b, err := os.ReadFile(filepath.Join(root, sitetree.ManifestFile))
	if err == nil {
		if err := json.Unmarshal(b, &w.old); err != nil {
			w.old = map[string]string{} // a damaged manifest only costs a full write
		}
	} else if !os.IsNotExist(err) {
		return nil, fmt.Errorf("reading the build manifest: %w", err)
	}
	return w, os.MkdirAll(root, 0o755)
}

// write stores data at rel (a slash path without leading slash), and its
// brotli and gzip variants beside it when the file is large and
// compressible (compression.PrecompressAt); serve compresses smaller
// files on request.
func (w *writer) write(rel string, data []byte) error {
	changed, err := w.writeOne(rel, data)
	if err != nil || len(data) < compression.PrecompressAt || !compression.Compressible(rel) {
		return err
	}
	for _, enc := range compression.Encodings() {
		variant := rel + compression.Suffix(enc)
		if !changed && w.keep(variant) {
			continue
		}
		b, err := w.compressor.Compress(enc, data)
		if err != nil {
			return fmt.Errorf("compressing %s: %w", rel, err)
		}
		if _, err := w.writeOne(variant, b); err != nil {
			return err
		}
	}
	return nil
}

// keep keeps the variant of unchanged content as it is, without
// compressing again, when the previous build wrote it and it still exists.
func (w *writer) keep(variant string) bool {
	old, ok := w.old[variant]
	if !ok {
		return false
	}
	if _, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(variant))); err != nil {
		return false
	}
	w.mu.Lock()
	w.seen[variant] = old
	w.mu.Unlock()
	w.skipped.Add(1)
	return true
}

// writeOne writes one file unless its content is unchanged, and reports
// whether it wrote.
func (w *writer) writeOne(rel string, data []byte) (bool, error) {
	sum := sha256.Sum256(data)
	hash := hex.EncodeToString(sum[:16])
	w.bytes.Add(int64(len(data)))
	w.mu.Lock()
	if _, dup := w.seen[rel]; dup {
		w.mu.Unlock()
		return false, fmt.Errorf("generator: %s is generated twice", rel)
	}
	w.seen[rel] = hash
	w.mu.Unlock()
	path := filepath.Join(w.root, filepath.FromSlash(rel))
	if w.old[rel] == hash {
		if _, err := os.Stat(path); err == nil {
			w.skipped.Add(1)
			return false, nil
		}
	}
	if err := w.mkdir(filepath.Dir(path)); err != nil {
		return false, err
	}
	if _, existed := w.old[rel]; !existed {
		// A new file: nobody serves it yet, so it is written in place.
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return false, fmt.Errorf("writing %s: %w", rel, err)
		}
		w.written.Add(1)
		return true, nil
	}
	// Replace by writing beside and renaming, so that a server never reads
	// half a file.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return false, fmt.Errorf("writing %s: %w", rel, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return false, fmt.Errorf("writing %s: %w", rel, err)
	}
	w.written.Add(1)
	return true, nil
}

func (w *writer) mkdir(dir string) error {
	w.mu.Lock()
	done := w.dirs[dir]
	w.mu.Unlock()
	if done {
		return nil
	}
	// The parent is made (or known) first, so that each new directory of
	// a page costs one system call rather than MkdirAll's walk.
	if parent := filepath.Dir(dir); parent != dir {
		if err := w.mkdir(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return err
	}
	w.mu.Lock()
	w.dirs[dir] = true
	w.mu.Unlock()
	return nil
}

// finish deletes the files of the previous build that this one did not
// generate, then writes the new manifest. It returns how many it deleted.
func (w *writer) finish() (int, error) {
	deleted := 0
	var stale []string
	for rel := range w.old {
		if _, ok := w.seen[rel]; !ok {
			stale = append(stale, rel)
		}
	}
	sort.Strings(stale)
	for _, rel := range stale {
		err := os.Remove(filepath.Join(w.root, filepath.FromSlash(rel)))
		if err != nil && !os.IsNotExist(err) {
			return deleted, fmt.Errorf("deleting %s: %w", rel, err)
		}
		deleted++
	}
	return deleted, w.writeManifest(w.seen)
}
