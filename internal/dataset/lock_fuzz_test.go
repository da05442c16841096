package dataset_test

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"testing"

	"github.com/entrycheck/entrycheck/internal/dataset"
)

// FuzzParseLock reads lock files, from the reviewed one to any bytes. A
// refusal is a FileError naming the file; a lock file that parses writes
// out (Format) as a file that parses to the same pins, and Format is a
// fixed point: the pins of a build are exactly what its lock file says.
func FuzzParseLock(f *testing.F) {
	reviewed, err := os.ReadFile("matrix.lock")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(reviewed)
	lines := bytes.SplitAfter(reviewed, []byte("\n"))
	f.Add(bytes.Join(lines[len(lines)-8:], nil)) // one snapshot, no header
	f.Add(bytes.ReplaceAll(reviewed, []byte(" "), []byte("\t")))
	f.Add(bytes.ReplaceAll(reviewed, []byte("2025-01-02"), []byte("2025-02-30")))
	f.Add([]byte("2026-02-17 source https://example.org\n2026-02-17 source https://example.org\n"))
	f.Add([]byte("\r\n# comment\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := dataset.ParseLock("matrix.lock", data)
		if err != nil {
			var fe *dataset.FileError
			if !errors.As(err, &fe) || fe.File != "matrix.lock" {
				t.Fatalf("refusal %v (%T) is not a FileError of matrix.lock", err, err)
			}
			return
		}
		written := l.Format()
		again, err := dataset.ParseLock("written", written)
		if err != nil {
			t.Fatalf("the lock file Format writes does not parse: %v\n%s", err, written)
		}
		if !reflect.DeepEqual(again.Pins(), l.Pins()) {
			t.Fatalf("pins %+v written and read again are %+v", l.Pins(), again.Pins())
		}
		if !bytes.Equal(again.Format(), written) {
			t.Fatalf("Format is not a fixed point:\n%s\nthen\n%s", written, again.Format())
		}
	})
}
