package worldmap

import (
	"testing"

	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestSplitAntimeridian cuts the real rings that cross the antimeridian
// (Russia, Fiji) so that none spans the map.
func TestSplitAntimeridian(t *testing.T) {
	fs, err := Read(datatest.GeoDir(t), Countries110m)
	if err != nil {
		t.Fatal(err)
	}
	split := 0
	for _, f := range fs {
		for _, p := range f.Polygons {
			for _, r := range p {
				parts := splitAntimeridian(r)
				if len(parts) > 1 {
					split++
				}
				for _, part := range parts {
					lo, hi := 180.0, -180.0
					for _, pt := range part {
						if pt.Lon < -180 || pt.Lon > 180 {
							t.Fatalf("%s: %v off the map", f.Name, pt)
						}
						lo, hi = min(lo, pt.Lon), max(hi, pt.Lon)
					}
					if hi-lo > 180 && f.ID != antarctica {
						t.Errorf("%s: a ring spans %.0f° to %.0f°", f.Name, lo, hi)
					}
				}
			}
		}
	}
	if split == 0 {
		t.Error("no ring crosses the antimeridian: Fiji and Russia do")
	}
}
