package generator

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck/internal/answertext"
)

// writeYellowFever lists the WHO risk list and each destination's
// certificate rule with its own source: whether a rule applies depends on
// the traveller's route, which the route pages and the API work out.
func (s *site) writeYellowFever(b *bytes.Buffer) error {
	t := s.ev.Snapshot().Curated.YellowFever
	b.WriteString("== Yellow fever (cited) ==\n\n")
	fmt.Fprintf(b, "Risk countries (WHO list): %s. Risk in part only: %s. %s\n", strings.Join(t.RiskList.Countries, ", "), strings.Join(t.RiskList.InPartOnly, ", "), answertext.CiteInline(t.RiskList.Source))
	codes := make([]string, 0, len(t.Countries))
	for code := range t.Countries {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		a, err := s.ev.Destination(code, s.now)
		if err != nil {
			return fmt.Errorf("the yellow-fever table names %s: %w", code, err)
		}
		c, y := a.Destination, a.EntryRules.YellowFever
		fmt.Fprintf(b, "%s %s: %s %s %s\n", c.ISO3, c.Name, y.Covers(c.Name), y.Value.Text, answertext.CiteInline(y.Source))
	}
	b.WriteByte('\n')
	return nil
}
