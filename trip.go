package entrycheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// Bounds of a trip request. They keep one evaluation small (a request costs
// passports x legs checks) while covering any real itinerary.
const (
	// MaxTripPassports bounds traveler.passports: few people hold more than
	// three nationalities.
	MaxTripPassports = 5
	// MaxTripLegs bounds trip.legs: a round-the-world ticket has at most 16
	// segments.
	MaxTripLegs = 20
	// MaxTripBodyBytes bounds a trip request body. A request at every
	// bound (5 passports, 20 dated legs, 20 held documents each) takes
	// about 3 KiB; the rest is room for whitespace.
	MaxTripBodyBytes = 64 << 10
)

// Problem codes of trip requests, in addition to those of checks.
const (
	ProblemInvalidDate            = "invalid_date"
	ProblemDepartureBeforeArrival = "departure_before_arrival"
	ProblemLegsOutOfOrder         = "legs_out_of_order"
	ProblemDuplicatePassport      = "duplicate_passport"
	ProblemMalformedBody          = "malformed_json"
	ProblemUnknownField           = "unknown_field"
	ProblemWrongType              = "wrong_type"
	ProblemTrailingData           = "trailing_data"
	ProblemBodyTooLarge           = "body_too_large"
)

// TripRequest asks for a whole itinerary to be evaluated (spec 2.4): who
// travels, with which passports and held documents, and the legs in the
// order they are travelled. Codes are ISO 3166-1 alpha-3, any letter case;
// dates are YYYY-MM-DD strings, checked by the evaluation so that every bad
// date is reported at once. Fields left empty take the defaults listed in
// the result's defaults_applied.
type TripRequest struct {
	Traveler Traveler `json:"traveler"`
	Trip     Trip     `json:"trip"`
	// Language is the language the client asks the answer's words in, a
	// BCP 47 tag (fr, pt-BR), as CheckRequest.Language; AcceptLanguage is
	// an HTTP Accept-Language header, read when Language is empty, and
	// never part of the body. A language the service does not speak gives
	// English, listed in defaults_applied.
	Language       string `json:"language,omitempty" jsonschema:"The language of the answer's words, as the lang parameter of POST /v1/trips/evaluate (which takes precedence over it) and the language argument of the evaluate_trip tool: a BCP 47 tag such as fr or pt-BR. English by default; a language not spoken falls back to English, listed in defaults_applied. Codes and field names never change."`
	AcceptLanguage string `json:"-"`
}

// Traveler is the person who travels: every passport they may use, and the
// countries (or the SCHENGEN group) whose visas and residence permits they
// hold, with the same meaning as in CheckRequest.
type Traveler struct {
	Passports          []PassportHeld `json:"passports"`
	ResidencePermitsOf []string       `json:"residence_permits_of,omitempty" jsonschema:"Countries (or SCHENGEN) whose residence permits the traveller holds."`
	VisasOf            []string       `json:"visas_of,omitempty" jsonschema:"Countries (or SCHENGEN) whose visas the traveller holds."`
}

// PassportHeld is one passport of the traveller. In JSON it is either the
// issuing country's code ("DEU") or an object with the code and the expiry
// date ({"country": "DEU", "expires": "2027-03-01"}). Without an expiry the
// validity rules of the destinations cannot be checked, and the result says so.
type PassportHeld struct {
	Country string `json:"country" jsonschema:"ISO 3166-1 alpha-3 code in any letter case (DEU), alpha-2 code (DE) or country name (Germany); the answer names it by its alpha-3 code."`
	Expires string `json:"expires,omitempty" jsonschema:"YYYY-MM-DD."`
}

// UnmarshalJSON accepts a code string or an object with exactly the fields
// country and expires; any other field is an error, whatever the decoder's
// settings, because a misspelt "expires" would silently drop the date.
func (p *PassportHeld) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		var code string
		if err := json.Unmarshal(b, &code); err != nil {
			return err
		}
		*p = PassportHeld{Country: code}
		return nil
	case len(b) > 0 && b[0] == '{':
		type plain PassportHeld // without this method, so that decoding does not recurse
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		var v plain
		if err := dec.Decode(&v); err != nil {
			return err
		}
		*p = PassportHeld(v)
		return nil
	case string(b) == "null":
		return nil
	}
	return fmt.Errorf("a passport must be an ISO 3166-1 alpha-3 code or an object {\"country\": ..., \"expires\": ...}, not %s", b)
}

// Trip is the itinerary: the legs in the order travelled.
type Trip struct {
	Legs []Leg `json:"legs"`
}

// Leg is one country on the itinerary. Arrival and departure are optional
// YYYY-MM-DD dates (both days count as days spent there); Purpose is tourism
// (the default) or business. A transit leg is a connection through the
// country, assumed to stay airside unless its programmes say otherwise.
type Leg struct {
	Country   string `json:"country" jsonschema:"ISO 3166-1 alpha-3 code in any letter case (DEU), alpha-2 code (DE) or country name (Germany); the answer names it by its alpha-3 code."`
	Arrival   string `json:"arrival,omitempty" jsonschema:"Arrival day, YYYY-MM-DD (counted as a day spent there)."`
	Departure string `json:"departure,omitempty" jsonschema:"Departure day, YYYY-MM-DD, not before arrival (counted as a day spent there)."`
	Purpose   string `json:"purpose,omitempty" jsonschema:"tourism (default) or business."`
	Transit   bool   `json:"transit,omitempty" jsonschema:"A connection through the country, assumed airside; its transit-without-visa programmes are used."`
}

// TripStatus is the state of a leg or of a whole trip.
type TripStatus string

// Trip and leg statuses. A trip takes the most serious status of its legs,
// in this order: not_possible, unknown, action_needed, check_needed, ready. not_possible
// comes first because it settles the plan whatever the unknown legs turn out
// to be; unknown comes before action_needed so that a trip is never presented
// as merely needing paperwork while one of its legs has no reliable verdict.
// The counts always show every status, so nothing is hidden by the order.
const (
	// TripReady: entry is possible as planned and every condition could be
	// checked against the data and the request.
	TripReady TripStatus = "ready"
	// TripCheckNeeded: nothing known stands in the way, but some conditions
	// could not be checked (no curated rule, no date, no expiry) or the
	// destination's entry rules are not curated: the traveller must check
	// them with the official authority. A plan is never called ready while
	// something is unknown.
	TripCheckNeeded TripStatus = "check_needed"
	// TripActionNeeded: entry is possible after the traveller acts: obtains a
	// visa or travel authorisation, renews a passport, carries a certificate,
	// or changes the dates.
	TripActionNeeded TripStatus = "action_needed"
	// TripNotPossible: no passport the traveller holds is admitted.
	TripNotPossible TripStatus = "not_possible"
	// TripUnknown: the data has no reliable verdict (unknown or needs_review)
	// for the best passport of a leg, or refuses every passport but one it
	// has no reliable verdict for: check with the official authority.
	TripUnknown TripStatus = "unknown"
)

// TripStatuses lists every trip and leg status, the plainest first.
var TripStatuses = []TripStatus{TripReady, TripCheckNeeded, TripActionNeeded, TripNotPossible, TripUnknown}

// ConditionKinds lists every condition kind, ConditionStatuses every status.
var (
	ConditionKinds    = []string{ConditionPassportValidity, ConditionStayDuration, ConditionSchengen, ConditionTransit, ConditionOnwardTicket, ConditionYellowFever, ConditionBlankPages, ConditionOtherHealth, ConditionVerdictAge}
	ConditionStatuses = []ConditionStatus{ConditionMet, ConditionNotMet, ConditionUnknown, ConditionNotApplicable, ConditionAdvisory}
)

// Condition kinds of a leg decision.
const (
	ConditionPassportValidity = "passport_validity"
	ConditionStayDuration     = "stay_duration"
	ConditionSchengen         = "schengen_90_180"
	ConditionTransit          = "transit_without_visa"
	ConditionOnwardTicket     = "onward_ticket"
	ConditionYellowFever      = "yellow_fever"
	ConditionBlankPages       = "blank_pages"
	ConditionOtherHealth      = "other_health"
	// ConditionVerdictAge: the leg's verdict is older than
	// VerdictOldAfterDays and must be confirmed with the destination's
	// official authority before the leg (VerdictVerification.Confirm). It
	// needs action, so a leg resting on an old verdict is never ready.
	ConditionVerdictAge = "verdict_age"
)

// ConditionStatus says how a leg's plan fares against one condition.
type ConditionStatus string

// Condition statuses.
const (
	// ConditionMet: the plan satisfies the condition as far as the request shows.
	ConditionMet ConditionStatus = "met"
	// ConditionNotMet: the plan as given fails the condition; something must change.
	ConditionNotMet ConditionStatus = "not_met"
	// ConditionUnknown: the data or the request does not allow a decision
	// (a date, an expiry or a curated rule is missing); the detail says which.
	ConditionUnknown ConditionStatus = "unknown"
	// ConditionNotApplicable: the condition does not concern this leg.
	ConditionNotApplicable ConditionStatus = "not_applicable"
	// ConditionAdvisory: the condition applies and asks for something the
	// service cannot verify (a certificate, proof of onward travel).
	ConditionAdvisory ConditionStatus = "advisory"
)

// Condition is one entry condition of a leg, assessed against the plan.
type Condition struct {
	Kind   string          `json:"kind" jsonschema:"The entry rule or fact the condition assesses. verdict_age: the verdict is older than old_after_days and must be confirmed with the destination's official authority before the leg (verdict_verification.confirm); it always needs action, so a leg resting on an old verdict is never ready."`
	Status ConditionStatus `json:"status"`
	// ActionNeeded is true when the traveller must act before the leg to
	// satisfy the condition (renew a passport, get a yellow-fever
	// certificate, change the dates); it makes the leg action_needed.
	ActionNeeded bool `json:"action_needed"`
	// Detail is the reasoning: the rule as it applies to this plan.
	Detail string `json:"detail" jsonschema:"The reasoning: the rule as it applies to this plan."`
	// RuleText is the cited rule in the curators' words, when there is one.
	RuleText string `json:"rule_text,omitempty"`
	// Source cites the rule the condition was assessed against; nil when the
	// rule is not curated (the detail then says so).
	Source *Citation `json:"source,omitempty"`
}

// TripPassport is the passport a leg decision was made for.
type TripPassport struct {
	// Index is the passport's position in traveler.passports.
	Index   int     `json:"index" jsonschema:"Position in traveler.passports."`
	Country Country `json:"country"`
	Expires *Date   `json:"expires"`
}

// PassportOption is one passport's answer for a leg, as considered when the
// best passport was chosen. The ranking, each step breaking the ties of the
// one before: a passport that fails the leg's validity rule comes last; then
// the easier requirement (Requirement.Rank, unknown and needs_review last);
// the destination's own passport; the longer visa-free stay, no stated limit
// first; validity confirmed before unchecked; the order of
// traveler.passports.
type PassportOption struct {
	Passport TripPassport `json:"passport"`
	Verdict
	Action           Action          `json:"action"`
	ExemptionApplied bool            `json:"exemption_applied"`
	PassportValidity ConditionStatus `json:"passport_validity"`
	// Rank is the option's place in the ranking, 1 for the chosen passport.
	Rank   int  `json:"rank"`
	Chosen bool `json:"chosen"`
}

// LegDecision is the evaluation of one leg: the passport chosen for it, the
// requirement and action for that passport (from the same check as
// GET /v1/check), the conditions of the plan and why each step was taken.
type LegDecision struct {
	// Index is the leg's position in trip.legs (texts number legs from 1).
	Index     int        `json:"index"`
	Country   Country    `json:"country"`
	Arrival   *Date      `json:"arrival"`
	Departure *Date      `json:"departure"`
	Purpose   string     `json:"purpose"`
	Transit   bool       `json:"transit"`
	Status    TripStatus `json:"status"`

	Passport TripPassport `json:"passport"`
	Verdict
	// Action is what the traveller has to do about the requirement; on a
	// transit leg covered by a transit-without-visa programme it is none.
	Action           Action            `json:"action"`
	Apply            *Apply            `json:"apply,omitempty"`
	ExemptionApplied *AppliedExemption `json:"exemption_applied,omitempty"`
	// TransitPrograms are the country's transit-without-visa programmes with
	// the chosen passport's eligibility; transit legs only.
	TransitPrograms []TransitProgram `json:"transit_programs,omitempty"`

	Why        []string    `json:"why" jsonschema:"Plain-language explanation of each step: which passport and why, which source, which exemption."`
	Conditions []Condition `json:"conditions"`

	VerdictVerification    VerdictVerification    `json:"verdict_verification"`
	EntryRulesVerification EntryRulesVerification `json:"entry_rules_verification"`
	// Coverage is extended when the destination has cited entry rules,
	// basic when it has none: a leg of basic coverage is never ready.
	Coverage     Coverage         `json:"coverage"`
	Source       Source           `json:"source"`
	Alternatives []PassportOption `json:"alternatives"`
}

// SchengenStay is the 90-days-in-any-180-days account of a trip: the
// short-stay days spent in Schengen states, counted together across legs
// however they are interleaved with other countries.
type SchengenStay struct {
	Rule       string `json:"rule"`
	LimitDays  int    `json:"limit_days"`
	WindowDays int    `json:"window_days"`
	// Status is met, not_met (a day is the 91st in its window), unknown (a
	// counted leg lacks dates) or not_applicable (no leg counts).
	Status ConditionStatus `json:"status"`
	// DaysCounted is the number of distinct counted days on the trip.
	DaysCounted int `json:"days_counted"`
	// PeakDays is the largest number of counted days in any window, and
	// PeakWindowEnd the last day of the first window that reaches it.
	PeakDays      int   `json:"peak_days"`
	PeakWindowEnd *Date `json:"peak_window_end"`
	// ExceededOn is the first day that is beyond the limit, nil when none is.
	ExceededOn *Date         `json:"exceeded_on"`
	Legs       []SchengenLeg `json:"legs"`
	Detail     string        `json:"detail"`
	// Source cites the list of Schengen states the account is based on.
	Source Citation `json:"source"`
}

// SchengenLeg is one leg in a Schengen state and what it counts.
type SchengenLeg struct {
	Index   int    `json:"index"`
	Country string `json:"country"`
	Counted bool   `json:"counted"`
	// Days is the number of days the leg spends there, both arrival and
	// departure days included; null when its dates are not given.
	Days Days `json:"days"`
	// UsedInWindow is the number of counted days in the 180-day window that
	// ends on the leg's last day; null when not counted or not computable.
	UsedInWindow Days   `json:"used_in_window"`
	Reason       string `json:"reason"`
}

// TripCounts counts legs by status and conditions by outcome.
type TripCounts struct {
	Legs         int `json:"legs"`
	Ready        int `json:"ready"`
	ActionNeeded int `json:"action_needed"`
	CheckNeeded  int `json:"check_needed" jsonschema:"Legs with nothing known against them but something still to check."`
	NotPossible  int `json:"not_possible"`
	Unknown      int `json:"unknown"`
	// NeedsReview counts legs whose verdict is needs_review; they are also
	// counted as unknown.
	NeedsReview       int `json:"needs_review"`
	ConditionsNotMet  int `json:"conditions_not_met"`
	ConditionsUnknown int `json:"conditions_unknown"`
}

// TripSummary is the trip-level verdict: the most serious leg status (see
// TripStatus for the order), the counts behind it, and every item that needs
// the traveller's attention, in leg order.
type TripSummary struct {
	Status    TripStatus `json:"status"`
	Text      string     `json:"text"`
	Counts    TripCounts `json:"counts"`
	Attention []string   `json:"attention"`
}

// TripDefault records one default a trip evaluation applied. Indexes names
// the items of the list the field belongs to (trip.legs or
// traveler.passports) that took the default; empty for trip-wide defaults.
type TripDefault struct {
	Field   string `json:"field" jsonschema:"The request field the default stands for: a JSON path (trip.legs[].purpose, traveler.passports[].expires, trip.origin, schengen.prior_days, ...) or a check's field (document_type, stay_type, travel_date, held_documents, language). A language entry says that the language asked for is not spoken and the answer is in English (value en)."`
	Value   string `json:"value"`
	Indexes []int  `json:"indexes,omitempty"`
	Reason  string `json:"reason" jsonschema:"Why the default was applied, in the language of the answer."`
}

// TripResult is the answer to a trip evaluation (spec 2.4). It is computed
// by the evaluation core only, from one check per leg and passport;
// adapters render it and never change it. Schengen is null when no leg is in
// a Schengen state.
type TripResult struct {
	Summary         TripSummary   `json:"summary"`
	Legs            []LegDecision `json:"legs"`
	Schengen        *SchengenStay `json:"schengen"`
	DefaultsApplied []TripDefault `json:"defaults_applied"`
	Assumptions     []string      `json:"assumptions"`
	DatasetVersion  string        `json:"dataset_version"`
	EvaluatedAt     time.Time     `json:"evaluated_at"`
	RequestID       string        `json:"request_id"`
	Disclaimer      string        `json:"disclaimer"`
	// Language is the code of the language of the answer's words (the
	// summary, the reasons, details and notes of every leg, the Schengen
	// account, the defaults' reasons, the assumptions and the disclaimer):
	// en, es, fr, ... It is given when the request asked for a language
	// and left out when it asked for none, the words then being English.
	Language string `json:"language,omitempty" jsonschema:"The code of the language the answer's words are in (see the lang parameter); present when the request asked for a language (lang, language or Accept-Language), absent otherwise, the words then being English."`
}

// Words is the catalog of the answer's language (Language): English when
// none was asked or it is not a language the service speaks.
func (r TripResult) Words() *locale.Catalog {
	if c, ok := locale.Embedded().Get(r.Language); ok {
		return c
	}
	return English()
}
