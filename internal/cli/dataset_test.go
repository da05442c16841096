package cli_test

import (
	"cmp"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/cli"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// requirementOf names a matrix value's requirement as the API does.
func requirementOf(v string) string {
	if _, err := strconv.Atoi(v); err == nil {
		return "visa_free"
	}
	return strings.NewReplacer(" ", "_", "-", "_").Replace(v)
}

type diffJSON struct {
	Routes, Changed int
	ByRequirement   []struct {
		Key   string
		Count int
	} `json:"by_requirement"`
	Destinations []struct {
		Key, Name string
		Count     int
	}
	Sample []struct{ Passport, Destination, From, To string }
}

func TestDatasetDiff(t *testing.T) {
	from, to := datatest.Previous, datatest.Current
	before, after := datatest.Routes(t, from), datatest.Routes(t, to)
	byReq, byDest := map[string]int{}, map[string]int{}
	changed := 0
	for route, v := range after {
		if before[route] == v {
			continue
		}
		changed++
		byReq[requirementOf(before[route])+" -> "+requirementOf(v)]++
		byDest[route[4:]]++
	}
	if changed != 2935 {
		t.Fatalf("the files differ in %d routes, want 2935: the shared snapshots changed", changed)
	}
	for route, want := range map[string][2]string{"DEU-GBR": {"180", "eta"}, "USA-BRA": {"90", "e-visa"}, "IND-PHL": {"visa required", "14"}} {
		if got := [2]string{before[route], after[route]}; got != want {
			t.Fatalf("%s: %v in the files, want %v", route, got, want)
		}
	}

	code, out, errOut := run(t, "dataset", "diff", datatest.MatrixDir(t, from), datatest.MatrixDir(t, to), "--json")
	if code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var d diffJSON
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if d.Routes != 39402 || d.Changed != changed || len(d.ByRequirement) != len(byReq) || len(d.Destinations) != 10 || len(d.Sample) != 10 {
		t.Fatalf("summary: %d of %d routes, %d transitions (want %d), %d destinations, %d samples", d.Changed, d.Routes, len(d.ByRequirement), len(byReq), len(d.Destinations), len(d.Sample))
	}
	for _, c := range d.ByRequirement {
		if byReq[c.Key] != c.Count {
			t.Errorf("%s: %d, the files say %d", c.Key, c.Count, byReq[c.Key])
		}
	}
	type count struct {
		key string
		n   int
	}
	var dests []count
	for k, n := range byDest {
		dests = append(dests, count{k, n})
	}
	slices.SortFunc(dests, func(a, b count) int { return cmp.Or(cmp.Compare(b.n, a.n), cmp.Compare(a.key, b.key)) })
	for i, c := range d.Destinations {
		if c.Key != dests[i].key || c.Count != dests[i].n {
			t.Errorf("destination %d: %s %d, the files say %s %d", i+1, c.Key, c.Count, dests[i].key, dests[i].n)
		}
	}
	for _, s := range d.Sample {
		route := s.Passport + "-" + s.Destination
		if before[route] != s.From || after[route] != s.To || s.From == s.To {
			t.Errorf("sample %s: %q -> %q, the files say %q -> %q", route, s.From, s.To, before[route], after[route])
		}
	}
	if _, again, _ := run(t, "dataset", "diff", datatest.MatrixDir(t, from), datatest.MatrixDir(t, to), "--json"); again != out {
		t.Error("two diffs of the same directories differ")
	}

	code, out, _ = run(t, "dataset", "diff", datatest.MatrixDir(t, from), datatest.MatrixDir(t, to))
	for _, want := range []string{"2,935 of 39,402 routes differ", "visa_free -> eta: " + strconv.Itoa(byReq["visa_free -> eta"]), "ISR Israel", "Sample:"} {
		if code != cli.ExitOK || !strings.Contains(out, want) {
			t.Errorf("exit %d, output lacks %q:\n%s", code, want, out)
		}
	}
	code, out, _ = run(t, "dataset", "diff", datatest.MatrixDir(t, datatest.Oldest), datatest.MatrixDir(t, from))
	if code != cli.ExitOK || !strings.Contains(out, "819 of 39,402 routes differ") || !strings.Contains(out, "e_visa -> eta: 819") {
		t.Errorf("exit %d, %s", code, out)
	}
}

func TestDatasetDiffRefusals(t *testing.T) {
	// Diffing comes before pinning: an unpinned but valid directory is fine.
	unpinned := datatest.CopySnapshot(t, datatest.Current)
	datatest.EditFile(t, filepath.Join(unpinned, "passport-index-tidy.csv"), func(s string) string { return strings.ReplaceAll(s, "Algeria", "Algerja") })
	if code, out, errOut := run(t, "dataset", "diff", datatest.MatrixDir(t, datatest.Current), unpinned); code != cli.ExitOK || !strings.Contains(out, " 0 of 39,402 routes differ") {
		t.Errorf("an unpinned directory: exit %d, %s%s", code, out, errOut)
	}
	broken := datatest.CopySnapshot(t, datatest.Current)
	datatest.EditFile(t, filepath.Join(broken, "passport-index-tidy-iso3.csv"), func(s string) string {
		return strings.Replace(s, "AFG,DZA,visa required", "AFG,DZA,visa requirea", 1)
	})
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"dataset", "diff", broken}, cli.ExitUsage, "Usage"},
		{[]string{"dataset"}, cli.ExitUsage, "Usage"},
		{[]string{"dataset", "diff", datatest.MatrixDir(t, datatest.Current), broken}, cli.ExitFailure, "passport-index-tidy-iso3.csv line 3: unknown requirement value"},
		{[]string{"dataset", "diff", filepath.Join(t.TempDir(), "none"), broken}, cli.ExitFailure, "none"},
	} {
		code, _, errOut := run(t, c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, %q; want %d and %q", c.args, code, errOut, c.code, c.want)
		}
	}
}

func TestDatasetPin(t *testing.T) {
	dir := datatest.CopySnapshot(t, datatest.Current)
	lock := filepath.Join(t.TempDir(), "matrix.lock")
	pin := []string{"dataset", "pin", dir, "--version", "2099-01-01", "--source", "https://example.org/passport-index", "--commit", "abc1234", "--license", "MIT", "--lock", lock}

	code, out, errOut := run(t, pin...)
	if code != cli.ExitOK || !strings.Contains(out, "pinned 2099-01-01 in "+lock) || !strings.Contains(out, "2099-01-01 commit abc1234") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	l, err := dataset.ReadLock(lock)
	if err != nil || !slices.Equal(l.Versions(), []string{"2099-01-01"}) {
		t.Fatalf("the written lock: %v, %v", l, err)
	}
	if code, out, _ := run(t, pin...); code != cli.ExitOK || !strings.Contains(out, "already pinned") {
		t.Errorf("pinning again: exit %d, %s", code, out)
	}

	// The copy loads under its new pin, by flag or environment, without a rebuild.
	code, out, errOut = run(t, "check", "DEU", "GBR", "--data", dir, "--data-lock", lock, "--json")
	var r struct {
		Requirement    string `json:"requirement"`
		DatasetVersion string `json:"dataset_version"`
		Source         struct{ URL, Commit, License, Snapshot string }
	}
	if err := json.Unmarshal([]byte(out), &r); code != cli.ExitOK || err != nil {
		t.Fatalf("check on the pinned copy: exit %d, %v, %s", code, err, errOut)
	}
	if r.Requirement != "eta" || r.DatasetVersion != "2099-01-01" || r.Source.URL != "https://example.org/passport-index" || r.Source.Commit != "abc1234" || r.Source.Snapshot != "2099-01-01" {
		t.Errorf("check on the pinned copy: %+v", r)
	}
	t.Setenv("ENTRYCHECK_DATA_LOCK", lock)
	if code, out, errOut := run(t, "check", "DEU", "GBR", "--data", dir, "--json"); code != cli.ExitOK || !strings.Contains(out, `"dataset_version": "2099-01-01"`) {
		t.Errorf("ENTRYCHECK_DATA_LOCK: exit %d, %s", code, errOut)
	}
	// That lock does not pin the real previous snapshot.
	if code, _, errOut := run(t, "check", "DEU", "GBR", "--data", datatest.MatrixDir(t, datatest.Previous), "--json"); code != cli.ExitFailure || !strings.Contains(errOut, "matches no pinned snapshot (pinned: 2099-01-01)") {
		t.Errorf("an unpinned snapshot: exit %d, %s", code, errOut)
	}
}

func TestDatasetPinRefusals(t *testing.T) {
	dir := datatest.CopySnapshot(t, datatest.Current)
	lock := filepath.Join(t.TempDir(), "matrix.lock")
	args := func(dir, version string, extra ...string) []string {
		return append([]string{"dataset", "pin", dir, "--version", version, "--source", "https://example.org/p", "--license", "MIT", "--lock", lock}, extra...)
	}
	if code, _, errOut := run(t, args(dir, "2099-01-01")...); code != cli.ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	broken := datatest.CopySnapshot(t, datatest.Current)
	datatest.EditFile(t, filepath.Join(broken, "passport-index-tidy.csv"), func(s string) string {
		return strings.Replace(s, "Afghanistan,Algeria,", "Afghanistan,Algiers,", 1)
	})
	for _, c := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"malformed date", args(dir, "2099-1-1"), cli.ExitUsage, `version "2099-1-1" is not a date written YYYY-MM-DD`},
		{"impossible date", args(dir, "2099-02-30"), cli.ExitUsage, "YYYY-MM-DD"},
		{"no version", []string{"dataset", "pin", dir, "--source", "https://example.org/p", "--license", "MIT"}, cli.ExitUsage, "needs --version, --source and --license"},
		{"no directory", []string{"dataset", "pin", "--version", "2099-01-01"}, cli.ExitUsage, "Usage"},
		{"http source", args(dir, "2099-01-02", "--source", "http://example.org/p"), cli.ExitUsage, "not an https:// URL"},
		{"bad commit", args(dir, "2099-01-02", "--commit", "main"), cli.ExitUsage, `commit "main"`},
		{"other hashes", args(datatest.MatrixDir(t, datatest.Previous), "2099-01-01"), cli.ExitFailure, "version 2099-01-01 is already pinned with other hashes"},
		{"same files, other version", args(dir, "2099-01-02"), cli.ExitFailure, "already pinned as version 2099-01-01"},
		{"invalid rows", args(broken, "2099-01-03"), cli.ExitFailure, "passport-index-tidy.csv line 202"},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := run(t, c.args...)
			if code != c.code || !strings.Contains(errOut, c.want) || out != "" {
				t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, out, errOut, c.code, c.want)
			}
		})
	}
	if l, err := dataset.ReadLock(lock); err != nil || !slices.Equal(l.Versions(), []string{"2099-01-01"}) {
		t.Errorf("the lock after the refusals: %v, %v", l.Versions(), err)
	}
}
