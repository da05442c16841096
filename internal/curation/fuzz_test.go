package curation

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// FuzzDestinationNote imports a curator's destination note, from the real
// notes to any bytes, as Convert does for each file. A note is imported or
// refused with an error; the record of a note imported is one the project
// reads back strictly, finds valid, and writes out unchanged, so that the
// import never produces a layer the service would refuse to load.
func FuzzDestinationNote(f *testing.F) {
	notes := filepath.Join(datatest.SharedDir(f), "curation-v3")
	reg, err := country.New()
	if err != nil {
		f.Fatal(err)
	}
	list, err := convertGroups(filepath.Join(notes, dataset.GroupsFile), reg)
	if err != nil {
		f.Fatal(err)
	}
	groups := map[string]dataset.Group{}
	for _, g := range list {
		groups[g.Code] = g
	}
	for _, code := range []string{"FRA", "ARE", "GEO", "USA"} {
		b, err := os.ReadFile(filepath.Join(notes, dataset.DestinationsDir, code+".json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format":2,"destination":"FRA","name":"France","compiled_at":"2026-11-23","rules":{},"apply":null,"notes":""}`))
	f.Add([]byte(`{"format":2,"destination":"FRA","rules":{"blank_pages":{"value":null,"source":null},"twov":{}}}`))
	f.Fuzz(func(t *testing.T, note []byte) {
		// The file is named after the destination the note gives, so that
		// every note reaches the checks beyond the file name.
		var named struct{ Destination string }
		_ = json.Unmarshal(note, &named)
		name := dataset.DestinationsDir + "/" + named.Destination + ".json"
		record, err := destinationNote(note, name, "curation-v3", reg, groups)
		if err != nil {
			return
		}
		var d dataset.Destination
		if err := strictDecode(record, &d); err != nil {
			t.Fatalf("the imported record does not read back: %v\n%s", err, record)
		}
		if err := d.Validate(reg, groups); err != nil {
			t.Fatalf("the imported record read back is invalid: %v\n%s", err, record)
		}
		again, err := encode(&d)
		if err != nil || !bytes.Equal(again, record) {
			t.Fatalf("the imported record read back writes out otherwise (%v):\n%s\nthen\n%s", err, record, again)
		}
	})
}
