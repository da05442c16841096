package entrycheck

import "slices"

// Citation names the official page a fact was read from and the day it was read.
type Citation struct {
	Name        string `json:"name"`
	URL         string `json:"url"`
	RetrievedAt Date   `json:"retrieved_at"`
	// Publisher is destination_government, other_government or
	// intergovernmental, where the curators' notes say.
	Publisher string `json:"publisher,omitempty"`
	// ContentDate is the date the page gives itself (YYYY-MM-DD, YYYY-MM or
	// YYYY), where the notes record one.
	ContentDate string `json:"content_date,omitempty"`
	// ReadFrom is live or stored_copy: how the curator read the page.
	ReadFrom string `json:"read_from,omitempty"`
}

// Rule is one cited entry-rule fact: its value and the source it was read from.
// A rule that no official source gave is absent (nil), never guessed.
type Rule[T any] struct {
	Value  T        `json:"value"`
	Source Citation `json:"source"`
}

// PassportValidity is the minimum validity a passport must have left.
// CountedFrom is "entry", "departure" or "end_of_permitted_stay"; nil when the
// source does not say. MinMonthsRemaining 0 with "departure" means valid for
// the whole stay.
type PassportValidity struct {
	MinMonthsRemaining int     `json:"min_months_remaining"`
	CountedFrom        *string `json:"counted_from"`
	Text               string  `json:"text"`
}

// BlankPages is the number of blank pages a passport must have.
type BlankPages struct {
	Pages int    `json:"pages"`
	Text  string `json:"text"`
}

// Onward-ticket rule values.
const (
	OnwardRequired    = "required"
	OnwardMayBeAsked  = "may_be_asked"
	OnwardNotRequired = "not_required"
)

// OnwardTicket says whether proof of onward or return travel is required
// (Required is "required", "may_be_asked" or "not_required").
type OnwardTicket struct {
	Required string `json:"required"`
	Text     string `json:"text"`
}

// HealthRule is a health requirement other than yellow fever.
type HealthRule struct {
	Topic string `json:"topic"`
	Text  string `json:"text"`
}

// Eligibility says who may use a transit programme: everyone ("all"), the
// holders of the listed passports ("passports"), or people matching a
// description that cannot be evaluated mechanically ("described").
type Eligibility struct {
	Kind        string   `json:"kind"`
	Passports   []string `json:"passports"`
	Description *string  `json:"description"`
}

// Eligibility kinds.
const (
	EligibleAll       = "all"
	EligiblePassports = "passports"
	EligibleDescribed = "described"
)

// EligibleFor tells whether a holder of passport iso3 may use the programme:
// true or false when the rule says, nil when only a description exists.
func (e Eligibility) EligibleFor(iso3 string) *bool {
	switch e.Kind {
	case EligibleAll:
		return &truth
	case EligiblePassports:
		for _, p := range e.Passports {
			if p == iso3 {
				return &truth
			}
		}
		return &falsehood
	}
	return nil
}

var truth, falsehood = true, false

// TWOVProgram is a transit-without-visa programme of a country.
type TWOVProgram struct {
	Program     string      `json:"program"`
	MaxHours    *int        `json:"max_hours"`
	AirsideOnly *bool       `json:"airside_only"`
	Eligible    Eligibility `json:"eligible"`
	Text        string      `json:"text"`
}

// Document kinds named by residence-permit exemptions.
const (
	DocumentVisa            = "visa"
	DocumentResidencePermit = "residence_permit"
	DocumentEither          = "either"
)

// Exemption lets holders of another country's visa or residence permit enter
// under an easier requirement. HoldersOf holds ISO3 codes and group codes
// such as SCHENGEN.
type Exemption struct {
	HoldersOf   []string    `json:"holders_of"`
	Document    string      `json:"document"`
	Effect      Requirement `json:"effect"`
	MaxStayDays Days        `json:"max_stay_days"`
	Text        string      `json:"text"`
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
	ExtraRiskCountries []string `json:"extra_risk_countries"`
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
	AppliesToThisPassport *bool    `json:"applies_to_this_passport"`
	AppliesBecause        string   `json:"applies_because"`
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

// EntryRules is the destination-level block of entry rules in a check result.
type EntryRules struct {
	PassportValidity          *Rule[PassportValidity] `json:"passport_validity"`
	BlankPages                *Rule[BlankPages]       `json:"blank_pages"`
	OnwardTicket              *Rule[OnwardTicket]     `json:"onward_ticket"`
	YellowFever               *YellowFeverRule        `json:"yellow_fever"`
	OtherHealth               *Rule[[]HealthRule]     `json:"other_health"`
	TWOV                      *Rule[[]TWOVProgram]    `json:"twov"`
	ResidencePermitExemptions *Rule[[]Exemption]      `json:"residence_permit_exemptions"`
	LastVerified              *Date                   `json:"last_verified"`
	StalenessDays             Days                    `json:"staleness_days"`
	Coverage                  Coverage                `json:"coverage"`
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
	Kind   string   `json:"kind"`
	Note   string   `json:"note"`
	Source Citation `json:"source"`
}

// ApplyEntry is a curated portal together with the requirements it serves.
type ApplyEntry struct {
	Requirements []Requirement `json:"requirements"`
	Apply
}

// Citations returns the citation of every non-null rule of the block, in field order.
func (r EntryRules) Citations() []Citation {
	var out []Citation
	if x := r.PassportValidity; x != nil {
		out = append(out, x.Source)
	}
	if x := r.BlankPages; x != nil {
		out = append(out, x.Source)
	}
	if x := r.OnwardTicket; x != nil {
		out = append(out, x.Source)
	}
	if x := r.YellowFever; x != nil {
		out = append(out, x.Source)
	}
	if x := r.OtherHealth; x != nil {
		out = append(out, x.Source)
	}
	if x := r.TWOV; x != nil {
		out = append(out, x.Source)
	}
	if x := r.ResidencePermitExemptions; x != nil {
		out = append(out, x.Source)
	}
	return out
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
