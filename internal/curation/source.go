// Package curation imports the curators' source notes (the FORMAT.md layout
// of the shared curation folder) into the project's own curated format under
// dataset/curated, keeping every citation. It converts shapes only: it adds
// no fact, and a field the notes leave null stays null.
package curation

import "encoding/json"

// The curators' note format, as FORMAT.md describes it.

type srcCitation struct {
	Name        string `json:"name"`
	URL         string `json:"url"`
	RetrievedAt string `json:"retrieved_at"`
}

type srcRule[T any] struct {
	Value  T           `json:"value"`
	Source srcCitation `json:"source"`
}

type srcDestination struct {
	Destination string     `json:"destination"`
	Name        string     `json:"name"`
	CompiledAt  string     `json:"compiled_at"`
	Rules       srcRules   `json:"rules"`
	Apply       []srcApply `json:"apply"`
	Notes       string     `json:"notes"`
}

type srcRules struct {
	PassportValidity *srcRule[struct {
		MinMonthsRemaining int     `json:"min_months_remaining"`
		CountedFrom        *string `json:"counted_from"`
		Text               string  `json:"text"`
	}] `json:"passport_validity"`
	BlankPages *srcRule[struct {
		Pages int    `json:"pages"`
		Text  string `json:"text"`
	}] `json:"blank_pages"`
	OnwardTicket *srcRule[struct {
		// Required is true, false or "may_be_asked".
		Required json.RawMessage `json:"required"`
		Text     string          `json:"text"`
	}] `json:"onward_ticket"`
	OtherHealth *srcRule[[]struct {
		Topic string `json:"topic"`
		Text  string `json:"text"`
	}] `json:"other_health"`
	TWOV *srcRule[[]struct {
		Program     string `json:"program"`
		MaxHours    *int   `json:"max_hours"`
		AirsideOnly *bool  `json:"airside_only"`
		// Eligible is "all", a list of ISO3 codes, or a description.
		Eligible json.RawMessage `json:"eligible"`
		Text     string          `json:"text"`
	}] `json:"twov"`
	ResidencePermitExemptions *srcRule[[]struct {
		HoldersOf   []string `json:"holders_of"`
		Document    string   `json:"document"`
		Effect      string   `json:"effect"`
		MaxStayDays *int     `json:"max_stay_days"`
		Text        string   `json:"text"`
	}] `json:"residence_permit_exemptions"`
}

type srcApply struct {
	Requirements []string    `json:"requirements"`
	URL          string      `json:"url"`
	Kind         string      `json:"kind"`
	Note         string      `json:"note"`
	Source       srcCitation `json:"source"`
}
