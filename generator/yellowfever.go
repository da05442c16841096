package generator

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/country"
	"github.com/entrycheck/entrycheck/internal/answertext"
)

// yellowFeverDetail says whom a destination's certificate rule covers,
// naming the countries it treats as risk countries beyond the WHO list.
func yellowFeverDetail(dest entrycheck.Country, y entrycheck.YellowFever, reg *country.Registry) string {
	if y.CertificateRequired == nil {
		return "The source does not say whom the rule covers."
	}
	d := map[string]string{
		entrycheck.YellowFeverAllTravellers:     "A certificate is required of all travellers",
		entrycheck.YellowFeverFromRiskCountries: "A certificate is required of travellers arriving from (or transiting) a yellow-fever risk country",
		entrycheck.YellowFeverNone:              "No certificate is required",
	}[*y.CertificateRequired]
	if y.MinAgeMonths != nil {
		d += fmt.Sprintf(", from the age of %d months", *y.MinAgeMonths)
	}
	if len(y.ExtraRiskCountries) > 0 {
		names := make([]string, len(y.ExtraRiskCountries))
		for i, code := range y.ExtraRiskCountries {
			names[i] = code
			if c, ok := reg.ByISO3(code); ok {
				names[i] = c.Name
			}
		}
		d += "; besides the WHO list, " + dest.Name + " treats " + strings.Join(names, ", ") + " as risk countries (its own list)"
	}
	return d + "."
}

// writeYellowFever lists the WHO risk list and each destination's
// certificate rule with its own source: whether a rule applies depends on
// the traveller's route, which the route pages and the API work out.
func (s *site) writeYellowFever(b *bytes.Buffer) {
	snap := s.ev.Snapshot()
	t := snap.Curated.YellowFever
	b.WriteString("== Yellow fever (cited) ==\n\n")
	fmt.Fprintf(b, "Risk countries (WHO list): %s. Risk in part only: %s. %s\n", strings.Join(t.RiskList.Countries, ", "), strings.Join(t.RiskList.InPartOnly, ", "), answertext.CiteInline(t.RiskList.Source))
	codes := make([]string, 0, len(t.Countries))
	for code := range t.Countries {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		r := t.Countries[code]
		c, _ := snap.Countries.ByISO3(code)
		fmt.Fprintf(b, "%s %s: %s %s %s\n", c.ISO3, c.Name, yellowFeverDetail(c, r.Value, snap.Countries), r.Value.Text, answertext.CiteInline(r.Source))
	}
	b.WriteByte('\n')
}
