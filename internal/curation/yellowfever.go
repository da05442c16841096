package curation

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

// srcYellowFeverV2 is yellow-fever.json of the curators' notes (format 2).
type srcYellowFeverV2 struct {
	Format         int                           `json:"format"`
	Source         srcCitationV2                 `json:"source"`
	Edition        string                        `json:"edition"`
	RiskCountries  []string                      `json:"risk_countries"`
	RiskInPartOnly []string                      `json:"risk_in_part_only"`
	RiskNote       string                        `json:"risk_note"`
	CountriesNote  string                        `json:"countries_note"`
	Countries      map[string]srcYellowFeverRule `json:"countries"`
}

// srcYellowFeverRule is one country's entry; Source is null when no
// official source gave any of its fields.
type srcYellowFeverRule struct {
	entrycheck.YellowFever
	Source *srcCitationV2 `json:"source"`
}

// YellowFeverPath is the curators' format-2 yellow-fever file under a notes directory.
func YellowFeverPath(notesDir string) string {
	return filepath.Join(notesDir, "yellow-fever.json")
}

// ConvertYellowFever imports the curators' yellow-fever file (format 2):
// the WHO risk list and each country's cited certificate rule. A malformed
// file is refused with its path and the JSON path of the problem.
func ConvertYellowFever(srcFile string) ([]byte, error) {
	var src srcYellowFeverV2
	if err := decode(srcFile, &src); err != nil {
		return nil, err
	}
	reg, err := country.New()
	if err != nil {
		return nil, err
	}
	t, err := convertYellowFeverV2(src, reg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", srcFile, err)
	}
	return encode(t)
}

func convertYellowFeverV2(s srcYellowFeverV2, reg *country.Registry) (*dataset.YellowFeverTable, error) {
	if s.Format != 2 {
		return nil, fmt.Errorf("format: %d, want 2", s.Format)
	}
	src, err := sourceV2(s.Source)
	if err != nil {
		return nil, fmt.Errorf("source: %w", err)
	}
	if err := isoCodes(s.RiskCountries, reg); err != nil {
		return nil, fmt.Errorf("risk_countries%w", err)
	}
	if err := isoCodes(s.RiskInPartOnly, reg); err != nil {
		return nil, fmt.Errorf("risk_in_part_only%w", err)
	}
	for i, c := range s.RiskInPartOnly {
		if !slices.Contains(s.RiskCountries, c) {
			return nil, fmt.Errorf("risk_in_part_only[%d]: %q is not in risk_countries", i, c)
		}
	}
	t := &dataset.YellowFeverTable{
		RiskList: dataset.RiskList{
			Countries:  s.RiskCountries,
			InPartOnly: s.RiskInPartOnly,
			Note:       s.RiskNote,
			Edition:    s.Edition,
			Source:     src,
		},
		Countries: map[string]entrycheck.Rule[entrycheck.YellowFever]{},
		Note:      s.CountriesNote,
	}
	for code, c := range s.Countries {
		at := "countries." + code
		if err := isoCodes([]string{code}, reg); err != nil {
			return nil, fmt.Errorf("countries: %q is not an ISO 3166-1 alpha-3 code", code)
		}
		if c.Source == nil {
			if c.CertificateRequired != nil || c.MinAgeMonths != nil || c.IncludesTransit != nil || c.TransitHours != nil || c.ExtraRiskCountries != nil {
				return nil, fmt.Errorf("%s.source: null, but the entry states a rule (every fact needs a source)", at)
			}
			if t.Unsourced == nil {
				t.Unsourced = map[string]string{}
			}
			t.Unsourced[code] = c.Text
			continue
		}
		rule, err := yellowFeverRule(c, reg)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", at, err)
		}
		t.Countries[code] = rule
	}
	return t, nil
}

func yellowFeverRule(c srcYellowFeverRule, reg *country.Registry) (entrycheck.Rule[entrycheck.YellowFever], error) {
	var r entrycheck.Rule[entrycheck.YellowFever]
	if v := c.CertificateRequired; v != nil {
		switch *v {
		case entrycheck.YellowFeverAllTravellers, entrycheck.YellowFeverFromRiskCountries, entrycheck.YellowFeverNone:
		default:
			return r, fmt.Errorf("certificate_required: %q is not all_travellers, from_risk_countries, none or null", *v)
		}
	}
	if v := c.MinAgeMonths; v != nil && *v < 0 {
		return r, fmt.Errorf("min_age_months: %d is negative", *v)
	}
	if v := c.TransitHours; v != nil && *v <= 0 {
		return r, fmt.Errorf("transit_hours: %d is not a positive number of hours", *v)
	}
	if err := isoCodes(c.ExtraRiskCountries, reg); err != nil {
		return r, fmt.Errorf("extra_risk_countries%w", err)
	}
	src, err := sourceV2(*c.Source)
	if err != nil {
		return r, fmt.Errorf("source: %w", err)
	}
	r.Value = c.YellowFever
	r.Source = src
	return r, nil
}

// isoCodes checks a list of country codes; its error starts with the
// index of the bad one ("[0]: ..."), to follow the list's JSON path.
func isoCodes(codes []string, reg *country.Registry) error {
	for i, c := range codes {
		if _, ok := reg.ByISO3(c); !ok || !isUpper(c) {
			return fmt.Errorf("[%d]: %q is not an ISO 3166-1 alpha-3 code", i, c)
		}
		if slices.Contains(codes[:i], c) {
			return fmt.Errorf("[%d]: %q is listed twice", i, c)
		}
	}
	return nil
}

func isUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// sourceV2 converts a format-2 source and refuses what the project would
// refuse (dataset.ValidCitation), so that the error names the note's path.
func sourceV2(c srcCitationV2) (entrycheck.Citation, error) {
	out, err := citationV2(c)
	if err != nil {
		return out, err
	}
	return out, dataset.ValidCitation(out)
}
