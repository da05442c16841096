package entrycheck

import "slices"

// Citation names the official page a fact was read from and the day it was read.
type Citation struct {
	Name        string `json:"name" jsonschema:"The source's name."`
	URL         string `json:"url" jsonschema:"The official page the fact was read from."`
	RetrievedAt Date   `json:"retrieved_at"`
	// Publisher is destination_government, other_government or
	// intergovernmental, where the curators' notes say.
	Publisher string `json:"publisher,omitempty" jsonschema:"Who published the page, where the curators' notes say."`
	// ContentDate is the date the page gives itself (YYYY-MM-DD, YYYY-MM or
	// YYYY), where the notes record one.
	ContentDate string `json:"content_date,omitempty" jsonschema:"The date the page gives itself (YYYY-MM-DD, YYYY-MM or YYYY), where the notes record one."`
	// ReadFrom is live or stored_copy: how the curator read the page.
	ReadFrom string `json:"read_from,omitempty" jsonschema:"How the curator read the page: live, or a stored copy of unknown date (which is not a verification of the live page)."`
}

// Rule is one cited entry-rule field of the curated layer: its value and
// the source it was read from. A rule that no official source gave is absent
// (nil), never guessed. In the curated layer a field's value is a list: of
// variants for the single-valued fields (the first whose applies_to matches
// holds) and of items for the list-valued ones.
type Rule[T any] struct {
	Value  T        `json:"value"`
	Source Citation `json:"source"`
}

// Scope says whom a curated fact holds for (AppliesTo), whom its source
// speaks to (DocumentedFor) and when it holds (Period); nil holds for, or
// speaks to, every passport, and no period holds on any date.
type Scope struct {
	AppliesTo     *AppliesTo `json:"applies_to,omitempty"`
	DocumentedFor *AppliesTo `json:"documented_for,omitempty"`
	Period
}

// ScopeOf returns the scope; every fact type embeds Scope and so has it.
func (s Scope) ScopeOf() Scope { return s }

// VariantSource is the source of a variant read from another page than its
// field's; nil when the field's source holds for it.
type VariantSource struct {
	Source *Citation `json:"source,omitempty"`
}

// OwnSource returns the variant's own source, nil when it has none.
func (v VariantSource) OwnSource() *Citation { return v.Source }

func (v *VariantSource) clearSource() { v.Source = nil }

// ValidityCountedFrom lists the values of PassportValidity.CountedFrom.
var ValidityCountedFrom = []string{"entry", "departure", "end_of_permitted_stay"}

// PassportValidity is the minimum validity a passport must have left.
// CountedFrom is "entry", "departure" or "end_of_permitted_stay"; nil when the
// source does not say. MinMonthsRemaining 0 with "departure" means valid for
// the whole stay; nil means the source gives no computable margin (the text
// says why).
type PassportValidity struct {
	Scope
	MinMonthsRemaining *int    `json:"min_months_remaining" jsonschema:"Months of validity required; null when the source gives no computable margin (the text says why)."`
	CountedFrom        *string `json:"counted_from" jsonschema:"From when the months count; null when the source does not say. 0 months from departure means valid for the whole stay."`
	// IssuedWithinYears is the most years since issue the source allows.
	IssuedWithinYears *int   `json:"issued_within_years,omitempty" jsonschema:"Most years since issue, when the source says."`
	Text              string `json:"text"`
	VariantSource
}

// BlankPages is the number of blank pages a passport must have.
type BlankPages struct {
	Scope
	Pages int    `json:"pages"`
	Text  string `json:"text"`
	VariantSource
}

// Onward-ticket rule values.
const (
	OnwardRequired   = "required"
	OnwardMayBeAsked = "may_be_asked"
)

// OnwardTicketValues lists the values of OnwardTicket.Required.
var OnwardTicketValues = []string{OnwardRequired, OnwardMayBeAsked}

// OnwardTicket says whether proof of onward or return travel is required
// (Required is "required" or "may_be_asked").
type OnwardTicket struct {
	Scope
	Required string `json:"required"`
	Text     string `json:"text"`
	VariantSource
}

// HealthRule is a health requirement other than yellow fever.
type HealthRule struct {
	Scope
	Topic string `json:"topic"`
	// FromCountries lists the countries whose travellers the rule concerns,
	// when the source names them.
	FromCountries []string `json:"from_countries,omitempty"`
	Text          string   `json:"text"`
}

// TWOVProgram is a transit-without-visa programme of a country; its
// applies_to names who may use it.
type TWOVProgram struct {
	Scope
	Program     string `json:"program"`
	MaxHours    *int   `json:"max_hours"`
	AirsideOnly *bool  `json:"airside_only"`
	Text        string `json:"text"`
}

// What an arrival formality is (ArrivalFormality.Kind) and when it is done
// (ArrivalFormality.When): the values the curated notes may give.
var (
	FormalityKinds = []string{"arrival_card", "travel_authorisation", "registration", "customs_declaration"}
	FormalityWhen  = []string{"before_arrival", "on_arrival"}
)

// Document kinds named by residence-permit exemptions.
const (
	DocumentVisa            = "visa"
	DocumentResidencePermit = "residence_permit"
	DocumentEither          = "either"
)

// Exemption lets holders of another country's visa or residence permit enter
// under an easier requirement. HoldersOf holds ISO3 codes and group codes
// such as SCHENGEN; applies_to names the nationalities it is open to.
type Exemption struct {
	Scope
	HoldersOf   []string    `json:"holders_of"`
	Document    string      `json:"document"`
	Effect      Requirement `json:"effect"`
	MaxStayDays Days        `json:"max_stay_days"`
	Text        string      `json:"text"`
}

// ArrivalFormality is a step some or all travellers must take besides the
// visa verdict: an arrival card, a travel authorisation, a registration.
type ArrivalFormality struct {
	Scope
	Name string `json:"name"`
	// Kind is arrival_card, travel_authorisation, registration or customs_declaration.
	Kind string `json:"kind"`
	// When is before_arrival or on_arrival.
	When string  `json:"when"`
	Fee  *bool   `json:"fee"`
	URL  *string `json:"url"`
	Text string  `json:"text"`
}

// YellowFever is a destination's yellow-fever certificate rule.
// CertificateRequired is "all_travellers", "from_risk_countries", "none", or
// nil when the source does not say.
type YellowFever struct {
	CertificateRequired *string `json:"certificate_required"`
	MinAgeMonths        *int    `json:"min_age_months"`
	IncludesTransit     *bool   `json:"includes_transit"`
	TransitHours        *int    `json:"transit_hours"`
	// ExtraRiskCountries are the countries the destination itself treats
	// as risk countries beyond the WHO list; nil when its source names none.
	ExtraRiskCountries []string `json:"extra_risk_countries" jsonschema:"ISO3 codes of the countries the destination itself treats as yellow-fever risk countries beyond the WHO list, as its own source names them; null when it names none. They count as risk countries for this destination only."`
	Text               string   `json:"text"`
}

// Yellow-fever certificate rule values.
const (
	YellowFeverAllTravellers     = "all_travellers"
	YellowFeverFromRiskCountries = "from_risk_countries"
	YellowFeverNone              = "none"
)

// YellowFeverRule is the cited yellow-fever rule as it applies to one passport.
type YellowFeverRule struct {
	Value YellowFever `json:"value"`
	// AppliesToThisPassport is true when a certificate is required of this
	// traveller, false when not, nil when the source leaves it open.
	AppliesToThisPassport *bool    `json:"applies_to_this_passport" jsonschema:"true when a certificate is required of this traveller (all travellers, or arriving from or transiting a risk country: the WHO list or the destination's own extra_risk_countries; the passport country is assumed as origin, see defaults_applied), false when not, null when the source leaves it open."`
	AppliesBecause        string   `json:"applies_because" jsonschema:"Why, in plain words: 'required for all travellers', 'required: you arrive from Angola, on the WHO list of countries with risk of yellow-fever transmission', 'required: Nepal treats Uruguay as a risk country (its own list)', 'not required: you do not arrive from or through a risk country', 'the source does not say whom it covers'. The destination's own source is in source; the WHO list's in risk_list_source when it was used."`
	Source                Citation `json:"source"`
	// RiskListSource cites the list of yellow-fever risk countries that
	// AppliesToThisPassport was computed from, when it was used.
	RiskListSource *Citation `json:"risk_list_source,omitempty"`
}

// Coverage says how far the curated layer covers a destination.
type Coverage string

// Coverage values.
const (
	CoverageExtended Coverage = "extended"
	CoverageBasic    Coverage = "basic"
)

// The entry-rule fields are kept in three views, one member each, in the
// order of RuleFields: as curated (CuratedRules), as they hold for every
// traveller (DestinationRules) and as they hold for one passport
// (EntryRules). RuleFields says where each view keeps a field; the loader,
// the import, the selection and every surface walk it.

// CuratedRules are a destination's cited entry rules as curated; nil means
// no official source gave the rule. The single-valued fields hold a list of
// variants, the first whose applies_to matches holding for a passport; the
// list-valued fields hold items, each for the passports its applies_to
// names.
type CuratedRules struct {
	PassportValidity          *Rule[[]PassportValidity] `json:"passport_validity"`
	BlankPages                *Rule[[]BlankPages]       `json:"blank_pages"`
	OnwardTicket              *Rule[[]OnwardTicket]     `json:"onward_ticket"`
	OtherHealth               *Rule[[]HealthRule]       `json:"other_health"`
	TWOV                      *Rule[[]TWOVProgram]      `json:"twov"`
	ResidencePermitExemptions *Rule[[]Exemption]        `json:"residence_permit_exemptions"`
	ArrivalFormalities        *Rule[[]ArrivalFormality] `json:"arrival_formalities"`
}

// DestinationRules is a destination's block of entry rules as it holds for
// every traveller: each field lists its variants (or items) in the
// curators' order, none selected for a passport.
type DestinationRules struct {
	PassportValidity          []Variant[PassportValidity] `json:"passport_validity"`
	BlankPages                []Variant[BlankPages]       `json:"blank_pages"`
	OnwardTicket              []Variant[OnwardTicket]     `json:"onward_ticket"`
	YellowFever               *DestinationYellowFever     `json:"yellow_fever"`
	OtherHealth               []Variant[HealthRule]       `json:"other_health"`
	TWOV                      []Variant[TWOVProgram]      `json:"twov"`
	ResidencePermitExemptions []Variant[Exemption]        `json:"residence_permit_exemptions"`
	ArrivalFormalities        []Variant[ArrivalFormality] `json:"arrival_formalities"`
	LastVerified              *Date                       `json:"last_verified"`
	StalenessDays             Days                        `json:"staleness_days"`
	Coverage                  Coverage                    `json:"coverage"`
}

// EntryRules is the destination-level block of entry rules in a check
// result, each field as it holds for the passport of the check.
type EntryRules struct {
	PassportValidity          *PassportRule[PassportValidity]   `json:"passport_validity" jsonschema:"Minimum passport validity: the first variant whose applies_to matches the passport as it holds for this passport. Null when no official source gave the rule. applies: yes (the value holds), not_for_this_passport (the source gives it for other passports only: no value, a note says for whom; not a gap), documented_for_others (the source speaks to other nationals: the value is a hint that may differ for this passport, never a trip condition). ended or upcoming: the source gives the rule for this passport only for a period that has ended, or not yet begun, on the travel date; it is not applied and is listed under not_in_force. An item or variant applies only inside its period (effective_from, effective_until)."`
	BlankPages                *PassportRule[BlankPages]         `json:"blank_pages" jsonschema:"Blank pages required as it holds for this passport. Null when no official source gave the rule. applies: yes (the value holds), not_for_this_passport (the source gives it for other passports only: no value, a note says for whom; not a gap), documented_for_others (the source speaks to other nationals: the value is a hint that may differ for this passport, never a trip condition). ended or upcoming: the source gives the rule for this passport only for a period that has ended, or not yet begun, on the travel date; it is not applied and is listed under not_in_force. An item or variant applies only inside its period (effective_from, effective_until)."`
	OnwardTicket              *PassportRule[OnwardTicket]       `json:"onward_ticket" jsonschema:"Onward or return ticket as it holds for this passport. Null when no official source gave the rule. applies: yes (the value holds), not_for_this_passport (the source gives it for other passports only: no value, a note says for whom; not a gap), documented_for_others (the source speaks to other nationals: the value is a hint that may differ for this passport, never a trip condition). ended or upcoming: the source gives the rule for this passport only for a period that has ended, or not yet begun, on the travel date; it is not applied and is listed under not_in_force. An item or variant applies only inside its period (effective_from, effective_until)."`
	YellowFever               *YellowFeverRule                  `json:"yellow_fever"`
	OtherHealth               *PassportRule[[]HealthRule]       `json:"other_health" jsonschema:"Other health rules: the items whose applies_to excludes the passport are left out (field not_for_this_passport when none is left) as it holds for this passport. Null when no official source gave the rule. applies: yes (the value holds), not_for_this_passport (the source gives it for other passports only: no value, a note says for whom; not a gap), documented_for_others (the source speaks to other nationals: the value is a hint that may differ for this passport, never a trip condition). Items whose documented_for excludes the passport are kept with their documented_for; the field is documented_for_others when every item kept is. ended or upcoming: the source gives the rule for this passport only for a period that has ended, or not yet begun, on the travel date; it is not applied and is listed under not_in_force. An item or variant applies only inside its period (effective_from, effective_until)."`
	TWOV                      *PassportRule[[]TWOVProgram]      `json:"twov" jsonschema:"Transit-without-visa programmes: the items whose applies_to excludes the passport are left out (field not_for_this_passport when none is left) as it holds for this passport. Null when no official source gave the rule. applies: yes (the value holds), not_for_this_passport (the source gives it for other passports only: no value, a note says for whom; not a gap), documented_for_others (the source speaks to other nationals: the value is a hint that may differ for this passport, never a trip condition). Items whose documented_for excludes the passport are kept with their documented_for; the field is documented_for_others when every item kept is. ended or upcoming: the source gives the rule for this passport only for a period that has ended, or not yet begun, on the travel date; it is not applied and is listed under not_in_force. An item or variant applies only inside its period (effective_from, effective_until)."`
	ResidencePermitExemptions *PassportRule[[]Exemption]        `json:"residence_permit_exemptions" jsonschema:"Exemptions for holders of other countries' visas or residence permits (open only to the nationalities their applies_to names): the items whose applies_to excludes the passport are left out (field not_for_this_passport when none is left) as it holds for this passport. Null when no official source gave the rule. applies: yes (the value holds), not_for_this_passport (the source gives it for other passports only: no value, a note says for whom; not a gap), documented_for_others (the source speaks to other nationals: the value is a hint that may differ for this passport, never a trip condition). Items whose documented_for excludes the passport are kept with their documented_for; the field is documented_for_others when every item kept is. ended or upcoming: the source gives the rule for this passport only for a period that has ended, or not yet begun, on the travel date; it is not applied and is listed under not_in_force. An item or variant applies only inside its period (effective_from, effective_until)."`
	ArrivalFormalities        *PassportRule[[]ArrivalFormality] `json:"arrival_formalities" jsonschema:"Arrival formalities: the items whose applies_to excludes the passport are left out (field not_for_this_passport when none is left) as it holds for this passport. Null when no official source gave the rule. applies: yes (the value holds), not_for_this_passport (the source gives it for other passports only: no value, a note says for whom; not a gap), documented_for_others (the source speaks to other nationals: the value is a hint that may differ for this passport, never a trip condition). Items whose documented_for excludes the passport are kept with their documented_for; the field is documented_for_others when every item kept is. ended or upcoming: the source gives the rule for this passport only for a period that has ended, or not yet begun, on the travel date; it is not applied and is listed under not_in_force. An item or variant applies only inside its period (effective_from, effective_until)."`
	LastVerified              *Date                             `json:"last_verified" jsonschema:"The oldest retrieval date of the destination's citations; null when none."`
	StalenessDays             Days                              `json:"staleness_days"`
	Coverage                  Coverage                          `json:"coverage" jsonschema:"extended: at least one entry rule of the destination cites an official source; basic: no cited rule (not curated yet, or curated without a rule any official page gave); the yellow-fever table still applies."`
}

// Apply kinds.
const (
	ApplyOfficialPortal = "official_portal"
	ApplyOfficialInfo   = "official_info"
	ApplyEmbassyFinder  = "embassy_finder"
)

// Apply points to the official place where the required document is obtained.
type Apply struct {
	URL    string   `json:"url"`
	Kind   string   `json:"kind" jsonschema:"official_portal: apply online; official_info: an official page explaining how to apply; embassy_finder: find the embassy or consulate."`
	Note   string   `json:"note"`
	Source Citation `json:"source"`
}

// ApplyEntry is a curated portal together with the requirements it serves.
type ApplyEntry struct {
	Requirements []Requirement `json:"requirements"`
	// AppliesTo names the passports the portal serves; nil serves all.
	AppliesTo *AppliesTo `json:"applies_to,omitempty"`
	Apply
}

// AppliesTo names the travellers a curated fact holds for. A fact without
// it holds for every passport. It matches when an inclusion key matches (or
// there is none) and no exclusion key does; groups are named group codes
// (SCHENGEN, EU...) whose members the caller resolves.
type AppliesTo struct {
	Passports       []string      `json:"passports,omitempty"`
	ExceptPassports []string      `json:"except_passports,omitempty"`
	Groups          []string      `json:"groups,omitempty"`
	ExceptGroups    []string      `json:"except_groups,omitempty"`
	Requirements    []Requirement `json:"requirements,omitempty"`
}

// Matches reports whether the fact holds for a holder of passport whose
// verdict for the route is req; inGroup tells whether a code is a member of
// a named group.
func (a *AppliesTo) Matches(passport string, req Requirement, inGroup func(group, code string) bool) bool {
	if a == nil {
		return true
	}
	anyGroup := func(groups []string) bool {
		for _, g := range groups {
			if inGroup(g, passport) {
				return true
			}
		}
		return false
	}
	included := len(a.Passports) == 0 && len(a.Groups) == 0 ||
		slices.Contains(a.Passports, passport) || anyGroup(a.Groups)
	if !included || slices.Contains(a.ExceptPassports, passport) || anyGroup(a.ExceptGroups) {
		return false
	}
	return len(a.Requirements) == 0 || slices.Contains(a.Requirements, req)
}
