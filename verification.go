package entrycheck

import "github.com/entrycheck/entrycheck/internal/locale"

// The fields of the curated layer that cite a source. A verification event
// names the records it concerns by destination and one of these fields.
const (
	FieldPassportValidity          = "passport_validity"
	FieldBlankPages                = "blank_pages"
	FieldOnwardTicket              = "onward_ticket"
	FieldOtherHealth               = "other_health"
	FieldTWOV                      = "twov"
	FieldResidencePermitExemptions = "residence_permit_exemptions"
	FieldArrivalFormalities        = "arrival_formalities"
	FieldApply                     = "apply"
	FieldYellowFever               = "yellow_fever"
	FieldOfficialStatement         = "official_statement"
	// FieldYellowFeverRiskList and FieldGroup are facts shared by every
	// destination; their records have no destination.
	FieldYellowFeverRiskList = "yellow_fever_risk_list"
	FieldGroup               = "group"
)

// CitedRecord is one cited fact of the curated layer: a destination's field
// and the source it was read from. The daily verification re-reads every
// record's source.
type CitedRecord struct {
	// Destination is an ISO3 code, empty for a shared fact.
	Destination string
	Field       string
	Source      Citation
}

// Key identifies the record: a field may cite several sources (a
// destination lists several portals), so the URL is part of it.
func (r CitedRecord) Key() RecordKey {
	return RecordKey{Destination: r.Destination, Field: r.Field, URL: r.Source.URL}
}

// RecordKey identifies a cited record.
type RecordKey struct{ Destination, Field, URL string }

// Why a destination's entry rules are not verified_official_sources
// (EntryRulesVerification.Reason).
const (
	// ReasonStoredCopy: a rule was read from a stored copy of unknown date
	// (or from a page not recorded as live) and never confirmed live.
	ReasonStoredCopy = "stored_copy"
	// ReasonAwaitingConfirmation: the verifier read the live page, and a
	// curator has not yet confirmed that it says what the rule says.
	ReasonAwaitingConfirmation = "awaiting_confirmation"
	// ReasonNotReverified: the oldest live reading is older than the
	// staleness threshold.
	ReasonNotReverified = "not_reverified"
	// ReasonFlagged: a cited page changed and awaits a curator's review.
	ReasonFlagged = "flagged"
)

// RecordState is the verification state of one record, computed from the
// verification events: the day its source was last found to say what the
// record says, and whether a change of the source awaits a curator.
type RecordState struct {
	LastVerified Date
	Flagged      bool
	// Live is set when LastVerified is a reading of the live page: the
	// curator's own (a citation read_from live) or the verifier's, confirmed
	// by a curator. A stored copy of unknown date verifies nothing.
	Live bool
	// Awaiting is set while the verifier's first live reading of the page
	// (its baseline) awaits a curator's confirmation.
	Awaiting bool
}

// Verification holds the state of records. A record it lacks stands as its
// citation says: read on the day it was retrieved, from the live page only
// when the citation says so, not flagged.
type Verification map[RecordKey]RecordState

// StateOf returns the state of r.
func (v Verification) StateOf(r CitedRecord) RecordState {
	if s, ok := v[r.Key()]; ok {
		return s
	}
	return InitialState(r.Source)
}

// InitialState is the state of a record before any event: as its citation says.
func InitialState(c Citation) RecordState {
	return RecordState{LastVerified: c.RetrievedAt, Live: c.ReadFrom == ReadFromLive}
}

// ReadWords says when the rules were last read and whether that reading
// verified them, in words: "last verified 2026-11-22", "read by a curator
// on 2026-11-22, not yet on the live page", or "never (no cited source)".
func (v EntryRulesVerification) ReadWords() string { return v.ReadWordsIn(English()) }

// ReadWordsIn is ReadWords in the language of c; the day stays in the
// form of the answer's dates (2026-11-22).
func (v EntryRulesVerification) ReadWordsIn(c *locale.Catalog) string {
	switch {
	case v.LastVerified == nil:
		return c.Text("words.read.never")
	case v.Reason == ReasonStoredCopy:
		return c.Text("words.read.stored_copy", "date", v.LastVerified.String())
	case v.Reason == ReasonAwaitingConfirmation:
		return c.Text("words.read.awaiting", "date", v.LastVerified.String())
	}
	return c.Text("words.read.verified", "date", v.LastVerified.String())
}
