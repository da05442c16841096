package generator

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/entrycheck/entrycheck/internal/compression"
)

// writer writes the tree incrementally: a file whose content hash matches
// the previous build's manifest, and which still exists, is left alone, so
// its modification time (Last-Modified) only moves when its content does.
type writer struct {
	root string

	mu       sync.Mutex
	manifest *manifest
	dirs     map[string]bool

	written, skipped atomic.Int64
	bytes            atomic.Int64

	compressor compression.Compressor
}

func newWriter(root string) (*writer, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, err
	}
	m, err := readManifest(root)
	if err != nil {
		return nil, err
	}
	return &writer{root: root, manifest: m, dirs: map[string]bool{}}, nil
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
	old, ok := w.manifest.previous(variant)
	if !ok {
		return false
	}
	if _, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(variant))); err != nil {
		return false
	}
	w.mu.Lock()
	err := w.manifest.add(variant, old)
	w.mu.Unlock()
	if err != nil {
		return false // written again, which reports the error
	}
	w.skipped.Add(1)
	return true
}

// writeOne writes one file unless its content is unchanged, and reports
// whether it wrote.
func (w *writer) writeOne(rel string, data []byte) (bool, error) {
	hash := digestOf(data)
	w.bytes.Add(int64(len(data)))
	w.mu.Lock()
	err := w.manifest.add(rel, hash)
	w.mu.Unlock()
	if err != nil {
		return false, err
	}
	path := filepath.Join(w.root, filepath.FromSlash(rel))
	old, existed := w.manifest.previous(rel)
	if existed && old == hash {
		if _, err := os.Stat(path); err == nil {
			w.skipped.Add(1)
			return false, nil
		}
	}
	if err := w.mkdir(filepath.Dir(path)); err != nil {
		return false, err
	}
	if !existed {
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

// finish writes the new manifest and deletes the files of the previous
// build that this one did not generate. It returns how many it deleted.
func (w *writer) finish() (int, error) {
	stale, err := w.manifest.close(false)
	if err != nil {
		return 0, err
	}
	sort.Strings(stale)
	for i, rel := range stale {
		err := os.Remove(filepath.Join(w.root, filepath.FromSlash(rel)))
		if err != nil && !os.IsNotExist(err) {
			return i, fmt.Errorf("deleting %s: %w", rel, err)
		}
	}
	return len(stale), nil
}
