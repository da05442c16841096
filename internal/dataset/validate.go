package dataset

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
)

// ValidCitation requires a name, an absolute http(s) URL and the day the
// source was read, and only the publisher kinds, readings and page dates
// the curators' format knows. The importer checks its notes with it too.
func ValidCitation(c entrycheck.Citation) error {
	if strings.TrimSpace(c.Name) == "" {
		return errors.New("citation has no name")
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("citation url %q is not an absolute http(s) URL", c.URL)
	}
	if c.RetrievedAt.IsZero() {
		return errors.New("citation has no retrieved_at date")
	}
	switch c.Publisher {
	case "", "destination_government", "other_government", "intergovernmental":
	default:
		return fmt.Errorf("citation publisher %q is not destination_government, other_government or intergovernmental", c.Publisher)
	}
	switch c.ReadFrom {
	case "", "live", "stored_copy":
	default:
		return fmt.Errorf("citation read_from %q is not live or stored_copy", c.ReadFrom)
	}
	if c.ContentDate != "" && !validPartialDate(c.ContentDate) {
		return fmt.Errorf("citation content_date %q is not YYYY-MM-DD, YYYY-MM or YYYY", c.ContentDate)
	}
	return nil
}

// validPartialDate accepts the dates pages give themselves: a day, a month or a year.
func validPartialDate(s string) bool {
	for _, layout := range []string{time.DateOnly, "2006-01", "2006"} {
		if t, err := time.Parse(layout, s); err == nil && t.Format(layout) == s {
			return true
		}
	}
	return false
}

func validApply(a entrycheck.ApplyEntry) error {
	if err := nonEmpty(len(a.Requirements)); err != nil {
		return fmt.Errorf("requirements: %w", err)
	}
	for _, r := range a.Requirements {
		if !r.NeedsAction() {
			return fmt.Errorf("requirement %q needs no application", r)
		}
	}
	switch a.Kind {
	case entrycheck.ApplyOfficialPortal, entrycheck.ApplyOfficialInfo, entrycheck.ApplyEmbassyFinder:
	default:
		return fmt.Errorf("kind %q is not official_portal, official_info or embassy_finder", a.Kind)
	}
	if err := ValidCitation(entrycheck.Citation{Name: "portal", URL: a.URL, RetrievedAt: a.Source.RetrievedAt}); err != nil {
		return fmt.Errorf("url: %w", err)
	}
	return ValidCitation(a.Source)
}

func (t *YellowFeverTable) validate(reg *country.Registry) error {
	if err := ValidCitation(t.RiskList.Source); err != nil {
		return fmt.Errorf("risk_list.source: %w", err)
	}
	if err := validCodes(t.RiskList.Countries, reg, false); err != nil {
		return fmt.Errorf("risk_list.countries: %w", err)
	}
	if err := validCodes(t.RiskList.InPartOnly, reg, false); err != nil {
		return fmt.Errorf("risk_list.in_part_only: %w", err)
	}
	for code, r := range t.Countries {
		if err := validCodes([]string{code}, reg, false); err != nil {
			return fmt.Errorf("countries: %w", err)
		}
		if err := ValidCitation(r.Source); err != nil {
			return fmt.Errorf("countries.%s.source: %w", code, err)
		}
		if c := r.Value.CertificateRequired; c != nil {
			switch *c {
			case entrycheck.YellowFeverAllTravellers, entrycheck.YellowFeverFromRiskCountries, entrycheck.YellowFeverNone:
			default:
				return fmt.Errorf("countries.%s.certificate_required %q is not all_travellers, from_risk_countries or none", code, *c)
			}
		}
		if err := validCodes(r.Value.ExtraRiskCountries, reg, false); err != nil {
			return fmt.Errorf("countries.%s.extra_risk_countries: %w", code, err)
		}
	}
	for code := range t.Unsourced {
		if err := validCodes([]string{code}, reg, false); err != nil {
			return fmt.Errorf("unsourced: %w", err)
		}
	}
	return nil
}

// Validate checks an official statement: whom it speaks of, a verdict, its
// period, its text and citation.
func (s OfficialStatement) Validate(reg *country.Registry, groups map[string]Group) error {
	if s.ID == "" {
		return errors.New("id is empty")
	}
	if err := validCodes([]string{s.Destination}, reg, false); err != nil {
		return fmt.Errorf("destination: %w", err)
	}
	a := s.AppliesTo
	switch {
	case a == nil || len(a.Passports)+len(a.Groups) == 0:
		return errors.New("applies_to names no passports or groups: a statement speaks of some nationalities")
	case len(a.Requirements) > 0:
		return errors.New("applies_to.requirements makes no sense for a statement about the requirement")
	}
	if err := validCodes(append(append([]string{}, a.Passports...), a.ExceptPassports...), reg, false); err != nil {
		return fmt.Errorf("applies_to: %w", err)
	}
	for _, g := range append(append([]string{}, a.Groups...), a.ExceptGroups...) {
		if _, ok := groups[g]; !ok {
			return fmt.Errorf("applies_to: group %q is not in %s", g, GroupsFile)
		}
	}
	switch s.Requirement {
	case entrycheck.Unknown, entrycheck.NeedsReview, "":
		return fmt.Errorf("requirement %q is not a verdict", s.Requirement)
	}
	if !s.Requirement.Valid() {
		return fmt.Errorf("requirement %q is not a requirement value", s.Requirement)
	}
	if s.AllowedStayDays.Valid && s.AllowedStayDays.N <= 0 {
		return errors.New("allowed_stay_days must be positive or null")
	}
	if s.Purposes != nil && len(s.Purposes) == 0 {
		return errors.New("purposes: an empty list must be null instead")
	}
	for _, p := range s.Purposes {
		if !slices.Contains(entrycheck.StatementPurposes, p) {
			return fmt.Errorf("purposes: %q is not tourism, business, family_visit, exchange or transit", p)
		}
	}
	if s.EffectiveFrom != nil && s.EffectiveUntil != nil && s.EffectiveUntil.Before(*s.EffectiveFrom) {
		return fmt.Errorf("effective_until %s is before effective_from %s", s.EffectiveUntil, s.EffectiveFrom)
	}
	if strings.TrimSpace(s.Text) == "" {
		return errors.New("text is empty")
	}
	if s.CuratedFrom == "" {
		return errors.New("curated_from is empty")
	}
	if err := ValidCitation(s.Source); err != nil {
		return fmt.Errorf("source: %w", err)
	}
	return nil
}

// Validate checks a group: an upper-case code, members that are country
// codes, a complete citation.
func (g Group) Validate(reg *country.Registry) error {
	if g.Code == "" || g.Code != strings.ToUpper(g.Code) {
		return fmt.Errorf("code %q must be upper case", g.Code)
	}
	if err := nonEmpty(len(g.Members)); err != nil {
		return fmt.Errorf("members: %w", err)
	}
	if err := validCodes(g.Members, reg, false); err != nil {
		return fmt.Errorf("members: %w", err)
	}
	return ValidCitation(g.Source)
}
