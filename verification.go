package entrycheck

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

// RecordState is the verification state of one record, computed from the
// verification events: the day its source was last found to say what the
// record says, and whether a change of the source awaits a curator.
type RecordState struct {
	LastVerified Date
	Flagged      bool
}

// Verification holds the state of records. A record it lacks stands as its
// citation says: read on the day it was retrieved, not flagged.
type Verification map[RecordKey]RecordState

// StateOf returns the state of r.
func (v Verification) StateOf(r CitedRecord) RecordState {
	if s, ok := v[r.Key()]; ok {
		return s
	}
	return RecordState{LastVerified: r.Source.RetrievedAt}
}
