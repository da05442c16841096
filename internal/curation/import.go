package curation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

// Files maps a path inside internal/dataset/curated to its content.
type Files map[string][]byte

// Convert reads the curators' format-2 notes under srcDir (groups.json,
// destinations/*.json, official-statements.json, statements/*.json and
// yellow-fever.json) and returns the whole curated layer in the project's
// format. A note the project would refuse is refused with its file and the
// JSON path of the problem. Each record names the note it came from under
// the notes' directory name (curation-v3/destinations/AUT.json).
func Convert(srcDir string) (Files, error) {
	reg, err := country.New()
	if err != nil {
		return nil, err
	}
	origin := filepath.Base(filepath.Clean(srcDir))
	out := Files{}
	groups, err := convertGroups(filepath.Join(srcDir, dataset.GroupsFile), reg)
	if err != nil {
		return nil, err
	}
	if out[dataset.GroupsFile], err = encode(struct {
		Groups []dataset.Group `json:"groups"`
	}{groups}); err != nil {
		return nil, err
	}
	byCode := map[string]dataset.Group{}
	for _, g := range groups {
		byCode[g.Code] = g
	}
	paths, err := filepath.Glob(filepath.Join(srcDir, dataset.DestinationsDir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no destination notes in %s", filepath.Join(srcDir, dataset.DestinationsDir))
	}
	sort.Strings(paths)
	for _, p := range paths {
		name := dataset.DestinationsDir + "/" + filepath.Base(p)
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		if out[name], err = destinationNote(b, name, origin, reg, byCode); err != nil {
			return nil, err
		}
	}
	if out[dataset.StatementsFile], err = convertStatements(srcDir, origin, reg, byCode); err != nil {
		return nil, fmt.Errorf("%s: %w", srcDir, err)
	}
	if out[dataset.YellowFeverFile], err = ConvertYellowFever(YellowFeverPath(srcDir)); err != nil {
		return nil, err
	}
	return out, nil
}

// destinationNote converts the note b of the file name
// (destinations/AUT.json) into the project's record, encoded. A note the
// project would refuse is refused with the file and the JSON path of the
// problem; origin is the notes' directory name, which the record cites.
func destinationNote(b []byte, name, origin string, reg *country.Registry, groups map[string]dataset.Group) ([]byte, error) {
	var src srcDestination
	if err := strictDecode(b, &src); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d, err := convertDestination(src, origin+"/"+name)
	if err == nil {
		err = d.Validate(reg, groups)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, notePath(err, src.Rules))
	}
	if want := strings.TrimSuffix(path.Base(name), ".json"); d.Destination != want {
		return nil, fmt.Errorf("%s: destination %q does not match the file name", name, d.Destination)
	}
	return encode(d)
}

func convertGroups(path string, reg *country.Registry) ([]dataset.Group, error) {
	var src srcGroups
	if err := decode(path, &src); err != nil {
		return nil, err
	}
	if src.Format != noteFormat {
		return nil, fmt.Errorf("%s: format %d, want %d", path, src.Format, noteFormat)
	}
	for i, g := range src.Groups {
		if err := g.Validate(reg); err != nil {
			return nil, fmt.Errorf("%s: groups[%d] (%s): %w", path, i, g.Code, err)
		}
	}
	return src.Groups, nil
}

// Write replaces the imported files under dstDir (internal/dataset/curated) with files,
// removing destination files that no longer have a note.
func Write(dstDir string, files Files) (written int, err error) {
	old, _ := filepath.Glob(filepath.Join(dstDir, dataset.DestinationsDir, "*.json"))
	for _, p := range old {
		rel := dataset.DestinationsDir + "/" + filepath.Base(p)
		if _, keep := files[rel]; !keep {
			if err := os.Remove(p); err != nil {
				return written, err
			}
		}
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := filepath.Join(dstDir, filepath.FromSlash(name))
		if cur, err := os.ReadFile(p); err == nil && bytes.Equal(cur, files[name]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return written, err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return written, err
		}
		written++
	}
	return written, nil
}

func decode(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func citation(c srcCitation) (entrycheck.Citation, error) {
	d, err := entrycheck.ParseDate(c.RetrievedAt)
	if err != nil {
		return entrycheck.Citation{}, fmt.Errorf("citation %s: retrieved_at: %w", c.URL, err)
	}
	return entrycheck.Citation{Name: c.Name, URL: c.URL, RetrievedAt: d}, nil
}

func convertDestination(s srcDestination, from string) (*dataset.Destination, error) {
	if s.Format != noteFormat {
		return nil, fmt.Errorf("format %d, want %d", s.Format, noteFormat)
	}
	d := &dataset.Destination{
		Destination:  s.Destination,
		Name:         s.Name,
		CompiledAt:   s.CompiledAt,
		ImportedFrom: from,
		Apply:        s.Apply,
		CuratorNotes: s.Notes,
	}
	if d.Apply == nil {
		d.Apply = []entrycheck.ApplyEntry{}
	}
	d.Rules = s.Rules.rules
	return d, nil
}

// notePath turns the path of a problem in the converted record into its
// path in the note: a single-valued field whose note holds one value has
// no index.
func notePath(err error, r srcRules) error {
	pe, ok := err.(*dataset.PathError)
	if !ok {
		return err
	}
	for _, f := range entrycheck.RuleFields() {
		if prefix := "rules." + f.Name + ".value[0]"; !f.List() && r.single[f.Name] && strings.HasPrefix(pe.Path, prefix) {
			return &dataset.PathError{Path: "rules." + f.Name + ".value" + strings.TrimPrefix(pe.Path, prefix), Err: pe.Err}
		}
	}
	return err
}
