package entrycheck

import (
	"strings"
	"time"
)

// Purposes of travel the service answers for.
const (
	PurposeTourism  = "tourism"
	PurposeBusiness = "business"
)

// GroupSchengen is the group code accepted for a visa or residence permit of
// any Schengen state.
const GroupSchengen = "SCHENGEN"

// MaxHeldDocuments bounds residence_permits_of and visas_of.
const MaxHeldDocuments = 20

// MaxFreeTextLength bounds the free-text fallbacks.
const MaxFreeTextLength = 500

// SplitCodes splits a comma-separated list of codes as the query parameters
// and flags give it, trimming spaces; an empty string gives nil. Empty items
// are kept, so that validation can report them.
func SplitCodes(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// CheckRequest asks whether a holder of Passport may enter Destination.
// Codes are ISO 3166-1 alpha-3, any letter case. Empty optional fields take
// the defaults listed in the result's defaults_applied.
type CheckRequest struct {
	Passport    string
	Destination string
	Transit     string
	Purpose     string
	// ResidencePermitsOf and VisasOf list the countries (or the SCHENGEN
	// group) whose residence permits and visas the traveller holds.
	ResidencePermitsOf []string
	VisasOf            []string
	// ResidencePermitsText and VisasHeldText are free-text fallbacks. They are
	// never interpreted; the result echoes them in its assumptions.
	ResidencePermitsText string
	VisasHeldText        string
	// RequestID identifies the request; the evaluator makes one when empty.
	RequestID string
}

// CheckResult is the answer to one check (spec 2.1). It is computed by the
// evaluation core only; adapters render it and never change it.
type CheckResult struct {
	Passport               Country                `json:"passport"`
	Destination            Country                `json:"destination"`
	Requirement            Requirement            `json:"requirement"`
	RequirementLabel       string                 `json:"requirement_label"`
	AllowedStayDays        Days                   `json:"allowed_stay_days"`
	Action                 Action                 `json:"action"`
	Apply                  *Apply                 `json:"apply,omitempty"`
	ExemptionApplied       *AppliedExemption      `json:"exemption_applied,omitempty"`
	EntryRules             EntryRules             `json:"entry_rules"`
	Transit                *Transit               `json:"transit,omitempty"`
	Assumptions            []string               `json:"assumptions"`
	DefaultsApplied        []Default              `json:"defaults_applied"`
	VerdictVerification    VerdictVerification    `json:"verdict_verification"`
	EntryRulesVerification EntryRulesVerification `json:"entry_rules_verification"`
	DatasetVersion         string                 `json:"dataset_version"`
	EvaluatedAt            time.Time              `json:"evaluated_at"`
	RequestID              string                 `json:"request_id"`
	Source                 Source                 `json:"source"`
	Disclaimer             string                 `json:"disclaimer"`
}

// AppliedExemption records a curated exemption that changed the matrix
// verdict because the traveller holds a qualifying visa or residence permit.
type AppliedExemption struct {
	// MatrixRequirement is what the matrix says without the exemption.
	MatrixRequirement Requirement `json:"matrix_requirement"`
	// HeldDocument says which held document qualified, e.g. "residence_permit of USA".
	HeldDocument string    `json:"held_document"`
	Exemption    Exemption `json:"exemption"`
	Source       Citation  `json:"source"`
}

// Transit is the advisory lookup for a transit country.
type Transit struct {
	Country          Country     `json:"country"`
	Requirement      Requirement `json:"requirement"`
	RequirementLabel string      `json:"requirement_label"`
	AllowedStayDays  Days        `json:"allowed_stay_days"`
	// Programs are the transit country's transit-without-visa programmes,
	// each with whether this passport is eligible (nil: read the text).
	Programs       []TransitProgram `json:"programs"`
	ProgramsSource *Citation        `json:"programs_source"`
	Coverage       Coverage         `json:"coverage"`
	Note           string           `json:"note"`
}

// TransitProgram is a transit-without-visa programme with this passport's eligibility.
type TransitProgram struct {
	TWOVProgram
	EligibleForThisPassport *bool `json:"eligible_for_this_passport"`
}

// Default records one default the evaluation applied because the request left it open.
type Default struct {
	Field  string `json:"field"`
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

// Verdict-verification statuses. The verdict always derives from the
// secondary matrix, so it is never claimed as officially verified.
const (
	VerdictSecondarySourceOnly = "secondary_source_only"
	VerdictNeedsReview         = "needs_review"
)

// VerdictVerification covers the base visa verdict.
type VerdictVerification struct {
	Status string `json:"status"`
	Note   string `json:"note"`
	// OfficialStatements are curated official statements about this route's
	// requirement, each marked as agreeing with the matrix or not.
	OfficialStatements []CheckedStatement `json:"official_statements"`
}

// CheckedStatement is an official statement compared with the matrix verdict.
type CheckedStatement struct {
	Requirement      Requirement `json:"requirement"`
	AllowedStayDays  Days        `json:"allowed_stay_days"`
	Text             string      `json:"text"`
	Source           Citation    `json:"source"`
	AgreesWithMatrix bool        `json:"agrees_with_matrix"`
}

// Entry-rules verification statuses.
const (
	RulesVerifiedOfficialSources = "verified_official_sources"
	RulesStale                   = "stale"
	RulesNotCurated              = "not_curated"
	RulesNeedsReview             = "needs_review"
)

// StaleAfterDays is how old the oldest citation of a destination may be
// before its entry rules are reported as stale. Sources are re-checked daily,
// so a month without a successful re-check means the verifier has been
// failing for weeks and the rules must not be presented as current.
const StaleAfterDays = 30

// EntryRulesVerification covers the curated entry-rules layer. Its status is
// computed from the citations' dates, review flags and the clock.
type EntryRulesVerification struct {
	Status         string `json:"status"`
	LastVerified   *Date  `json:"last_verified"`
	StalenessDays  Days   `json:"staleness_days"`
	StaleAfterDays int    `json:"stale_after_days"`
	// FlaggedFields lists rule fields a curator must review.
	FlaggedFields []string `json:"flagged_fields"`
	Note          string   `json:"note"`
}

// Source is the provenance of the matrix verdict.
type Source struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	URL  string `json:"url"`
	// Commit is the source repository's commit of the snapshot, omitted
	// when not known.
	Commit   string `json:"commit,omitempty"`
	License  string `json:"license"`
	Snapshot string `json:"snapshot"`
	// MatrixValue is the raw value of the route in the matrix (for example
	// "60", "visa free", "e-visa"), nil when the route is not in the matrix.
	MatrixValue *string `json:"matrix_value"`
}
