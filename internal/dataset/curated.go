package dataset

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
)

// The curated layer in the project's format. Destination files are imported
// from the curators' source notes by `entrycheck curation import`; the
// official-verdict statements and country groups are curated here directly,
// each fact with its citation.
//
//go:embed curated
var curatedFS embed.FS

// CuratedFS returns the embedded curated layer, rooted at its directory.
func CuratedFS() fs.FS {
	sub, err := fs.Sub(curatedFS, "curated")
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	return sub
}

// Destination is the curated record of one destination.
type Destination struct {
	Destination  string                  `json:"destination"`
	Name         string                  `json:"name"`
	CompiledAt   entrycheck.Date         `json:"compiled_at"`
	ImportedFrom string                  `json:"imported_from"`
	Rules        Rules                   `json:"rules"`
	Apply        []entrycheck.ApplyEntry `json:"apply"`
	CuratorNotes string                  `json:"curator_notes"`
}

// Rules are a destination's cited entry rules (entrycheck.CuratedRules):
// each field of entrycheck.RuleFields, nil when no official source gave it.
type Rules = entrycheck.CuratedRules

// YellowFeverTable is the yellow-fever certificate table and the list of risk countries.
type YellowFeverTable struct {
	RiskList  RiskList                                           `json:"risk_list"`
	Countries map[string]entrycheck.Rule[entrycheck.YellowFever] `json:"countries"`
	// Unsourced keeps the curators' text for countries whose entry rests on
	// no official source (every field null): shown nowhere, so that no
	// answer cites what only a third party says.
	Unsourced map[string]string `json:"unsourced,omitempty"`
	Note      string            `json:"note"`
}

// RiskList is the cited list of countries with risk of yellow-fever transmission.
type RiskList struct {
	Countries  []string            `json:"countries"`
	InPartOnly []string            `json:"in_part_only"`
	Note       string              `json:"note"`
	Edition    string              `json:"edition"`
	Source     entrycheck.Citation `json:"source"`
}

// OfficialStatement is an official statement as curated: for which
// destination and passports, and where it was curated from. While in force
// it is compared with the matrix: disagreeing makes the route needs_review,
// agreeing corroborates it.
type OfficialStatement struct {
	entrycheck.Statement
	Destination string                `json:"destination"`
	AppliesTo   *entrycheck.AppliesTo `json:"applies_to"`
	CuratedFrom string                `json:"curated_from"`
}

// StatementsFormat is the format of the project's official-statements file.
const StatementsFormat = 2

// StatementsDocument is the official-statements file.
type StatementsDocument struct {
	Format     int                 `json:"format"`
	Statements []OfficialStatement `json:"statements"`
}

// Group is a named group of countries, such as SCHENGEN, whose visas or
// residence permits curated exemptions accept as one.
type Group struct {
	Code    string              `json:"code"`
	Name    string              `json:"name"`
	Members []string            `json:"members"`
	Text    string              `json:"text"`
	Source  entrycheck.Citation `json:"source"`
}

// Curated is the whole curated layer.
type Curated struct {
	Destinations map[string]*Destination
	YellowFever  YellowFeverTable
	Statements   []OfficialStatement
	Groups       map[string]Group
}

// Curated-layer file names inside the curated directory.
const (
	DestinationsDir = "destinations"
	YellowFeverFile = "yellow-fever.json"
	StatementsFile  = "official-statements.json"
	GroupsFile      = "groups.json"
)

// LoadCurated reads and validates the curated layer from fsys (CuratedFS()
// for the embedded one). Every non-null rule must carry a complete citation.
func LoadCurated(fsys fs.FS, reg *country.Registry) (*Curated, error) {
	c := &Curated{Destinations: map[string]*Destination{}, Groups: map[string]Group{}}
	files, err := fs.Glob(fsys, DestinationsDir+"/*.json")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("curated layer: no files in %s/", DestinationsDir)
	}
	var groups struct {
		Groups []Group `json:"groups"`
	}
	if err := decodeFile(fsys, GroupsFile, &groups); err != nil {
		return nil, err
	}
	for _, g := range groups.Groups {
		if err := g.Validate(reg); err != nil {
			return nil, fmt.Errorf("curated %s: group %s: %w", GroupsFile, g.Code, err)
		}
		c.Groups[g.Code] = g
	}
	for _, f := range files {
		var d Destination
		if err := decodeFile(fsys, f, &d); err != nil {
			return nil, err
		}
		if want := strings.TrimSuffix(path.Base(f), ".json"); d.Destination != want {
			return nil, fmt.Errorf("curated %s: destination %q does not match the file name", f, d.Destination)
		}
		if err := d.Validate(reg, c.Groups); err != nil {
			return nil, fmt.Errorf("curated %s: %w", f, err)
		}
		c.Destinations[d.Destination] = &d
	}
	if err := decodeFile(fsys, YellowFeverFile, &c.YellowFever); err != nil {
		return nil, err
	}
	if err := c.YellowFever.validate(reg); err != nil {
		return nil, fmt.Errorf("curated %s: %w", YellowFeverFile, err)
	}
	var statements StatementsDocument
	if err := decodeFile(fsys, StatementsFile, &statements); err != nil {
		return nil, err
	}
	if statements.Format != StatementsFormat {
		return nil, fmt.Errorf("curated %s: format %d, want %d", StatementsFile, statements.Format, StatementsFormat)
	}
	ids := map[string]bool{}
	for i, s := range statements.Statements {
		if err := s.Validate(reg, c.Groups); err != nil {
			return nil, fmt.Errorf("curated %s: statement %d (%s): %w", StatementsFile, i+1, s.ID, err)
		}
		if ids[s.ID] {
			return nil, fmt.Errorf("curated %s: statement %d: id %q is used twice", StatementsFile, i+1, s.ID)
		}
		ids[s.ID] = true
	}
	c.Statements = statements.Statements
	return c, nil
}

func decodeFile(fsys fs.FS, name string, v any) error {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("curated layer: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("curated %s: %w", name, err)
	}
	return nil
}

// SortedCodes returns the codes of the curated destinations in order.
func (c *Curated) SortedCodes() []string {
	codes := make([]string, 0, len(c.Destinations))
	for k := range c.Destinations {
		codes = append(codes, k)
	}
	sort.Strings(codes)
	return codes
}

// CitedCodes returns, in order, the codes of the curated destinations for
// which an official source gave at least one entry rule (coverage
// extended): what every surface counts as destinations with cited rules.
func (c *Curated) CitedCodes() []string {
	var out []string
	for _, code := range c.SortedCodes() {
		if c.Destinations[code].Rules.Cited() {
			out = append(out, code)
		}
	}
	return out
}

// Records lists every cited record of the curated layer, each destination's
// in field order, then the shared facts: what the daily verification
// re-reads.
func (c *Curated) Records() []entrycheck.CitedRecord {
	var out []entrycheck.CitedRecord
	add := func(dest, field string, src entrycheck.Citation) {
		out = append(out, entrycheck.CitedRecord{Destination: dest, Field: field, Source: src})
	}
	set := map[string]bool{}
	for code := range c.Destinations {
		set[code] = true
	}
	for code := range c.YellowFever.Countries {
		set[code] = true
	}
	for _, s := range c.Statements {
		set[s.Destination] = true
	}
	codes := make([]string, 0, len(set))
	for code := range set {
		codes = append(codes, code)
	}
	sort.Strings(codes)
	for _, code := range codes {
		if d, ok := c.Destinations[code]; ok {
			for _, f := range entrycheck.RuleFields() {
				for _, src := range sources(f.Facts(d.Rules)) {
					add(code, f.Name, src)
				}
			}
			for _, a := range d.Apply {
				add(code, entrycheck.FieldApply, a.Source)
			}
		}
		if yf, ok := c.YellowFever.Countries[code]; ok {
			add(code, entrycheck.FieldYellowFever, yf.Source)
		}
		for _, s := range c.Statements {
			if s.Destination == code {
				add(code, entrycheck.FieldOfficialStatement, s.Source)
			}
		}
	}
	add("", entrycheck.FieldYellowFeverRiskList, c.YellowFever.RiskList.Source)
	groups := make([]string, 0, len(c.Groups))
	for g := range c.Groups {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for _, g := range groups {
		add("", entrycheck.FieldGroup, c.Groups[g].Source)
	}
	return dedupeRecords(out)
}

// sources returns the sources of a field: the field's, then each variant's
// own, which is re-read like any other; none when the field is absent.
func sources(r *entrycheck.Rule[[]entrycheck.RuleFact]) []entrycheck.Citation {
	if r == nil {
		return nil
	}
	out := []entrycheck.Citation{r.Source}
	for _, v := range r.Value {
		if v.Source != nil {
			out = append(out, *v.Source)
		}
	}
	return out
}

// dedupeRecords drops repeated records (two statements of one destination
// citing the same page are one record).
func dedupeRecords(in []entrycheck.CitedRecord) []entrycheck.CitedRecord {
	seen := map[entrycheck.RecordKey]bool{}
	out := in[:0]
	for _, r := range in {
		if !seen[r.Key()] {
			seen[r.Key()] = true
			out = append(out, r)
		}
	}
	return out
}
