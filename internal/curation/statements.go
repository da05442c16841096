package curation

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

// srcStatements is a statements file of the curators' notes (format 2):
// official-statements.json, or one of statements/*.json, one per official
// list, of the same shape.
type srcStatements struct {
	Format     int            `json:"format"`
	Statements []srcStatement `json:"statements"`
}

type srcStatement struct {
	ID              string                `json:"id"`
	Destination     string                `json:"destination"`
	AppliesTo       *entrycheck.AppliesTo `json:"applies_to"`
	Requirement     string                `json:"requirement"`
	AllowedStayDays entrycheck.Days       `json:"allowed_stay_days"`
	Purposes        []string              `json:"purposes"`
	EffectiveFrom   *string               `json:"effective_from"`
	EffectiveUntil  *string               `json:"effective_until"`
	Text            string                `json:"text"`
	Source          srcCitationV2         `json:"source"`
}

// srcCitationV2 is a format-2 source: format 1's and who published the
// page, the date it gives itself and how it was read.
type srcCitationV2 struct {
	Name        string  `json:"name"`
	URL         string  `json:"url"`
	Publisher   string  `json:"publisher"`
	ContentDate *string `json:"content_date"`
	ReadFrom    string  `json:"read_from"`
	RetrievedAt string  `json:"retrieved_at"`
}

func citationV2(c srcCitationV2) (entrycheck.Citation, error) {
	out, err := citation(srcCitation{Name: c.Name, URL: c.URL, RetrievedAt: c.RetrievedAt})
	if err != nil {
		return out, err
	}
	out.Publisher, out.ReadFrom = c.Publisher, c.ReadFrom
	if c.ContentDate != nil {
		out.ContentDate = *c.ContentDate
	}
	return out, nil
}

// statementFiles are the statements files of a notes directory, relative
// to it: official-statements.json, then statements/*.json in name order.
func statementFiles(notesDir string) ([]string, error) {
	lists, err := filepath.Glob(filepath.Join(notesDir, statementsDir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(lists)
	out := []string{dataset.StatementsFile}
	for _, p := range lists {
		out = append(out, path.Join(statementsDir, filepath.Base(p)))
	}
	return out, nil
}

// statementsDir holds one statements file per official list.
const statementsDir = "statements"

// convertStatements imports every official statement of the notes in
// notesDir into the project's official-statements file, each with the note
// file it came from (origin is the notes' name, such as curation-v3). A
// statement the loader would refuse, or an id used twice across the files,
// is refused with its file and JSON path. Statements are ordered by
// destination and id, so that an import is reproducible.
func convertStatements(notesDir, origin string, reg *country.Registry, groups map[string]dataset.Group) ([]byte, error) {
	files, err := statementFiles(notesDir)
	if err != nil {
		return nil, err
	}
	doc := dataset.StatementsDocument{Format: dataset.StatementsFormat}
	seen := map[string]string{}
	for _, rel := range files {
		var src srcStatements
		if err := decode(filepath.Join(notesDir, rel), &src); err != nil {
			return nil, err
		}
		if src.Format != noteFormat {
			return nil, fmt.Errorf("%s: format %d, want %d", rel, src.Format, noteFormat)
		}
		for i, s := range src.Statements {
			st, err := convertStatement(s, origin+"/"+rel)
			if err == nil {
				err = st.Validate(reg, groups)
			}
			if err != nil {
				return nil, fmt.Errorf("%s: statements[%d] (%s): %w", rel, i, s.ID, err)
			}
			if first, dup := seen[s.ID]; dup {
				return nil, fmt.Errorf("%s: statements[%d]: id %q is already used in %s", rel, i, s.ID, first)
			}
			seen[s.ID] = rel
			doc.Statements = append(doc.Statements, st)
		}
	}
	sort.SliceStable(doc.Statements, func(i, j int) bool {
		a, b := doc.Statements[i], doc.Statements[j]
		if a.Destination != b.Destination {
			return a.Destination < b.Destination
		}
		return a.ID < b.ID
	})
	return encode(doc)
}

func convertStatement(s srcStatement, from string) (dataset.OfficialStatement, error) {
	out := dataset.OfficialStatement{
		Statement: entrycheck.Statement{
			ID:              s.ID,
			Requirement:     entrycheck.Requirement(s.Requirement),
			AllowedStayDays: s.AllowedStayDays,
			Purposes:        s.Purposes,
			Text:            s.Text,
		},
		Destination: s.Destination,
		AppliesTo:   s.AppliesTo,
		CuratedFrom: from,
	}
	var err error
	if out.EffectiveFrom, err = optionalDate(s.EffectiveFrom); err != nil {
		return out, fmt.Errorf("effective_from: %w", err)
	}
	if out.EffectiveUntil, err = optionalDate(s.EffectiveUntil); err != nil {
		return out, fmt.Errorf("effective_until: %w", err)
	}
	if out.Source, err = sourceV2(s.Source); err != nil {
		return out, fmt.Errorf("source: %w", err)
	}
	return out, nil
}

func optionalDate(s *string) (*entrycheck.Date, error) {
	if s == nil {
		return nil, nil
	}
	d, err := entrycheck.ParseDate(*s)
	if err != nil {
		return nil, err
	}
	return &d, nil
}
