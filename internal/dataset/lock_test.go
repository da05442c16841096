package dataset_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

func TestEmbeddedLock(t *testing.T) {
	l := datatest.Lock(t)
	if got := l.Versions(); !slices.Equal(got, []string{datatest.Current, datatest.Previous, datatest.Oldest}) {
		t.Fatalf("versions %v", got)
	}
	want := map[string]dataset.Provenance{
		"2026-02-17": {Version: "2026-02-17", Source: "https://github.com/imorte/passport-index-data", Commit: "9c59780", License: "MIT"},
		"2025-01-12": {Version: "2025-01-12", Source: "https://github.com/ilyankou/passport-index-dataset", License: "MIT"},
		"2025-01-02": {Version: "2025-01-02", Source: "https://github.com/ilyankou/passport-index-dataset", License: "MIT"},
	}
	for _, p := range l.Pins() {
		if p.Provenance != want[p.Version] || len(p.SHA256) != 3 {
			t.Errorf("pin %+v, want %+v and three files", p, want[p.Version])
		}
	}
	// The repository's file is in the canonical form that pin writes.
	b, err := os.ReadFile("matrix.lock")
	if err != nil {
		t.Fatal(err)
	}
	if string(l.Format()) != string(b) {
		t.Errorf("matrix.lock is not as Format writes it:\n%s", l.Format())
	}
	again, err := dataset.ParseLock("again", l.Format())
	if err != nil || !slices.EqualFunc(again.Pins(), l.Pins(), func(a, b dataset.Pin) bool {
		return a.Provenance == b.Provenance && a.SHA256[matrixFiles[0]] == b.SHA256[matrixFiles[0]]
	}) {
		t.Errorf("Format does not parse back: %v", err)
	}
}

func TestMalformedLockIsRefused(t *testing.T) {
	const h = "1111111111111111111111111111111111111111111111111111111111111111"
	good := "# comment\n\n" +
		"2099-01-01 passport-index-tidy-iso3.csv " + h + "\n" +
		"2099-01-01 passport-index-tidy-iso2.csv " + h + "\n" +
		"2099-01-01 passport-index-tidy.csv " + h + "\n" +
		"2099-01-01 source https://example.org/data\n" +
		"2099-01-01 license MIT\n"
	if l, err := dataset.ParseLock("good", []byte(good)); err != nil || len(l.Pins()) != 1 || l.Pins()[0].Commit != "" {
		t.Fatalf("a good lock file: %v", err)
	}
	cases := []struct{ name, text, want string }{
		{"two fields", good + "2099-01-01 license\n", "line 8: 2 fields"},
		{"four fields", good + "2099-01-01 commit abc1234 x\n", "line 8: 4 fields"},
		{"bad date", strings.Replace(good, "2099-01-01 license", "2099-13-01 license", 1), `line 7: version "2099-13-01" is not a date`},
		{"short hash", strings.Replace(good, "iso2.csv "+h, "iso2.csv abc", 1), "line 4: sha256 \"abc\" of passport-index-tidy-iso2.csv"},
		{"upper-case hash", strings.Replace(good, "iso3.csv "+h, "iso3.csv "+strings.Repeat("A", 64), 1), "line 3: sha256"},
		{"unknown key", good + "2099-01-01 licence MIT\n", `line 8: unknown key "licence"`},
		{"http source", strings.Replace(good, "https://example.org", "http://example.org", 1), "line 6: source"},
		{"bad commit", good + "2099-01-01 commit main\n", `line 8: commit "main"`},
		{"twice", good + "2099-01-01 license MIT\n", "line 8: 2099-01-01 license is given twice"},
		{"missing file", strings.Replace(good, "2099-01-01 passport-index-tidy.csv "+h+"\n", "", 1), "line 3: snapshot 2099-01-01 has no passport-index-tidy.csv line"},
		{"missing licence", strings.Replace(good, "2099-01-01 license MIT\n", "", 1), "snapshot 2099-01-01 has no license line"},
		{"same files twice", good + strings.ReplaceAll(good, "2099-01-01", "2099-01-02"), "snapshot 2099-01-02 pins the same files as 2099-01-01"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := dataset.ParseLock("test.lock", []byte(c.text))
			if err == nil || !strings.HasPrefix(err.Error(), "test.lock line ") || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one naming the file and %q", err, c.want)
			}
		})
	}
}

// pinCopy pins a copy of the current snapshot as version 2099-01-01 into a
// new lock file and returns the copy and the lock read back from the file:
// a new snapshot needs no Go change.
func pinCopy(t *testing.T) (dir string, lock *dataset.Lock) {
	t.Helper()
	dir = copySnapshot(t)
	p := dataset.Provenance{Version: "2099-01-01", Source: "https://example.org/passport-index", License: "MIT"}
	pin, err := dataset.SnapshotPin(dir, p, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	l := &dataset.Lock{}
	if added, err := l.Add(pin); !added || err != nil {
		t.Fatalf("Add: %v, %v", added, err)
	}
	path := filepath.Join(t.TempDir(), "matrix.lock")
	if err := os.WriteFile(path, l.Format(), 0o644); err != nil {
		t.Fatal(err)
	}
	lock, err = dataset.ReadLock(path)
	if err != nil {
		t.Fatal(err)
	}
	return dir, lock
}

func TestPinnedCopyLoads(t *testing.T) {
	dir, lock := pinCopy(t)
	m, err := dataset.LoadMatrix(dir, lock, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	if p := m.Provenance(); m.Version() != "2099-01-01" || p.Source != "https://example.org/passport-index" || p.License != "MIT" || p.Commit != "" {
		t.Errorf("loaded %s with provenance %+v", m.Version(), p)
	}
	// Without its pin the same copy is refused.
	if _, err := dataset.LoadMatrix(dir, &dataset.Lock{}, registry(t)); err == nil || !strings.Contains(err.Error(), "pinned: none") {
		t.Errorf("an empty lock: %v, want a refusal", err)
	}
}

func TestPinnedCopyWithOneChangedByteIsRefused(t *testing.T) {
	// A byte of a Germany row: DEU -> DXU, DE -> DX, Germany -> GXrmany.
	rowOf := map[string]string{matrixFiles[0]: "\nDEU,", matrixFiles[1]: "\nDE,", matrixFiles[2]: "\nGermany,"}
	for _, file := range matrixFiles {
		t.Run(file, func(t *testing.T) {
			dir, lock := pinCopy(t)
			datatest.EditFile(t, filepath.Join(dir, file), func(s string) string {
				i := strings.Index(s, rowOf[file])
				if i < 0 {
					t.Fatalf("no Germany row in %s", file)
				}
				return s[:i+2] + "X" + s[i+3:]
			})
			_, err := dataset.LoadMatrix(dir, lock, registry(t))
			if err == nil || !strings.HasPrefix(err.Error(), file+" line") {
				t.Errorf("error %v, want one naming %s", err, file)
			}
		})
	}
	// A change that keeps every row valid is caught by the pin.
	dir, lock := pinCopy(t)
	datatest.EditFile(t, filepath.Join(dir, "passport-index-tidy.csv"), func(s string) string { return strings.ReplaceAll(s, "Algeria", "Algerja") })
	_, err := dataset.LoadMatrix(dir, lock, registry(t))
	if err == nil || !strings.Contains(err.Error(), "passport-index-tidy.csv: sha256") || !strings.Contains(err.Error(), "snapshot 2099-01-01 pins") {
		t.Errorf("error %v, want the pin mismatch of passport-index-tidy.csv", err)
	}
}

func TestLockAddRefusals(t *testing.T) {
	dir, lock := pinCopy(t)
	pin, err := dataset.SnapshotPin(dir, dataset.Provenance{Version: "2099-01-01", Source: "https://example.org/passport-index", License: "MIT"}, registry(t))
	if err != nil {
		t.Fatal(err)
	}
	if added, err := lock.Add(pin); added || err != nil {
		t.Errorf("the same pin again: added %v, %v; want no change", added, err)
	}
	other := pin
	other.SHA256 = map[string]string{}
	for k, v := range pin.SHA256 {
		other.SHA256[k] = v
	}
	other.SHA256[matrixFiles[1]] = strings.Repeat("0", 64)
	if _, err := lock.Add(other); err == nil || !strings.Contains(err.Error(), "already pinned with other hashes") {
		t.Errorf("other hashes: %v", err)
	}
	moved := pin
	moved.Version = "2099-02-01"
	if _, err := lock.Add(moved); err == nil || !strings.Contains(err.Error(), "already pinned as version 2099-01-01") {
		t.Errorf("the same files under another version: %v", err)
	}
	bad := pin
	bad.Version = "2099-1-1"
	if _, err := lock.Add(bad); err == nil || !strings.Contains(err.Error(), "YYYY-MM-DD") {
		t.Errorf("a malformed date: %v", err)
	}
	if got := lock.Versions(); !slices.Equal(got, []string{"2099-01-01"}) {
		t.Errorf("versions after the refusals: %v", got)
	}
}

// TestLockAt: no path is the lock built in; a path is read, and a missing
// file is an error that names it.
func TestLockAt(t *testing.T) {
	l, err := dataset.LockAt("")
	if err != nil || len(l.Versions()) == 0 {
		t.Fatalf("the built-in lock: %v %v", l, err)
	}
	if _, err := dataset.LockAt("from-flag.lock"); err == nil || !strings.Contains(err.Error(), "from-flag.lock") {
		t.Errorf("a missing lock file: %v", err)
	}
}
