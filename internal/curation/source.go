// Package curation imports the curators' source notes (the FORMAT.md layout
// of the shared curation-v3 folder) into the project's own curated format
// under internal/dataset/curated, keeping every citation. It converts shapes only: it
// adds no fact, and a field the notes leave null stays null.
package curation

import (
	"bytes"
	"encoding/json"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

// The curators' note format 2, as FORMAT.md describes it. Its citations,
// facts, applies_to and apply entries decode into the project's own types;
// only a rule field's value differs: one value or a list of variants.

// NotesDir is where the curators' notes stand, from the repository's root.
const NotesDir = "../shared/curation-v3"

// noteFormat is the format of the notes this package imports.
const noteFormat = 2

func strictDecode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

type srcDestination struct {
	Format      int                     `json:"format"`
	Destination string                  `json:"destination"`
	Name        string                  `json:"name"`
	CompiledAt  entrycheck.Date         `json:"compiled_at"`
	Rules       srcRules                `json:"rules"`
	Apply       []entrycheck.ApplyEntry `json:"apply"`
	Notes       string                  `json:"notes"`
}

// srcRules are a note's rule fields. A field's value in a note is a list
// of variants or items, as in the project's format, or one value, which
// becomes a list of one; single records the fields given so (for error
// paths). The fields themselves are those of dataset.Rules.
type srcRules struct {
	rules  dataset.Rules
	single map[string]bool
}

func (s *srcRules) UnmarshalJSON(b []byte) error {
	var fields map[string]*struct {
		Value  json.RawMessage `json:"value"`
		Source json.RawMessage `json:"source"`
	}
	if err := strictDecode(b, &fields); err != nil {
		return err
	}
	s.single = map[string]bool{}
	for name, f := range fields {
		if f != nil && !bytes.HasPrefix(bytes.TrimSpace(f.Value), []byte("[")) {
			f.Value = append(append([]byte("["), f.Value...), ']')
			s.single[name] = true
		}
	}
	lists, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	return strictDecode(lists, &s.rules)
}

type srcGroups struct {
	Format int             `json:"format"`
	Groups []dataset.Group `json:"groups"`
}

// srcCitation is a format-1 source, read only for the yellow-fever table.
type srcCitation struct {
	Name        string `json:"name"`
	URL         string `json:"url"`
	RetrievedAt string `json:"retrieved_at"`
}
