package generator

import (
	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/templates"
)

// Row labels of the source tables of the transparency page.
const (
	publisherUnknown = "unknown"
	readConfirmed    = "confirmed on the live page"
	readStoredOnly   = "read only from stored copies of unknown date"
	readNotRecorded  = "not recorded as read live"
	pageDated        = "dated (the page gives its own date)"
	pageUndated      = "undated"
)

// sourceKinds counts the cited pages (one per URL, however many records
// cite it) by publisher, by how they were read and by whether they give
// their own date. A page is confirmed live when a record citing it is
// verified on the live page, as the answers count it; otherwise it is read
// only from stored copies when every citation says so.
func (s *site) sourceKinds(records []entrycheck.CitedRecord) (publishers, readings, dated []templates.Count) {
	type page struct {
		publisher          string
		live, stored, date bool
	}
	pages := map[string]*page{}
	var order []string
	for _, r := range records {
		p := pages[r.Source.URL]
		if p == nil {
			p = &page{stored: true}
			pages[r.Source.URL] = p
			order = append(order, r.Source.URL)
		}
		if p.publisher == "" {
			p.publisher = r.Source.Publisher
		}
		p.live = p.live || s.ev.RecordState(r).Live
		p.stored = p.stored && r.Source.ReadFrom == entrycheck.ReadFromStoredCopy
		p.date = p.date || r.Source.ContentDate != ""
	}
	byPublisher, byReading, byDate := map[string]int{}, map[string]int{}, map[string]int{}
	for _, u := range order {
		p := pages[u]
		switch p.publisher {
		case entrycheck.PublisherDestinationGovernment, entrycheck.PublisherOtherGovernment, entrycheck.PublisherIntergovernmental:
			byPublisher[p.publisher]++
		default:
			byPublisher[publisherUnknown]++
		}
		switch {
		case p.live:
			byReading[readConfirmed]++
		case p.stored:
			byReading[readStoredOnly]++
		default:
			byReading[readNotRecorded]++
		}
		if p.date {
			byDate[pageDated]++
		} else {
			byDate[pageUndated]++
		}
	}
	counts := func(m map[string]int, labels ...string) []templates.Count {
		out := make([]templates.Count, len(labels))
		for i, l := range labels {
			out[i] = templates.Count{Label: l, N: m[l]}
		}
		return out
	}
	return counts(byPublisher, entrycheck.PublisherDestinationGovernment, entrycheck.PublisherOtherGovernment, entrycheck.PublisherIntergovernmental, publisherUnknown),
		counts(byReading, readConfirmed, readStoredOnly, readNotRecorded),
		counts(byDate, pageDated, pageUndated)
}
