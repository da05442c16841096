package generator

import (
	"strconv"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/evaluation"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// TestTransparencyCountsCitedPages: the page and its markdown count every
// cited page once by publisher, by how it was read and by whether it is
// dated, as the citations and the records' state say; a page becomes
// confirmed live once its records are verified on the live page.
func TestTransparencyCountsCitedPages(t *testing.T) {
	_, main, md := transparencyPage(t, transparencyDay, entrycheck.VerificationReport{})
	snap := datatest.Evaluator(t).Snapshot()
	records := snap.Curated.Records()
	pages := map[string][]entrycheck.Citation{}
	for _, r := range records {
		pages[r.Source.URL] = append(pages[r.Source.URL], r.Source)
	}
	wantPublisher, wantReading, wantDated := map[string]int{}, map[string]int{}, map[string]int{}
	for _, cites := range pages {
		publisher, stored, dated := publisherUnknown, true, false
		for _, c := range cites {
			if c.Publisher != "" && publisher == publisherUnknown {
				publisher = c.Publisher
			}
			stored = stored && c.ReadFrom == entrycheck.ReadFromStoredCopy
			dated = dated || c.ContentDate != ""
		}
		wantPublisher[publisher]++
		live := false
		for _, c := range cites {
			live = live || c.ReadFrom == entrycheck.ReadFromLive
		}
		switch {
		case live:
			wantReading[readConfirmed]++
		case stored:
			wantReading[readStoredOnly]++
		default:
			wantReading[readNotRecorded]++
		}
		if dated {
			wantDated[pageDated]++
		} else {
			wantDated[pageUndated]++
		}
	}
	for caption, want := range map[string]map[string]int{
		"Cited pages by publisher":          wantPublisher,
		"Cited pages by how they were read": wantReading,
		"Cited pages by date":               wantDated,
	} {
		got := tableRows(t, main, caption)
		sum := 0
		for label, n := range got {
			sum += n
			if n != want[label] {
				t.Errorf("%s: %q counts %d, want %d", caption, label, n, want[label])
			}
			if !strings.Contains(md, "- "+strings.ReplaceAll(label, "_", `\_`)+": "+strconv.Itoa(n)+"\n") {
				t.Errorf("%s: index.md does not count %d for %q", caption, n, label)
			}
		}
		if sum != len(pages) {
			t.Errorf("%s: %v sum to %d, want the %d cited pages", caption, got, sum, len(pages))
		}
	}

	// Thailand's passport-validity page confirmed on the live page.
	var validity entrycheck.CitedRecord
	for _, r := range records {
		if r.Destination == "THA" && r.Field == entrycheck.FieldPassportValidity {
			validity = r
		}
	}
	state := entrycheck.Verification{}
	for _, r := range records {
		if r.Source.URL == validity.Source.URL {
			state[r.Key()] = entrycheck.RecordState{LastVerified: transparencyDate(), Live: true}
		}
	}
	s := &site{ev: evaluation.NewVerified(snap, state)}
	_, readings, _ := s.sourceKinds(records)
	if c := countOf(readings, readConfirmed); c != wantReading[readConfirmed]+boolCount(!liveCited(pages[validity.Source.URL])) {
		t.Errorf("confirmed live after the confirmation: %d (%v)", c, readings)
	}
}

func transparencyDate() entrycheck.Date { return entrycheck.DateOf(transparencyDay) }

func countOf(counts []templates.Count, label string) int {
	for _, c := range counts {
		if c.Label == label {
			return c.N
		}
	}
	return -1
}

func liveCited(cites []entrycheck.Citation) bool {
	for _, c := range cites {
		if c.ReadFrom == entrycheck.ReadFromLive {
			return true
		}
	}
	return false
}

func boolCount(b bool) int {
	if b {
		return 1
	}
	return 0
}
