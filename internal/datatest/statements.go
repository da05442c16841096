package datatest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
)

// StatementRoutes works out, independently of the evaluation core, which
// routes of the current matrix the curators' official statements (their
// notes in ../shared/curation-v3, read as plain JSON) corroborate and
// which they contradict on day (YYYY-MM-DD), for a tourist visit: a
// statement is in force from its effective_from, or from the day its
// source was read when it gives none, to its effective_until; it speaks of
// the passports it names and the members of the groups it names. A route
// is in conflict when a statement in force says another requirement, or
// another stay where both give one, and corroborated when statements in
// force say the same and none contradicts it.
func StatementRoutes(t testing.TB, day string) (corroborated, conflicting map[string]bool) {
	t.Helper()
	notes := filepath.Join(SharedDir(t), "curation-v3")
	files, err := filepath.Glob(filepath.Join(notes, "statements", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, filepath.Join(notes, "official-statements.json"))
	var groups struct {
		Groups []struct {
			Code    string
			Members []string
		}
	}
	readJSON(t, filepath.Join(notes, "groups.json"), &groups)
	members := map[string][]string{}
	for _, g := range groups.Groups {
		members[g.Code] = g.Members
	}
	matrix := Routes(t, Current)
	agrees := map[string]bool{}
	conflicting = map[string]bool{}
	for _, file := range files {
		var doc struct {
			Statements []struct {
				Destination string
				AppliesTo   struct{ Passports, Groups []string } `json:"applies_to"`
				Requirement string
				Stay        *int `json:"allowed_stay_days"`
				Purposes    []string
				From        *string `json:"effective_from"`
				Until       *string `json:"effective_until"`
				Source      struct {
					RetrievedAt string `json:"retrieved_at"`
				}
			}
		}
		readJSON(t, file, &doc)
		for _, s := range doc.Statements {
			from := s.Source.RetrievedAt
			if s.From != nil {
				from = *s.From
			}
			if day < from || s.Until != nil && day > *s.Until || s.Purposes != nil && !slices.Contains(s.Purposes, "tourism") {
				continue
			}
			passports := slices.Clone(s.AppliesTo.Passports)
			for _, g := range s.AppliesTo.Groups {
				passports = append(passports, members[g]...)
			}
			for _, p := range passports {
				route := p + "-" + s.Destination
				value, ok := matrix[route]
				if !ok || value == "-1" {
					continue
				}
				req, days := matrixWords[value], 0
				if n, err := strconv.Atoi(value); err == nil {
					req, days = "visa_free", n
				}
				if req == s.Requirement && (s.Stay == nil || days == 0 || *s.Stay == days) {
					agrees[route] = true
				} else {
					conflicting[route] = true
				}
			}
		}
	}
	corroborated = map[string]bool{}
	for route := range agrees {
		if !conflicting[route] {
			corroborated[route] = true
		}
	}
	return corroborated, conflicting
}

// matrixWords are the requirement values of the matrix's words.
var matrixWords = map[string]string{
	"visa free": "visa_free", "visa on arrival": "visa_on_arrival", "e-visa": "e_visa",
	"eta": "eta", "visa required": "visa_required", "no admission": "no_admission",
}

func readJSON(t testing.TB, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

// Requirements gives each route of the current matrix the requirement its
// answer must give on day, worked out independently of the evaluation
// core: the matrix's, or needs_review where an official statement in force
// contradicts it (StatementRoutes). Routes the matrix leaves out ("-1")
// are left out.
func Requirements(t testing.TB, day string) map[string]string {
	t.Helper()
	_, conflicting := StatementRoutes(t, day)
	out := map[string]string{}
	for route, value := range Routes(t, Current) {
		switch _, err := strconv.Atoi(value); {
		case value == "-1":
		case conflicting[route]:
			out[route] = "needs_review"
		case err == nil:
			out[route] = "visa_free"
		default:
			out[route] = matrixWords[value]
		}
	}
	return out
}

// CitedDestinations counts the curators' destination notes (in
// ../shared/curation-v3, read as plain JSON) with at least one rule an
// official source gave, and all the notes.
func CitedDestinations(t testing.TB) (cited, notes int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(SharedDir(t), "curation-v3", "destinations", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no destination notes: %v", err)
	}
	for _, f := range files {
		var note struct{ Rules map[string]any }
		readJSON(t, f, &note)
		for _, r := range note.Rules {
			if r != nil {
				cited++
				break
			}
		}
	}
	return cited, len(files)
}
