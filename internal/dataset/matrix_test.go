package dataset_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

func registry(t testing.TB) *country.Registry {
	r, err := country.New()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestLoadRealSnapshots(t *testing.T) {
	for _, version := range []string{datatest.Current, datatest.Previous} {
		m, err := dataset.LoadMatrix(datatest.MatrixDir(t, version), datatest.Lock(t), registry(t))
		if err != nil {
			t.Fatalf("%s: %v", version, err)
		}
		if m.Version() != version {
			t.Errorf("version = %q, want %q", m.Version(), version)
		}
		if n := len(m.Countries()); n != 199 {
			t.Errorf("%s: %d countries, want 199", version, n)
		}
		if m.Routes() != 39402 {
			t.Errorf("%s: %d routes, want 39402", version, m.Routes())
		}
	}
}

func TestMatrixValues(t *testing.T) {
	m, err := dataset.LoadMatrix(datatest.MatrixDir(t, datatest.Current), datatest.Lock(t), registry(t))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		p, d string
		req  entrycheck.Requirement
		days entrycheck.Days
		raw  string
	}{
		{"DEU", "THA", entrycheck.VisaFree, entrycheck.SomeDays(60), "60"},
		{"GBR", "USA", entrycheck.ETA, entrycheck.Days{}, "eta"},
		{"ISR", "IRN", entrycheck.NoAdmission, entrycheck.Days{}, "no admission"},
		{"FRA", "DEU", entrycheck.VisaFree, entrycheck.Days{}, "visa free"},
		{"USA", "CHN", entrycheck.VisaRequired, entrycheck.Days{}, "visa required"},
		{"USA", "BRA", entrycheck.EVisa, entrycheck.Days{}, "e-visa"},
		{"DEU", "GBR", entrycheck.ETA, entrycheck.Days{}, "eta"},
		{"IND", "PHL", entrycheck.VisaFree, entrycheck.SomeDays(14), "14"},
		{"AFG", "DZA", entrycheck.VisaRequired, entrycheck.Days{}, "visa required"},
	}
	for _, c := range cases {
		p, _ := m.Position(c.p)
		d, _ := m.Position(c.d)
		v := m.Verdict(p, d)
		if v.Requirement != c.req || v.Days != c.days || v.Raw != c.raw || v.Own {
			t.Errorf("%s to %s = %+v, want %s %v %q", c.p, c.d, v, c.req, c.days, c.raw)
		}
	}
	p, _ := m.Position("deu")
	if v := m.Verdict(p, p); !v.Own || v.Raw != "-1" {
		t.Errorf("DEU to DEU = %+v, want the own-country marker", v)
	}
}

// matrixFiles are the three files of a snapshot directory.
var matrixFiles = datatest.MatrixFiles

// copySnapshot copies the current snapshot into a temporary directory.
func copySnapshot(t *testing.T) string { return datatest.CopySnapshot(t, datatest.Current) }

// corrupt copies the current snapshot into a temporary directory and lets
// edit change one file's content.
func corrupt(t *testing.T, file string, edit func(string) string) string {
	t.Helper()
	dir := copySnapshot(t)
	datatest.EditFile(t, filepath.Join(dir, file), edit)
	return dir
}

func TestCorruptedMatrixIsRefused(t *testing.T) {
	iso3 := "passport-index-tidy-iso3.csv"
	cases := []struct {
		name, file string
		edit       func(string) string
		want       []string
	}{
		{"one changed byte keeps the format", iso3,
			func(s string) string { return strings.Replace(s, "DEU,THA,60\n", "DEU,THA,61\n", 1) },
			[]string{"passport-index-tidy-iso2.csv", `value "60" differs from "61"`}},
		{"a consistent change is caught by the pin", "passport-index-tidy.csv",
			func(s string) string { return strings.ReplaceAll(s, "Algeria", "Algerja") },
			[]string{"passport-index-tidy.csv", "sha256", "pins", datatest.Current}},
		{"one changed byte in a value", iso3,
			func(s string) string { return strings.Replace(s, "AFG,DZA,visa required", "AFG,DZA,visa requirea", 1) },
			[]string{iso3, "line 3", `unknown requirement value "visa requirea"`}},
		{"missing row", iso3,
			func(s string) string { return strings.Replace(s, "DEU,THA,60\n", "", 1) },
			[]string{iso3, "route DEU to THA is missing"}},
		{"duplicate row", iso3,
			func(s string) string { return strings.Replace(s, "DEU,THA,60\n", "DEU,THA,60\nDEU,THA,60\n", 1) },
			[]string{iso3, "route DEU to THA already given on line"}},
		{"unknown country code", iso3,
			func(s string) string { return strings.Replace(s, "AFG,DZA,", "AFG,DZQ,", 1) },
			[]string{iso3, "line 3", `destination "DZQ" is not an ISO 3166-1 alpha-3 code`}},
		{"own-country marker off the diagonal", iso3,
			func(s string) string { return strings.Replace(s, "DEU,THA,60\n", "DEU,THA,-1\n", 1) },
			[]string{iso3, "-1 is for a country's own passport only"}},
		{"broken header", iso3,
			func(s string) string {
				return strings.Replace(s, "Passport,Destination,Requirement", "Passport,Dest,Requirement", 1)
			},
			[]string{iso3, "line 1", "header"}},
		{"wrong field count", iso3,
			func(s string) string { return strings.Replace(s, "AFG,DZA,visa required", "AFG,DZA", 1) },
			[]string{iso3, "line 3", "wrong number of fields"}},
		{"alpha-2 file disagrees", "passport-index-tidy-iso2.csv",
			func(s string) string { return strings.Replace(s, "AF,DZ,", "AF,DE,", 1) },
			[]string{"passport-index-tidy-iso2.csv", "line 3", `"DE" does not match DZA (DZ)`}},
		{"alpha-2 value disagrees", "passport-index-tidy-iso2.csv",
			func(s string) string { return strings.Replace(s, "AF,DZ,visa required", "AF,DZ,e-visa", 1) },
			[]string{"passport-index-tidy-iso2.csv", "line 3", `value "e-visa" differs`}},
		{"names file renames a country", "passport-index-tidy.csv",
			func(s string) string { return strings.Replace(s, "Afghanistan,Algeria,", "Afghanistan,Algiers,", 1) },
			[]string{"passport-index-tidy.csv", "line 202", `DZA is called "Algeria" here but "Algiers" earlier`}},
		{"names file truncated", "passport-index-tidy.csv",
			func(s string) string { return s[:strings.LastIndex(strings.TrimSuffix(s, "\n"), "\n")+1] },
			[]string{"passport-index-tidy.csv", "39600 routes"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := dataset.LoadMatrix(corrupt(t, c.file, c.edit), datatest.Lock(t), registry(t))
			if err == nil {
				t.Fatal("the corrupted matrix was accepted")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestUnpinnedMatrixIsRefused(t *testing.T) {
	dir := corrupt(t, "passport-index-tidy-iso3.csv", func(s string) string { return strings.Replace(s, "DEU,THA,60\n", "DEU,THA,61\n", 1) })
	for name, from := range map[string]string{"passport-index-tidy-iso2.csv": "DE,TH,60\n", "passport-index-tidy.csv": "Germany,Thailand,60\n"} {
		p := filepath.Join(dir, name)
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		edited := strings.Replace(string(b), from, strings.Replace(from, "60", "61", 1), 1)
		if edited == string(b) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, err := dataset.LoadMatrix(dir, datatest.Lock(t), registry(t))
	if err == nil || !strings.Contains(err.Error(), "matches no pinned snapshot") {
		t.Fatalf("error = %v, want a refusal of the unpinned matrix", err)
	}
}

func TestMissingFileIsRefused(t *testing.T) {
	dir := corrupt(t, "passport-index-tidy.csv", func(s string) string { return s + "x" })
	if err := os.Remove(filepath.Join(dir, "passport-index-tidy.csv")); err != nil {
		t.Fatal(err)
	}
	_, err := dataset.LoadMatrix(dir, datatest.Lock(t), registry(t))
	if err == nil || !strings.Contains(err.Error(), "passport-index-tidy.csv") {
		t.Fatalf("error = %v, want one naming the missing file", err)
	}
}
