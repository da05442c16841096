package static

import (
	"bytes"
	"container/list"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/entrycheck/entrycheck/internal/compression"
)

// encodedCacheBytes bounds the memory of the files compressed on request:
// the site's small pages compress to one or two kilobytes each, so this
// keeps tens of thousands of them.
const encodedCacheBytes = 64 << 20

// compressOnRequestMax is the largest file compressed on request. Larger
// compressible files have the build's variants; one without them (a tree
// written by hand) is sent as it is rather than compressed per request.
const compressOnRequestMax = 1 << 20

// encoded returns the body of name in the encoding: the build's variant
// when there is one, else the file compressed here (from the cache when
// this version was compressed before). It reports false when the file is
// to be sent as it is. f is the open file, left at its start.
func (t *Tree) encoded(name, enc, tag string, f *os.File, st os.FileInfo) (io.ReadSeeker, bool) {
	if v, err := os.Open(t.file(name) + compression.Suffix(enc)); err == nil {
		return v, true
	}
	if st.Size() > compressOnRequestMax {
		return nil, false
	}
	// The key names the version of the file, so that a rebuilt file is
	// never answered with its old content.
	key := fmt.Sprintf("%s\x00%s\x00%s\x00%d\x00%d", enc, name, tag, st.ModTime().UnixNano(), st.Size())
	if b, ok := t.compressed.get(key); ok {
		return bytes.NewReader(b), true
	}
	data, err := io.ReadAll(f)
	if _, serr := f.Seek(0, io.SeekStart); err != nil || serr != nil || int64(len(data)) != st.Size() {
		return nil, false
	}
	b, err := t.compressor.Compress(enc, data)
	if err != nil {
		return nil, false
	}
	t.compressed.put(key, b)
	return bytes.NewReader(b), true
}

// encodedCache keeps compressed bodies up to a total size, dropping the
// least recently used first.
type encodedCache struct {
	max int

	mu    sync.Mutex
	size  int
	order *list.List // of *encodedEntry, most recently used first
	byKey map[string]*list.Element
}

type encodedEntry struct {
	key  string
	body []byte
}

func newEncodedCache(max int) *encodedCache {
	return &encodedCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *encodedCache) get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*encodedEntry).body, true
}

func (c *encodedCache) put(key string, body []byte) {
	if len(body) > c.max {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[key]; ok {
		return
	}
	c.byKey[key] = c.order.PushFront(&encodedEntry{key, body})
	c.size += len(body)
	for c.size > c.max {
		last := c.order.Back()
		e := last.Value.(*encodedEntry)
		c.order.Remove(last)
		delete(c.byKey, e.key)
		c.size -= len(e.body)
	}
}
