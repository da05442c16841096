package worldmap_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/worldmap"
)

func registry(t *testing.T) *country.Registry {
	reg, err := country.New()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

func matrixCodes(t *testing.T) []string {
	var out []string
	for _, c := range datatest.Evaluator(t).Snapshot().Matrix.Countries() {
		out = append(out, c.ISO3)
	}
	return out
}

func TestReadDecodesTheShapes(t *testing.T) {
	fs, err := worldmap.Read(datatest.GeoDir(t), worldmap.Countries110m)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]worldmap.Feature{}
	for _, f := range fs {
		byName[f.Name] = f
		for _, p := range f.Polygons {
			for _, r := range p {
				if len(r) < 4 || r[0] != r[len(r)-1] {
					t.Errorf("%s: a ring of %d points that does not close", f.Name, len(r))
				}
				for _, pt := range r {
					if pt.Lon < -180 || pt.Lon > 180 || pt.Lat < -90 || pt.Lat > 90 {
						t.Fatalf("%s: point %v off the globe", f.Name, pt)
					}
				}
			}
		}
	}
	// Stitched and dequantized shapes lie where the countries are.
	for name, box := range map[string][4]float64{"Germany": {5.8, 47.2, 15.1, 55.1}, "Brazil": {-74, -34, -34.7, 5.3}, "Japan": {129, 31, 146, 45.6}} {
		f, ok := byName[name]
		if !ok {
			t.Fatalf("no %s in the file", name)
		}
		for _, p := range f.Polygons {
			for _, r := range p {
				for _, pt := range r {
					if pt.Lon < box[0] || pt.Lat < box[1] || pt.Lon > box[2] || pt.Lat > box[3] {
						t.Fatalf("%s: %v outside %v", name, pt, box)
					}
				}
			}
		}
	}
}

func TestReadRefusesAnotherFile(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile(filepath.Join(datatest.GeoDir(t), worldmap.Countries110m))
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, ' ')
	if err := os.WriteFile(filepath.Join(dir, worldmap.Countries110m), b, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = worldmap.Read(dir, worldmap.Countries110m)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, worldmap.Countries110m)) || !strings.Contains(err.Error(), "sha256") {
		t.Errorf("a changed file: %v, want an error naming it and its digest", err)
	}
	if _, err := worldmap.Read(t.TempDir(), worldmap.Countries110m); err == nil || !strings.Contains(err.Error(), "--geo") {
		t.Errorf("a missing file: %v, want an error naming --geo", err)
	}
}

func TestRenderPlacesEveryMatrixCountry(t *testing.T) {
	want := matrixCodes(t)
	m, err := worldmap.Render(datatest.GeoDir(t), want, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	svg := string(m.SVG)
	if !strings.HasPrefix(svg, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="`+m.ViewBox+`">`) {
		t.Errorf("asset starts %.100q", svg)
	}
	if strings.Contains(svg, "fill") || strings.Contains(svg, "stroke") || strings.Contains(svg, "style") {
		t.Error("the asset sets a colour: <use> could not inherit the page's")
	}
	ids := map[string]string{}
	for _, m := range regexp.MustCompile(`<(path|circle) id="([a-z]{3})"`).FindAllStringSubmatch(svg, -1) {
		if _, dup := ids[m[2]]; dup {
			t.Errorf("id %s twice", m[2])
		}
		ids[m[2]] = m[1]
	}
	var off []string
	for _, c := range want {
		ok, dot := m.Placed(c)
		el, has := ids[strings.ToLower(c)]
		switch {
		case !ok:
			off = append(off, c)
			if has {
				t.Errorf("%s has an element but is not placed", c)
			}
		case !has:
			t.Errorf("%s is placed but has no element", c)
		case dot != (el == "circle"):
			t.Errorf("%s: dot %v, element %s", c, dot, el)
		}
	}
	// Kosovo has no numeric code: it is found by its name.
	if ok, dot := m.Placed("XKX"); !ok || dot {
		t.Error("Kosovo is not drawn as a shape")
	}
	if _, ok := ids["ata"]; ok {
		t.Error("Antarctica is drawn")
	}
	if len(off) > len(want)/50 {
		t.Errorf("%d countries off the map: %v", len(off), off)
	}
	if len(m.SVG) > 150<<10 {
		t.Errorf("asset of %d bytes", len(m.SVG))
	}
	again, err := worldmap.Render(datatest.GeoDir(t), want, registry(t))
	if err != nil || string(again.SVG) != svg {
		t.Error("two renderings differ")
	}
}

// TestRenderDrawsEachCountryOnceAndFramesTheInsets checks that the land a
// page draws under the countries holds none of them (a browser would lay
// out and paint them twice), and that each region's inset holds its small
// countries and none far away.
func TestRenderDrawsEachCountryOnceAndFramesTheInsets(t *testing.T) {
	m, err := worldmap.Render(datatest.GeoDir(t), matrixCodes(t), registry(t))
	if err != nil {
		t.Fatal(err)
	}
	svg := string(m.SVG)
	open := `<g id="` + worldmap.LandID + `">`
	land := svg[strings.Index(svg, open)+len(open):]
	land = land[:strings.Index(land, "</g>")]
	if strings.Contains(land, " id=") {
		t.Error("the land group holds a country")
	}
	if n := strings.Count(land, "<path"); n == 0 || n > 20 {
		t.Errorf("the land group holds %d shapes, want the few areas that are no country of the matrix", n)
	}
	want := map[string][2][]string{
		"Europe":    {{"LUX", "BEL", "CHE", "AND", "MCO", "MLT", "CYP", "DEU"}, {"USA", "BRA", "JPN", "QAT"}},
		"Caribbean": {{"BRB", "JAM", "TTO", "ATG", "DMA", "BHS", "CUB"}, {"DEU", "BRA", "CAN", "QAT"}},
		"Gulf":      {{"BHR", "QAT", "KWT", "ARE"}, {"DEU", "JAM", "IND"}},
	}
	if len(m.Insets) != len(worldmap.Regions()) {
		t.Fatalf("%d insets for %d regions", len(m.Insets), len(worldmap.Regions()))
	}
	for _, in := range m.Insets {
		w, ok := want[in.Name]
		if !ok {
			t.Errorf("an inset of %s", in.Name)
			continue
		}
		for _, c := range w[0] {
			if !in.Has(c) {
				t.Errorf("the %s inset lacks %s", in.Name, c)
			}
		}
		for _, c := range w[1] {
			if in.Has(c) {
				t.Errorf("the %s inset holds %s", in.Name, c)
			}
		}
		if in.Zoom < 5 {
			t.Errorf("the %s inset shows its region %.1f times larger, want at least 5", in.Name, in.Zoom)
		}
	}
}
