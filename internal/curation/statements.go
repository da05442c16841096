package curation

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

// statementsOrigin is the curated_from of statements imported from the
// curators' format-2 notes; statements with another origin were curated in
// the project itself and are kept as they are.
const statementsOrigin = "curation-v2/official-statements.json"

// srcStatements is official-statements.json of the curators' notes (format 2).
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

// ConvertStatements imports the curators' official statements (format 2,
// srcFile) into the project's official-statements file, keeping the
// statements of the project's current file in curated that were curated in
// the project itself. Statements are ordered by destination
// and id, so that an import is reproducible.
func ConvertStatements(srcFile string, curated fs.FS) ([]byte, error) {
	var src srcStatements
	if err := decode(srcFile, &src); err != nil {
		return nil, err
	}
	if src.Format != 2 {
		return nil, fmt.Errorf("%s: format %d, want 2", srcFile, src.Format)
	}
	doc := dataset.StatementsDocument{Format: dataset.StatementsFormat}
	for i, s := range src.Statements {
		st, err := convertStatement(s)
		if err != nil {
			return nil, fmt.Errorf("%s: statements[%d] (%s): %w", srcFile, i, s.ID, err)
		}
		doc.Statements = append(doc.Statements, st)
	}
	if current, err := fs.ReadFile(curated, dataset.StatementsFile); err == nil {
		var kept dataset.StatementsDocument
		if err := json.Unmarshal(current, &kept); err != nil {
			return nil, fmt.Errorf("the current %s: %w", dataset.StatementsFile, err)
		}
		for _, s := range kept.Statements {
			if !strings.HasPrefix(s.CuratedFrom, statementsOrigin) {
				doc.Statements = append(doc.Statements, s)
			}
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

func convertStatement(s srcStatement) (dataset.OfficialStatement, error) {
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
		CuratedFrom: statementsOrigin,
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

// StatementsPath is the curators' format-2 statements file under a notes directory.
func StatementsPath(notesDir string) string {
	return filepath.Join(notesDir, "official-statements.json")
}
