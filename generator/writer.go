package generator

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// ManifestFile lists every generated file with the hash of its content. A
// rebuild compares against it to write only what changed; serve uses the
// hashes as ETags. Dot files are never served.
const ManifestFile = ".manifest.json"

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
}

func newWriter(root string) (*writer, error) {
	w := &writer{root: root, old: map[string]string{}, seen: map[string]string{}, dirs: map[string]bool{}}
	b, err := os.ReadFile(filepath.Join(root, ManifestFile))
	if err == nil {
		if err := json.Unmarshal(b, &w.old); err != nil {
			w.old = map[string]string{} // a damaged manifest only costs a full write
		}
	} else if !os.IsNotExist(err) {
		return nil, fmt.Errorf("reading the build manifest: %w", err)
	}
	return w, os.MkdirAll(root, 0o755)
}

// write stores data at rel (a slash path without leading slash), and a gzip
// variant at rel+".gz" when the file is large and compressible.
func (w *writer) write(rel string, data []byte) error {
	changed, err := w.writeOne(rel, data)
	if err != nil || len(data) < precompressAt || !compressible(rel) {
		return err
	}
	if !changed {
		// The variant of unchanged content is unchanged too: keep it
		// without compressing again.
		if old, ok := w.old[rel+".gz"]; ok {
			if _, err := os.Stat(filepath.Join(w.root, filepath.FromSlash(rel+".gz"))); err == nil {
				w.mu.Lock()
				w.seen[rel+".gz"] = old
				w.mu.Unlock()
				w.skipped.Add(1)
				return nil
			}
		}
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		return err
	}
	_, err = w.writeOne(rel+".gz", buf.Bytes())
	return err
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

// precompressAt is the size from which a file also gets a gzip variant for
// serve. Smaller files gain little and would double the file count.
const precompressAt = 8 << 10

// compressible reports whether a file of this name is text worth compressing.
func compressible(rel string) bool {
	for _, ext := range []string{".html", ".md", ".txt", ".json", ".xml", ".atom", ".css", ".js", ".svg"} {
		if strings.HasSuffix(rel, ext) {
			return true
		}
	}
	return false
}

func (w *writer) mkdir(dir string) error {
	w.mu.Lock()
	done := w.dirs[dir]
	w.mu.Unlock()
	if done {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
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
