package curation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/dataset"
)

// Files maps a path inside dataset/curated to its content.
type Files map[string][]byte

// Convert reads the curators' destination notes under srcDir
// (destinations/*.json) and returns the files of the project's format; the
// yellow-fever table comes from ConvertYellowFever (format 2).
func Convert(srcDir string) (Files, error) {
	out := Files{}
	paths, err := filepath.Glob(filepath.Join(srcDir, "destinations", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("no destination notes in %s", filepath.Join(srcDir, "destinations"))
	}
	sort.Strings(paths)
	for _, p := range paths {
		var src srcDestination
		if err := decode(p, &src); err != nil {
			return nil, err
		}
		d, err := convertDestination(src, "curation/destinations/"+filepath.Base(p))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		b, err := encode(d)
		if err != nil {
			return nil, err
		}
		out[dataset.DestinationsDir+"/"+filepath.Base(p)] = b
	}
	return out, nil
}

// Write replaces the imported files under dstDir (dataset/curated) with files,
// removing destination files that no longer have a note. The hand-curated
// files (groups, official verdicts) are left alone.
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
	compiled, err := entrycheck.ParseDate(s.CompiledAt)
	if err != nil {
		return nil, fmt.Errorf("compiled_at: %w", err)
	}
	d := &dataset.Destination{
		Destination:  s.Destination,
		Name:         s.Name,
		CompiledAt:   compiled,
		ImportedFrom: from,
		Apply:        []entrycheck.ApplyEntry{},
		CuratorNotes: s.Notes,
	}
	r := s.Rules
	var cerr error
	cite := func(c srcCitation) entrycheck.Citation {
		v, err := citation(c)
		if err != nil && cerr == nil {
			cerr = err
		}
		return v
	}
	if v := r.PassportValidity; v != nil {
		d.Rules.PassportValidity = &entrycheck.Rule[entrycheck.PassportValidity]{
			Value:  entrycheck.PassportValidity{MinMonthsRemaining: v.Value.MinMonthsRemaining, CountedFrom: v.Value.CountedFrom, Text: v.Value.Text},
			Source: cite(v.Source),
		}
	}
	if v := r.BlankPages; v != nil {
		d.Rules.BlankPages = &entrycheck.Rule[entrycheck.BlankPages]{
			Value:  entrycheck.BlankPages{Pages: v.Value.Pages, Text: v.Value.Text},
			Source: cite(v.Source),
		}
	}
	if v := r.OnwardTicket; v != nil {
		req, err := onwardRequired(v.Value.Required)
		if err != nil {
			return nil, fmt.Errorf("onward_ticket: %w", err)
		}
		d.Rules.OnwardTicket = &entrycheck.Rule[entrycheck.OnwardTicket]{
			Value:  entrycheck.OnwardTicket{Required: req, Text: v.Value.Text},
			Source: cite(v.Source),
		}
	}
	if v := r.OtherHealth; v != nil {
		rule := &entrycheck.Rule[[]entrycheck.HealthRule]{Source: cite(v.Source)}
		for _, h := range v.Value {
			rule.Value = append(rule.Value, entrycheck.HealthRule{Topic: h.Topic, Text: h.Text})
		}
		d.Rules.OtherHealth = rule
	}
	if v := r.TWOV; v != nil {
		rule := &entrycheck.Rule[[]entrycheck.TWOVProgram]{Source: cite(v.Source)}
		for _, p := range v.Value {
			e, err := eligibility(p.Eligible)
			if err != nil {
				return nil, fmt.Errorf("twov %q: %w", p.Program, err)
			}
			rule.Value = append(rule.Value, entrycheck.TWOVProgram{Program: p.Program, MaxHours: p.MaxHours, AirsideOnly: p.AirsideOnly, Eligible: e, Text: p.Text})
		}
		d.Rules.TWOV = rule
	}
	if v := r.ResidencePermitExemptions; v != nil {
		rule := &entrycheck.Rule[[]entrycheck.Exemption]{Source: cite(v.Source)}
		for _, e := range v.Value {
			x := entrycheck.Exemption{HoldersOf: e.HoldersOf, Document: e.Document, Effect: entrycheck.Requirement(e.Effect), Text: e.Text}
			if e.MaxStayDays != nil {
				x.MaxStayDays = entrycheck.SomeDays(*e.MaxStayDays)
			}
			rule.Value = append(rule.Value, x)
		}
		d.Rules.ResidencePermitExemptions = rule
	}
	for _, a := range s.Apply {
		e := entrycheck.ApplyEntry{Apply: entrycheck.Apply{URL: a.URL, Kind: a.Kind, Note: a.Note, Source: cite(a.Source)}}
		for _, r := range a.Requirements {
			e.Requirements = append(e.Requirements, entrycheck.Requirement(r))
		}
		d.Apply = append(d.Apply, e)
	}
	return d, cerr
}

// onwardRequired maps the notes' true, false or "may_be_asked" to the project's words.
func onwardRequired(raw json.RawMessage) (string, error) {
	switch strings.TrimSpace(string(raw)) {
	case "true":
		return entrycheck.OnwardRequired, nil
	case "false":
		return entrycheck.OnwardNotRequired, nil
	case `"may_be_asked"`:
		return entrycheck.OnwardMayBeAsked, nil
	}
	return "", fmt.Errorf("required %s is not true, false or \"may_be_asked\"", raw)
}

// eligibility maps the notes' "all", list of codes or description.
func eligibility(raw json.RawMessage) (entrycheck.Eligibility, error) {
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return entrycheck.Eligibility{Kind: entrycheck.EligiblePassports, Passports: list}, nil
	}
	var text string
	if err := json.Unmarshal(raw, &text); err != nil {
		return entrycheck.Eligibility{}, fmt.Errorf("eligible %s is neither a list of codes nor a text", raw)
	}
	if text == "all" {
		return entrycheck.Eligibility{Kind: entrycheck.EligibleAll}, nil
	}
	return entrycheck.Eligibility{Kind: entrycheck.EligibleDescribed, Description: &text}, nil
}
