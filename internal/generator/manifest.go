package generator

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"os"
	"path/filepath"

	"github.com/entrycheck/entrycheck/internal/sitetree"
)

// manifest is the list of the tree's files with the digest of each one's
// content (sitetree.ManifestFile), as a build reads the previous one and
// writes its own. A build of every language lists hundreds of thousands
// of files, so neither list is held as names: the previous digests are
// kept by a 128-bit key of the path, the new entries go to disk as they
// come, and the previous file is read again at the end for the names of
// what this build did not write.
type manifest struct {
	path string
	seed [2]maphash.Seed

	old  map[pathKey]digest
	seen map[pathKey]struct{}

	file *os.File // the new manifest, written beside and renamed at close
	out  *bufio.Writer
}

// digest identifies a file's content: the first half of its SHA-256,
// written in hex.
type digest [16]byte

func digestOf(data []byte) digest {
	sum := sha256.Sum256(data)
	return digest(sum[:16])
}

// pathKey stands for a path in the manifest's sets.
type pathKey [2]uint64

// readManifest reads the previous build's manifest in root, if any. A
// damaged one only costs a full write.
func readManifest(root string) (*manifest, error) {
	m := &manifest{path: filepath.Join(root, sitetree.ManifestFile), seed: [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()},
		old: map[pathKey]digest{}, seen: map[pathKey]struct{}{}}
	err := m.eachOld(func(rel string, d digest) error {
		m.old[m.key(rel)] = d
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		if errors.Is(err, errDamaged) {
			clear(m.old)
			return m, nil
		}
		return nil, fmt.Errorf("reading the build manifest: %w", err)
	}
	return m, nil
}

func (m *manifest) key(rel string) pathKey {
	return pathKey{maphash.String(m.seed[0], rel), maphash.String(m.seed[1], rel)}
}

// previous gives the digest of rel in the previous build.
func (m *manifest) previous(rel string) (digest, bool) {
	d, ok := m.old[m.key(rel)]
	return d, ok
}

// add lists rel with its digest; a path listed twice is an error of the
// generator. The caller serialises the calls.
func (m *manifest) add(rel string, d digest) error {
	k := m.key(rel)
	if _, dup := m.seen[k]; dup {
		return fmt.Errorf("generator: %s is generated twice", rel)
	}
	m.seen[k] = struct{}{}
	return m.entry(rel, d)
}

// start begins the new manifest, beside the previous one.
func (m *manifest) start() error {
	f, err := os.Create(m.path + ".tmp")
	if err != nil {
		return fmt.Errorf("writing the manifest: %w", err)
	}
	m.file, m.out = f, bufio.NewWriter(f)
	return m.out.WriteByte('{')
}

// entry writes one entry of the new manifest.
func (m *manifest) entry(rel string, d digest) error {
	if m.out == nil {
		if err := m.start(); err != nil {
			return err
		}
	} else {
		m.out.WriteByte(',')
	}
	name, err := json.Marshal(rel)
	if err != nil {
		return err
	}
	m.out.Write(name)
	m.out.WriteString(`:"`)
	m.out.Write(hex.AppendEncode(name[:0], d[:]))
	_, err = m.out.WriteString(`"`)
	return err
}

// files counts the files listed.
func (m *manifest) files() int { return len(m.seen) }

// close replaces the manifest with the new one at once, so that serve
// never reads half of it. The files of the previous build that this one
// did not list are kept in it (keepOld, for Update) or returned, for the
// build to delete.
func (m *manifest) close(keepOld bool) (stale []string, err error) {
	err = m.eachOld(func(rel string, d digest) error {
		if _, ok := m.seen[m.key(rel)]; ok {
			return nil
		}
		if keepOld {
			return m.entry(rel, d)
		}
		stale = append(stale, rel)
		return nil
	})
	if err != nil && !os.IsNotExist(err) && !errors.Is(err, errDamaged) {
		return nil, fmt.Errorf("reading the build manifest: %w", err)
	}
	if m.out == nil { // nothing listed
		if err := m.start(); err != nil {
			return nil, err
		}
	}
	m.out.WriteByte('}')
	if err := m.out.Flush(); err != nil {
		return nil, fmt.Errorf("writing the manifest: %w", err)
	}
	if err := m.file.Close(); err != nil {
		return nil, fmt.Errorf("writing the manifest: %w", err)
	}
	if err := os.Rename(m.path+".tmp", m.path); err != nil {
		return nil, fmt.Errorf("writing the manifest: %w", err)
	}
	return stale, nil
}

// errDamaged marks a previous manifest that is not a JSON object of paths
// to hex digests.
var errDamaged = errors.New("damaged manifest")

// eachOld calls f with every entry of the previous manifest, read as a
// stream.
func (m *manifest) eachOld(f func(rel string, d digest) error) error {
	file, err := os.Open(m.path)
	if err != nil {
		return err
	}
	defer file.Close()
	dec := json.NewDecoder(bufio.NewReader(file))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errDamaged
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return errDamaged
		}
		v, err := dec.Token()
		if err != nil {
			return errDamaged
		}
		rel, ok1 := k.(string)
		hexDigest, ok2 := v.(string)
		var d digest
		if n, err := hex.Decode(d[:], []byte(hexDigest)); !ok1 || !ok2 || err != nil || n != len(d) || len(hexDigest) != 2*len(d) {
			return errDamaged
		}
		if err := f(rel, d); err != nil {
			return err
		}
	}
	return nil
}
