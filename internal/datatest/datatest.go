// Package datatest finds the real dataset for tests: the matrix snapshots
// beside the repository (../shared, or ENTRYCHECK_SHARED) and the embedded
// curated layer. Tests fail, never skip, when the dataset is missing. It
// also says, in the domain's words, what every text of an answer must show
// (AnswerWords), for the tests of each surface.
package datatest

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/evaluation"
)

// Snapshot versions in the shared folder.
const (
	Current  = "2026-02-17"
	Previous = "2025-01-12"
	// Oldest is the snapshot before Previous.
	Oldest = "2025-01-02"
)

// SharedDir returns the shared folder beside the repository.
func SharedDir(t testing.TB) string {
	t.Helper()
	if v := os.Getenv("ENTRYCHECK_SHARED"); v != "" {
		return v
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("datatest: no go.mod above the working directory")
		}
		dir = parent
	}
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if _, err := os.Stat(shared); err != nil {
		t.Fatalf("datatest: the shared folder must stand beside the repository (or set ENTRYCHECK_SHARED): %v", err)
	}
	return shared
}

// MatrixDir returns the directory of a matrix snapshot.
func MatrixDir(t testing.TB, version string) string {
	return filepath.Join(SharedDir(t), "dataset", "passport-index", version)
}

// GeoDir returns the directory of the world map's shapes.
func GeoDir(t testing.TB) string {
	return filepath.Join(SharedDir(t), "geo", "world-atlas-2.0.2")
}

// Lock returns the lock file embedded in the binary.
func Lock(t testing.TB) *dataset.Lock {
	t.Helper()
	l, err := dataset.DefaultLock()
	if err != nil {
		t.Fatalf("the embedded lock file: %v", err)
	}
	return l
}

// MatrixFiles are the three files of a snapshot directory.
var MatrixFiles = [...]string{"passport-index-tidy-iso3.csv", "passport-index-tidy-iso2.csv", "passport-index-tidy.csv"}

// CopySnapshot copies a snapshot's files into a temporary directory, for
// tests that change or pin them.
func CopySnapshot(t testing.TB, version string) string {
	t.Helper()
	src, dir := MatrixDir(t, version), t.TempDir()
	for _, name := range MatrixFiles {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// EditFile rewrites a file with edit, which must change it.
func EditFile(t testing.TB, path string, edit func(string) string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := edit(string(b))
	if edited == string(b) {
		t.Fatalf("the edit of %s changed nothing", path)
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Routes reads a snapshot's alpha-3 file with encoding/csv, independently
// of the dataset package: route "PASSPORT-DESTINATION" to its value, the
// diagonal left out.
func Routes(t testing.TB, version string) map[string]string {
	t.Helper()
	f, err := os.Open(filepath.Join(MatrixDir(t, version), MatrixFiles[0]))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range recs[1:] {
		if r[0] != r[1] {
			out[r[0]+"-"+r[1]] = r[2]
		}
	}
	return out
}

// loaded is one snapshot's evaluator, loaded once per test binary.
type loaded struct {
	once sync.Once
	ev   *evaluation.Evaluator
	err  error
}

// evaluators holds the loaded snapshots by version.
var evaluators sync.Map

// Evaluator returns an evaluator of the current snapshot, loaded once per test binary.
func Evaluator(t testing.TB) *evaluation.Evaluator {
	t.Helper()
	return EvaluatorOf(t, Current)
}

// EvaluatorOf returns an evaluator of a pinned snapshot in the shared
// folder, loaded once per test binary: for behaviour only an older
// snapshot's data shows (a conflict with an official statement).
func EvaluatorOf(t testing.TB, version string) *evaluation.Evaluator {
	t.Helper()
	dir, lock := MatrixDir(t, version), Lock(t)
	v, _ := evaluators.LoadOrStore(version, &loaded{})
	l := v.(*loaded)
	l.once.Do(func() {
		snap, err := dataset.Load(dir, lock, dataset.CuratedFS())
		if err == nil {
			l.ev = evaluation.New(snap)
		}
		l.err = err
	})
	if l.err != nil {
		t.Fatalf("loading the dataset %s: %v", version, l.err)
	}
	return l.ev
}

// FullRules returns curated rules with every field of
// entrycheck.RuleFields the curated layer keeps, one valid variant or item
// each, for tests that check that the import, the loader, the selection and
// every surface handle every field.
func FullRules() entrycheck.CuratedRules {
	src := entrycheck.Citation{Name: "Test source", URL: "https://example.gov/rules", RetrievedAt: entrycheck.Date{Year: 2026, Month: 11, Day: 22}}
	months, hours := 6, 24
	from, url := "entry", "https://example.gov/form"
	// The exemption runs until a day its source gives, as Ireland's does.
	until := entrycheck.Date{Year: 2099, Month: 12, Day: 31}
	return entrycheck.CuratedRules{
		PassportValidity: &entrycheck.Rule[[]entrycheck.PassportValidity]{Source: src,
			Value: []entrycheck.PassportValidity{{MinMonthsRemaining: &months, CountedFrom: &from, Text: "validity text"}}},
		BlankPages:   &entrycheck.Rule[[]entrycheck.BlankPages]{Source: src, Value: []entrycheck.BlankPages{{Pages: 2, Text: "blank pages text"}}},
		OnwardTicket: &entrycheck.Rule[[]entrycheck.OnwardTicket]{Source: src, Value: []entrycheck.OnwardTicket{{Required: entrycheck.OnwardRequired, Text: "onward text"}}},
		OtherHealth:  &entrycheck.Rule[[]entrycheck.HealthRule]{Source: src, Value: []entrycheck.HealthRule{{Topic: "polio", Text: "health text"}}},
		TWOV: &entrycheck.Rule[[]entrycheck.TWOVProgram]{Source: src,
			Value: []entrycheck.TWOVProgram{{Program: "airside transit", MaxHours: &hours, Text: "transit text"}}},
		ResidencePermitExemptions: &entrycheck.Rule[[]entrycheck.Exemption]{Source: src,
			Value: []entrycheck.Exemption{{Scope: entrycheck.Scope{Period: entrycheck.Period{EffectiveUntil: &until}},
				HoldersOf: []string{"USA"}, Document: entrycheck.DocumentVisa, Effect: entrycheck.VisaFree, Text: "exemption text"}}},
		ArrivalFormalities: &entrycheck.Rule[[]entrycheck.ArrivalFormality]{Source: src,
			Value: []entrycheck.ArrivalFormality{{Name: "arrival card", Kind: "arrival_card", When: "before_arrival", URL: &url, Text: "formality text"}}},
	}
}

// FullEntryRules returns entry rules with every rule field set, one item
// each (FullRules as they hold for every passport, and a yellow-fever
// rule), for tests that check that a surface shows every field
// (entrycheck.RuleFields).
func FullEntryRules() entrycheck.EntryRules {
	r := FullRules().For(entrycheck.Traveller{Passport: "USA", Requirement: entrycheck.VisaFree, On: entrycheck.Date{Year: 2026, Month: 11, Day: 27}})
	yes := true
	r.YellowFever = &entrycheck.YellowFeverRule{Value: entrycheck.YellowFever{Text: "yellow fever text"}, AppliesToThisPassport: &yes,
		AppliesBecause: "required for all travellers", Source: FullRules().PassportValidity.Source}
	r.Coverage = entrycheck.CoverageExtended
	return r
}
