package country_test

import (
	"testing"

	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/worldmap"
)

// TestNumericCodesMatchTheWorldAtlas checks the registry's ISO 3166-1
// numeric codes against the Natural Earth shapes, which carry them: every
// code of the files is a registry country, and every shape whose name is a
// registry name or alias carries that country's code.
func TestNumericCodesMatchTheWorldAtlas(t *testing.T) {
	reg, err := country.New()
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, file := range []string{worldmap.Countries110m, worldmap.Countries50m} {
		features, err := worldmap.Read(datatest.GeoDir(t), file)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range features {
			if f.ID != "" {
				if _, ok := reg.ByNumeric(f.ID); !ok {
					t.Errorf("%s: %s has code %s, no registry country", file, f.Name, f.ID)
				}
			}
			c, ok := reg.Resolve(f.Name)
			if !ok {
				continue
			}
			named++
			if code, _ := reg.Numeric(c.ISO3); code != f.ID {
				t.Errorf("%s: %s has code %q, the registry gives %s (%s) %q", file, f.Name, f.ID, c.ISO3, c.Name, code)
			}
		}
	}
	if named < 300 {
		t.Errorf("only %d shapes named as registry countries", named)
	}
	for _, c := range reg.All() {
		code, ok := reg.Numeric(c.ISO3)
		if back, _ := reg.ByNumeric(code); ok && back.ISO3 != c.ISO3 {
			t.Errorf("%s: code %s leads back to %s", c.ISO3, code, back.ISO3)
		}
		if !ok && c.ISO3 != "XKX" {
			t.Errorf("%s has no numeric code", c.ISO3)
		}
	}
}
