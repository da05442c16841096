package entrycheck

import "time"

// PassportMatrix is the requirement of one passport for every destination the
// matrix covers (spec 2.3). Each entry is a projection of the full check
// result for that route, computed by the same evaluation.
type PassportMatrix struct {
	Passport       Country `json:"passport"`
	DatasetVersion string  `json:"dataset_version"`
	// EvaluatedAt and RequestID are always set in an answer; a static copy
	// of the matrix, which belongs to no request, leaves them out.
	EvaluatedAt time.Time `json:"evaluated_at,omitzero"`
	RequestID   string    `json:"request_id,omitempty"`
	// VerdictAge is the date every verdict of the matrix is as of.
	VerdictAge   VerdictAge          `json:"verdict_age"`
	Counts       map[Requirement]int `json:"counts" jsonschema:"Destinations per requirement value."`
	Destinations []MatrixEntry       `json:"destinations"`
	Source       Source              `json:"source"`
	Disclaimer   string              `json:"disclaimer"`
}

// MatrixEntry is the answer for one destination of a passport matrix.
type MatrixEntry struct {
	Destination Country `json:"destination"`
	Verdict
	Action                    Action `json:"action"`
	Apply                     *Apply `json:"apply,omitempty"`
	VerdictVerificationStatus string `json:"verdict_verification_status"`
	// CorroboratedBy lists the official statements in force that agree
	// with the verdict (VerdictVerification.CorroboratedBy); absent when
	// none does.
	CorroboratedBy               []string `json:"corroborated_by,omitempty" jsonschema:"The ids of the official statements in force that agree with the verdict (the route is corroborated); absent when none does or one contradicts it."`
	EntryRulesVerificationStatus string   `json:"entry_rules_verification_status"`
	Coverage                     Coverage `json:"coverage"`
}
