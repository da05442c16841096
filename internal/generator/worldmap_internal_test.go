package generator

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestWorldMapAssetIsStable draws the map asset in two builds: the same
// bytes under the same content-hashed name, so that browsers keep it.
func TestWorldMapAssetIsStable(t *testing.T) {
	ev := datatest.Evaluator(t)
	var paths []string
	var bodies [][]byte
	for range 2 {
		dir := t.TempDir()
		w, err := newWriter(dir)
		if err != nil {
			t.Fatal(err)
		}
		s := &site{ev: ev, opts: Options{OutDir: dir, GeoDir: datatest.GeoDir(t)}, w: w}
		m, err := s.writeWorldMap()
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(dir, trimSlash(m.path)))
		if err != nil {
			t.Fatal(err)
		}
		paths, bodies = append(paths, m.path), append(bodies, b)
	}
	if paths[0] != paths[1] || !bytes.Equal(bodies[0], bodies[1]) {
		t.Errorf("two builds wrote %s and %s, equal bytes: %v", paths[0], paths[1], bytes.Equal(bodies[0], bodies[1]))
	}
	s := &site{ev: ev, opts: Options{OutDir: t.TempDir()}}
	if _, err := s.writeWorldMap(); err == nil {
		t.Error("a build without the shapes' directory drew a map")
	}
}
