package entrycheck

import (
	"slices"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck/internal/locale"
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
	// TravelDate is the day of travel that official statements are
	// compared on; zero means the day of evaluation. Trips set it to a
	// leg's arrival.
	TravelDate Date
	// RequestID identifies the request; the evaluator makes one when empty.
	RequestID string
	// Language is the language the client asked the answer's words in: a
	// BCP 47 tag (fr, pt-BR), given explicitly (the lang parameter, the
	// MCP language argument). AcceptLanguage is an HTTP Accept-Language
	// header, read when Language is empty. A language the service does
	// not speak gives English, listed in defaults_applied; codes and field
	// names never change with the language.
	Language       string
	AcceptLanguage string
}

// CheckResult is the answer to one check (spec 2.1). It is computed by the
// evaluation core only; adapters render it and never change it.
type CheckResult struct {
	Passport    Country `json:"passport"`
	Destination Country `json:"destination"`
	Verdict
	Action Action `json:"action"`
	// ActionText says in words what the traveller does next
	// (Action.SentenceIn), in Language.
	ActionText             string                 `json:"action_text" jsonschema:"What the traveller does next, in one sentence in the language of the answer: for example \"Apply before you travel: an e-visa is required.\" or, in French, \"Faites la demande avant votre voyage : un visa électronique est requis.\""`
	Apply                  *Apply                 `json:"apply,omitempty"`
	ExemptionApplied       *AppliedExemption      `json:"exemption_applied,omitempty"`
	EntryRules             EntryRules             `json:"entry_rules"`
	Transit                *Transit               `json:"transit,omitempty"`
	Assumptions            []string               `json:"assumptions"`
	DefaultsApplied        []Default              `json:"defaults_applied"`
	VerdictVerification    VerdictVerification    `json:"verdict_verification"`
	EntryRulesVerification EntryRulesVerification `json:"entry_rules_verification"`
	DatasetVersion         string                 `json:"dataset_version" jsonschema:"The matrix snapshot date."`
	EvaluatedAt            time.Time              `json:"evaluated_at"`
	RequestID              string                 `json:"request_id"`
	Source                 Source                 `json:"source"`
	Disclaimer             string                 `json:"disclaimer" jsonschema:"Present it with the answer."`
	// Language is the code of the language of the answer's words
	// (requirement_label, action_text, notes, assumptions, reasons,
	// disclaimer): en, es, fr, ...
	Language string `json:"language" jsonschema:"The code of the language the answer's words are in (see the lang parameter)."`
}

// AppliedExemption records a curated exemption that changed the matrix
// verdict because the traveller holds a qualifying visa or residence permit.
type AppliedExemption struct {
	// MatrixRequirement is what the matrix says without the exemption.
	MatrixRequirement Requirement `json:"matrix_requirement"`
	// HeldDocument says which held document qualified, e.g. "residence_permit of USA".
	HeldDocument string    `json:"held_document" jsonschema:"Which held document qualified, e.g. 'visa of USA'."`
	Exemption    Exemption `json:"exemption"`
	Source       Citation  `json:"source"`
}

// Transit is the advisory lookup for a transit country.
type Transit struct {
	Country Country `json:"country"`
	Verdict
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
	EligibleForThisPassport *bool `json:"eligible_for_this_passport" jsonschema:"null when only a description exists: read the text."`
}

// Default records one default the evaluation applied because the request left it open.
type Default struct {
	Field  string `json:"field" jsonschema:"The request field the default stands for (purpose, document_type, stay_type, travel_date, arriving_from, held_documents, language). A language entry says that the language asked for is not spoken and the answer is in English (value en)."`
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

// SourceSecondaryMatrix is the kind of the verdicts' source (Source.Kind):
// a secondary matrix, never an official one.
const SourceSecondaryMatrix = "secondary_matrix"

// StatementPurposes are the purposes of travel official statements name
// (Statement.Purposes).
var StatementPurposes = []string{PurposeTourism, PurposeBusiness, "family_visit", "exchange", "transit"}

// Verdict-verification statuses. The verdict always derives from the
// secondary matrix, so it is never claimed as officially verified.
const (
	VerdictSecondarySourceOnly = "secondary_source_only"
	VerdictNeedsReview         = "needs_review"
)

// VerdictOldAfterDays is the age of the matrix snapshot after which a
// verdict is reported as old. The matrix changes by about 7% of its routes
// a year (2,935 of 39,601 routes between the snapshots of 12 January 2025
// and 17 February 2026), so after half a year roughly one answer in thirty
// may already be out of date: enough that a traveller must be told to
// confirm it, while a younger snapshot is still the usual case.
const VerdictOldAfterDays = 180

// VerdictVerification covers the base visa verdict: how it was sourced, the
// date it is as of and what official statements say about it.
type VerdictVerification struct {
	Status string `json:"status" jsonschema:"Never claimed as officially verified: the verdict derives from the secondary matrix."`
	Note   string `json:"note"`
	VerdictAge
	// Confirm is set when the verdict is old and comes from the matrix (not
	// for unknown, needs_review or a citizen's own country): it says that
	// the verdict must be confirmed with the destination's official
	// authority before travel, naming the curated official page when there
	// is one (OldVerdictWords). The status is not changed by age, but the
	// action sentence ends with it and a trip leg with it needs action.
	Confirm string `json:"confirm,omitempty" jsonschema:"Present when the verdict is old and comes from the matrix (never for unknown, needs_review or a citizen's own country): says that the verdict must be confirmed with the destination's official authority before travel, giving the address of its curated official page when there is one, else the destination's embassy, consulate or immigration service. The answers' action text ends with it, and a trip leg with it has a verdict_age condition that needs action."`
	// OfficialStatements are curated official statements about this route's
	// requirement that are in force or upcoming on the travel date, each
	// compared with the matrix, and those that have ended, for history.
	OfficialStatements []CheckedStatement `json:"official_statements" jsonschema:"Curated official statements about this route's requirement for the request's purpose: in force, upcoming or ended on the travel date (for a trip leg, its arrival). One in force that disagrees with the matrix makes the route needs_review; one that agrees corroborates it; upcoming and ended statements decide nothing."`
}

// VerdictAge is the date a verdict is as of and how old that is.
type VerdictAge struct {
	VerdictDate
	// AgeDays is the age of that snapshot at evaluated_at, in whole days.
	AgeDays int `json:"age_days" jsonschema:"The age of as_of at evaluated_at, in whole days."`
	// Old is true when AgeDays exceeds OldAfterDays: from OldFrom on.
	Old bool `json:"old" jsonschema:"True when age_days exceeds old_after_days (from old_from on): the verdict may have changed since, and assumptions say so and recommend the official authority. The status is not changed by age."`
}

// VerdictDate is the part of a verdict's age that holds whatever the day it
// is read on: a static copy of answers carries it instead of an age that
// would be wrong the next day, and its reader compares the day with OldFrom.
type VerdictDate struct {
	// AsOf is the date of the matrix snapshot the verdict comes from.
	AsOf Date `json:"as_of" jsonschema:"The date the verdict is as of: the matrix snapshot's date (also dataset_version)."`
	// OldAfterDays is VerdictOldAfterDays.
	OldAfterDays int `json:"old_after_days" jsonschema:"The age after which a verdict counts as old: 180 days. The matrix changes by about 7% of its routes a year, so after half a year about one answer in thirty may be out of date."`
	// OldFrom is the first day (UTC) on which the verdict counts as old:
	// AsOf plus OldAfterDays plus one.
	OldFrom Date `json:"old_from" jsonschema:"The first day (UTC) on which the verdict counts as old: as_of plus old_after_days plus one. A copy of the answer read later is old from this day, whatever its age_days said."`
}

// VerdictDateOf dates verdicts as of a snapshot's date.
func VerdictDateOf(asOf Date) VerdictDate {
	return VerdictDate{AsOf: asOf, OldAfterDays: VerdictOldAfterDays, OldFrom: asOf.AddDays(VerdictOldAfterDays + 1)}
}

// On gives the age of the verdict on the day of now. An evaluation dated
// before the snapshot (a controlled clock) gives age 0, not a negative age.
func (v VerdictDate) On(now time.Time) VerdictAge {
	return VerdictAge{VerdictDate: v, AgeDays: max(0, v.AsOf.DaysSince(now)), Old: !DateOf(now).Before(v.OldFrom)}
}

// Official-statement statuses on the travel date: those of a period.
const (
	StatementInForce  = PeriodInForce
	StatementUpcoming = PeriodUpcoming
	StatementEnded    = PeriodEnded
)

// Statement is what an official source says about the verdict of a
// destination for some passports, during a period.
type Statement struct {
	ID          string      `json:"id" jsonschema:"The statement's stable identifier, e.g. USA-2026-01-full-suspension-p10998."`
	Requirement Requirement `json:"requirement"`
	// AllowedStayDays is null when the source gives no number of days.
	AllowedStayDays Days `json:"allowed_stay_days"`
	// Purposes are the purposes of travel the statement covers; nil when
	// the source does not restrict them.
	Purposes []string `json:"purposes" jsonschema:"The purposes of travel the statement covers; null when the source does not restrict them."`
	// EffectiveFrom is null when the source gives no start: the statement
	// is known to hold only from the day it was read (Source.RetrievedAt).
	// EffectiveUntil is null when it gives no end.
	EffectiveFrom  *Date    `json:"effective_from" jsonschema:"The first day in force as the source gives it; null when the source gives no start: the statement is then known to hold only from source.retrieved_at, the day its source was read, and is upcoming before it."`
	EffectiveUntil *Date    `json:"effective_until" jsonschema:"The last day in force; null when the source gives no end."`
	Text           string   `json:"text"`
	Source         Citation `json:"source"`
}

// StatusOn returns the statement's status on a day: in_force, upcoming or
// ended. A statement whose source gives no start is not applied to days
// before it was read: nothing says it held then.
func (s Statement) StatusOn(day Date) string {
	return periodStatus(s.InForceFrom(), s.EffectiveUntil, day)
}

// InForceFrom is the first day the statement is known to hold: its start,
// or the day its source was read when the source gives none.
func (s Statement) InForceFrom() *Date {
	if s.EffectiveFrom != nil {
		return s.EffectiveFrom
	}
	return &s.Source.RetrievedAt
}

// CoversPurpose reports whether the statement speaks of travel for purpose.
func (s Statement) CoversPurpose(purpose string) bool {
	return s.Purposes == nil || slices.Contains(s.Purposes, purpose)
}

// CheckedStatement is an official statement compared with the matrix
// verdict on the travel date. Only a statement in force decides anything:
// one that disagrees makes the route needs_review, one that agrees
// corroborates it.
type CheckedStatement struct {
	Statement
	// Status is in_force, upcoming or ended on the travel date.
	Status           string `json:"status" jsonschema:"The statement's status on the travel date."`
	AgreesWithMatrix bool   `json:"agrees_with_matrix" jsonschema:"Whether the statement's requirement (and stay, where both give one) equals the matrix verdict. Only a statement in force decides anything."`
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
	Status         string `json:"status" jsonschema:"Computed from the verification events and the clock, never claimed. verified_official_sources only when every shown rule's source was read live within stale_after_days: by a curator whose citation says read_from live, or by the daily verifier once a curator confirmed its first reading (the baseline); later unchanged readings keep it verified. A rule read from a stored copy, or not recorded as read live, verifies nothing: the rules are stale (see reason). needs_review while a record's source changed and awaits a curator (see flagged_fields); stale when the least recently verified record is older than stale_after_days; not_curated without curated rules."`
	LastVerified   *Date  `json:"last_verified" jsonschema:"The day the least recently verified record of the destination's rules was last verified; null without cited rules."`
	StalenessDays  Days   `json:"staleness_days"`
	StaleAfterDays int    `json:"stale_after_days"`
	// FlaggedFields lists rule fields a curator must review.
	FlaggedFields []string `json:"flagged_fields" jsonschema:"Fields whose cited page changed since it was verified and that await a curator's review, e.g. passport_validity, apply, yellow_fever, official_statement."`
	Note          string   `json:"note" jsonschema:"Why the status is what it is, for people, e.g. \"Rules read from a stored copy of unknown date on 22 November 2026; not yet confirmed on the live page.\""`
	// Reason says why the rules are not verified (a Reason* value), empty
	// when they are or when they were not curated.
	Reason string `json:"reason,omitempty" jsonschema:"Why the rules are not verified_official_sources, for machines; absent when they are or when they were not curated. stored_copy: a rule was read from a stored copy of unknown date (or not recorded as read live) and never confirmed on the live page; awaiting_confirmation: the verifier read the live page and a curator has not yet confirmed it; not_reverified: the oldest live reading is older than stale_after_days; flagged: a cited page changed and awaits a curator (status needs_review)."`
}

// Source is the provenance of the matrix verdict.
type Source struct {
	Kind string `json:"kind"`
	Name string `json:"name"`
	URL  string `json:"url" jsonschema:"The repository the snapshot was published in."`
	// Commit is the source repository's commit of the snapshot, omitted
	// when not known.
	Commit   string `json:"commit,omitempty" jsonschema:"That repository's commit of the snapshot; absent when not known."`
	License  string `json:"license" jsonschema:"The snapshot's licence (SPDX identifier)."`
	Snapshot string `json:"snapshot" jsonschema:"The matrix snapshot date."`
	// MatrixValue is the raw value of the route in the matrix (for example
	// "60", "visa free", "e-visa"), nil when the route is not in the matrix.
	MatrixValue *string `json:"matrix_value" jsonschema:"The route's raw value in the matrix (\"60\", \"e-visa\", \"-1\" for the own country); null when the route is not in the matrix."`
}

// Period says in words when the statement holds: "from 1 January 2026",
// "1 June 2025 to 31 May 2026", or, when the source gives no start, "from
// 22 November 2026 (the day the source was read)".
func (s CheckedStatement) Period() string { return s.PeriodIn(English()) }

// PeriodIn is Period in the language of c.
func (s CheckedStatement) PeriodIn(c *locale.Catalog) string {
	from := s.InForceFrom().LongIn(c)
	if s.EffectiveFrom == nil {
		from = c.Text("period.statement.read_day", "date", from)
	}
	if s.EffectiveUntil != nil {
		return c.Text("period.between", "from", from, "until", s.EffectiveUntil.LongIn(c))
	}
	return c.Text("period.statement.from", "date", from)
}

// StatusWords is the statement's status as people read it: "in force",
// "upcoming" or "ended".
func (s CheckedStatement) StatusWords() string { return s.StatusWordsIn(English()) }

// StatusWordsIn is StatusWords in the language of c.
func (s CheckedStatement) StatusWordsIn(c *locale.Catalog) string {
	return PeriodStatusWordsIn(c, s.Status)
}

// Comparison says how an official statement bears on the verdict, in words.
func (s CheckedStatement) Comparison() string { return s.ComparisonIn(English()) }

// ComparisonIn is Comparison in the language of c.
func (s CheckedStatement) ComparisonIn(c *locale.Catalog) string {
	return ComparisonWordsIn(c, s.comparison())
}

// comparison is how the statement bears on the verdict, a Comparison*
// code: only a statement in force is compared.
func (s CheckedStatement) comparison() string {
	switch {
	case s.Status != StatementInForce:
		return ComparisonNotApplied
	case s.AgreesWithMatrix:
		return ComparisonAgrees
	}
	return ComparisonConflicts
}

// How an official statement bears on the verdict (CheckedStatement.Comparison).
const (
	ComparisonNotApplied = "not_applied"
	ComparisonAgrees     = "agrees"
	ComparisonConflicts  = "conflicts"
)

// ComparisonWordsIn is a Comparison* code in the language of c:
// "agrees with the secondary visa table".
func ComparisonWordsIn(c *locale.Catalog, comparison string) string {
	return wordsOr(c, "status.comparison."+comparison, comparison)
}

// AgeWords says in words what date the verdict is as of and whether that
// is old: "as of 17 February 2026 (279 days old: older than 180 days, it
// may have changed; confirm with the official authority)".
func (v VerdictAge) AgeWords() string { return v.AgeWordsIn(English()) }

// AgeWordsIn is AgeWords in the language of c.
func (v VerdictAge) AgeWordsIn(c *locale.Catalog) string {
	if v.Old {
		return c.Count("words.age.old", v.AgeDays, "date", v.AsOf.LongIn(c), "limit", c.Number(v.OldAfterDays))
	}
	return c.Count("words.age", v.AgeDays, "date", v.AsOf.LongIn(c))
}

// StatementWords describes an official statement on one line:
// "USA-2026-01-full-suspension-p10998, in force, from 1 January 2026, conflicts with the matrix".
func (s CheckedStatement) StatementWords() string { return s.StatementWordsIn(English()) }

// StatementWordsIn is StatementWords in the language of c, its parts
// joined as c joins the items of a list (message list.comma).
func (s CheckedStatement) StatementWordsIn(c *locale.Catalog) string {
	words := s.ID
	for _, part := range []string{s.StatusWordsIn(c), s.PeriodIn(c), s.ComparisonIn(c)} {
		words = c.Text("list.comma", "a", words, "b", part)
	}
	return words
}
