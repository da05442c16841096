package changes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/entrycheck/entrycheck"
)

// ChangesFeed is a document of /changes.json, the verification activity
// feed: the current document (/changes.json) or a month's archive
// (/changes/2025-01.json). Events are listed newest first; a subscriber
// reads the current document and follows prev_url through the archives
// until it reaches one it has read before (RFC 5005 semantics).
type ChangesFeed struct {
	FeedVersion int    `json:"feed_version"`
	Title       string `json:"title"`
	HomePageURL string `json:"home_page_url"`
	// FeedURL is this document's own URL; CurrentURL is /changes.json.
	FeedURL    string `json:"feed_url"`
	CurrentURL string `json:"current_url"`
	AtomURL    string `json:"atom_url"`
	// Archive is true for an archive document, whose events never change.
	Archive bool `json:"archive"`
	// Period is the month whose events are listed ("2025-01"): for the
	// current document the month of the newest event of the log.
	Period string `json:"period"`
	// PrevURL is the archive of the next older month with events and
	// NextURL that of the next newer one; null where there is none (the
	// current document has no next).
	PrevURL *string `json:"prev_url"`
	NextURL *string `json:"next_url"`
	// DatasetVersion is the site's dataset version in the current document
	// (or the newest event's); in an archive, that of its newest event.
	DatasetVersion string `json:"dataset_version"`
	// GeneratedAt is the newest event's time, not the wall clock, so the
	// same events give the same bytes; with no events, the dataset version's
	// date at 00:00 UTC, or null.
	GeneratedAt *time.Time `json:"generated_at"`
	// TotalEvents and Counts (the number of events of each kind) describe
	// the whole log in the current document, the month in an archive.
	TotalEvents int            `json:"total_events"`
	Counts      map[string]int `json:"counts"`
	// VerificationDays counts the daily readings of cited sources by
	// outcome, newest day first (in the current document at most
	// MaxVerificationDays; in an archive, the month's). The routine
	// source_reverified and source_baselined events are counted there and
	// in Counts, not listed in Events, so that the daily re-reading of every
	// source does not bury the rule changes.
	VerificationDays []entrycheck.VerificationDay `json:"verification_days"`
	Events           []FeedEvent                  `json:"events"`
}

// FeedEvent is an event of /changes.json: the Event and the page it is about.
type FeedEvent struct {
	Event
	URL string `json:"url"`
}

// jsonDocuments renders /changes.json and its archives: the current
// document first, then the archives newest first.
func jsonDocuments(site FeedSite, events []Event) ([]Document, error) {
	if err := site.validate(); err != nil {
		return nil, err
	}
	all := sorted(events)
	listed := make([]Event, 0, len(all))
	for _, e := range all {
		if !routine[e.Kind] {
			listed = append(listed, e)
		}
	}
	monthOf := map[string][]Event{} // every event of an archived month, for its counts
	for _, e := range all {
		monthOf[periodOf(e.Time)] = append(monthOf[periodOf(e.Time)], e)
	}
	var docs []Document
	for _, p := range paginate(listed, eventTime, currentPeriod(site, all)) {
		f := ChangesFeed{
			FeedVersion: ChangesFeedVersion,
			Title:       site.name() + ": verification activity",
			HomePageURL: site.HomeURL(),
			FeedURL:     site.JSONURL(),
			CurrentURL:  site.JSONURL(),
			AtomURL:     site.AtomURL(),
			Archive:     p.Archive,
			Period:      p.Period,
			PrevURL:     periodURL(site.base(), site.JSONArchivePath, p.Prev),
			NextURL:     periodURL(site.base(), site.JSONArchivePath, p.Next),
			Counts:      map[string]int{},
			Events:      make([]FeedEvent, 0, len(p.Entries)),
		}
		described, days := all, VerificationDays(all)
		f.DatasetVersion = datasetVersion(site, all)
		if p.Archive {
			described = monthOf[p.Period]
			days = VerificationDays(described)
			f.FeedURL = site.base() + site.JSONArchivePath(p.Period)
			f.DatasetVersion = described[0].DatasetVersion
			f.Title += " in " + p.Period
		}
		f.TotalEvents, f.VerificationDays = len(described), days[:min(len(days), MaxVerificationDays)]
		for _, e := range described {
			f.Counts[e.Kind]++
		}
		if t, ok := updated(site, described); ok {
			f.GeneratedAt = &t
		}
		for _, e := range p.Entries {
			f.Events = append(f.Events, feedEvent(site, e))
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(f); err != nil {
			return nil, fmt.Errorf("rendering %s: %w", f.FeedURL, err)
		}
		docs = append(docs, Document{Path: f.FeedURL[len(site.base()):], Body: b.Bytes()})
	}
	return docs, nil
}

func feedEvent(site FeedSite, e Event) FeedEvent {
	e.Time = e.Time.UTC()
	e.Destinations, e.Fields, e.Details = orEmpty(e.Destinations), orEmpty(e.Fields), detailsOrEmpty(e.Details)
	return FeedEvent{Event: e, URL: site.EventURL(e)}
}

func eventTime(e Event) time.Time { return e.Time }

// periodURL is the URL of a month's archive, nil for no month.
func periodURL(base string, archivePath func(string) string, period string) *string {
	if period == "" {
		return nil
	}
	u := base + archivePath(period)
	return &u
}
