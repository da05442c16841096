// Package curation imports the curators' source notes (the FORMAT.md layout
// of the shared curation-v2 folder) into the project's own curated format
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

// noteFormat is the format of the notes this package imports.
const noteFormat = 2

type srcRule[T any] struct {
	Value  variants[T]         `json:"value"`
	Source entrycheck.Citation `json:"source"`
}

// variants is a rule field's value: a list of variants, or one value
// (single records that, for error paths).
type variants[T any] struct {
	list   []T
	single bool
}

func (v *variants[T]) UnmarshalJSON(b []byte) error {
	if b = bytes.TrimSpace(b); len(b) > 0 && b[0] == '[' {
		return strictDecode(b, &v.list)
	}
	var one T
	if err := strictDecode(b, &one); err != nil {
		return err
	}
	v.list, v.single = []T{one}, true
	return nil
}

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

type srcRules struct {
	PassportValidity          *srcRule[entrycheck.PassportValidity] `json:"passport_validity"`
	BlankPages                *srcRule[entrycheck.BlankPages]       `json:"blank_pages"`
	OnwardTicket              *srcRule[entrycheck.OnwardTicket]     `json:"onward_ticket"`
	OtherHealth               *srcRule[entrycheck.HealthRule]       `json:"other_health"`
	TWOV                      *srcRule[entrycheck.TWOVProgram]      `json:"twov"`
	ResidencePermitExemptions *srcRule[entrycheck.Exemption]        `json:"residence_permit_exemptions"`
	ArrivalFormalities        *srcRule[entrycheck.ArrivalFormality] `json:"arrival_formalities"`
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
