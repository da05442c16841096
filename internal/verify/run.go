package verify

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/pagefetch"
	"github.com/entrycheck/entrycheck/internal/store"
)

// JobName names the verification run's lock: instances sharing a
// PostgreSQL database run it once.
const JobName = "verify"

// Fetcher reads pages; *pagefetch.Fetcher is the real one.
type Fetcher interface {
	FetchAll(ctx context.Context, reqs []pagefetch.Request, progress func(done, total int)) []pagefetch.Result
}

// Runner runs the verification of every cited source.
type Runner struct {
	Store   *store.Store
	Fetcher Fetcher
	// Records are the cited records of the curated layer (Curated.Records).
	Records []entrycheck.CitedRecord
	// DatasetVersion is written in the events.
	DatasetVersion string
	Clock          entrycheck.Clock
	// Progress, when set, is told of each page read.
	Progress func(done, total int)
}

// Outcomes of a source in a run.
const (
	OutcomeReverified  = "reverified"
	OutcomeBaselined   = "baselined"
	OutcomeChanged     = "changed"
	OutcomeUnreachable = "unreachable"
)

// Report says what a run found: the run as the verification report counts
// it, what it found of each source and the records it flagged.
type Report struct {
	entrycheck.VerificationRun
	// Skipped is set when another instance holds the run's lock; nothing
	// was read.
	Skipped bool
	Sources []SourceOutcome
	Flagged int
}

// SourceOutcome is what a run found of one source.
type SourceOutcome struct {
	URL, Name string
	Outcome   string
	// Detail is the change or the problem, for people.
	Detail string
}

// Run reads every source, records what it found as events and keeps the
// new baselines. It takes the job lock first; with another instance running
// the job, it returns a skipped report. Pages that cannot be read are
// outcomes, not errors: the error is for the store.
func (r Runner) Run(ctx context.Context) (Report, error) {
	ok, release, err := r.Store.TryJobLock(ctx, JobName)
	if err != nil {
		return Report{}, err
	}
	started := r.Clock.Now().UTC().Truncate(time.Second)
	rep := Report{VerificationRun: entrycheck.VerificationRun{ID: started.Format("20060102T150405Z"), Time: started}}
	if !ok {
		rep.Skipped = true
		return rep, nil
	}
	defer release()

	pages, err := r.Store.SourcePages(ctx)
	if err != nil {
		return Report{}, err
	}
	sources := Sources(r.Records)
	reqs := make([]pagefetch.Request, len(sources))
	for i, s := range sources {
		reqs[i] = pagefetch.Request{URL: s.URL}
		if p, ok := pages[s.URL]; ok {
			reqs[i].ETag, reqs[i].LastModified = p.ETag, p.LastModified
		}
	}
	results := r.Fetcher.FetchAll(ctx, reqs, r.Progress)

	var events []changes.Event
	var keep []store.SourcePage
	for i, s := range sources {
		prev, known := pages[s.URL]
		o := outcomeOf(results[i], prev, known)
		rep.count(o.outcome)
		rep.Sources = append(rep.Sources, SourceOutcome{URL: s.URL, Name: s.Name, Outcome: o.outcome, Detail: o.detail})
		evs, err := r.events(rep.ID, started, s, results[i], o)
		if err != nil {
			return Report{}, err
		}
		events = append(events, evs...)
		if o.outcome == OutcomeChanged {
			rep.Flagged += len(s.Records)
		}
		if o.keep != nil {
			keep = append(keep, *o.keep)
		}
	}
	// The events first: a run whose baselines were not kept is compared
	// with the old ones next time, and reports the change again.
	if _, err := changes.Append(ctx, r.Store, events); err != nil {
		return Report{}, err
	}
	if err := r.Store.PutSourcePages(ctx, keep); err != nil {
		return Report{}, err
	}
	return rep, nil
}

func (rep *Report) count(outcome string) {
	switch outcome {
	case OutcomeReverified:
		rep.Reverified++
	case OutcomeBaselined:
		rep.Baselined++
	case OutcomeChanged:
		rep.Changed++
	case OutcomeUnreachable:
		rep.Unreachable++
	}
}

// judged is a reading compared with the kept one.
type judged struct {
	outcome string
	detail  string
	// keep is the page to keep as the new baseline, nil to keep the old.
	keep *store.SourcePage
}

// outcomeOf compares a reading with the last good one.
func outcomeOf(res pagefetch.Result, prev store.SourcePage, known bool) judged {
	page := store.SourcePage{URL: res.URL, ETag: res.ETag, LastModified: res.LastModified,
		Fingerprint: res.Fingerprint, Text: res.Text, ReadAt: res.FetchedAt.UTC()}
	switch {
	case res.Status == pagefetch.StatusFailed:
		return judged{outcome: OutcomeUnreachable, detail: withoutAddresses(res.Problem)}
	case res.Status == pagefetch.StatusNotModified && known:
		prev.ETag, prev.LastModified, prev.ReadAt = res.ETag, res.LastModified, page.ReadAt
		return judged{outcome: OutcomeReverified, detail: "not modified (HTTP 304)", keep: &prev}
	case res.Status == pagefetch.StatusNotModified:
		// Validators are only sent for a kept page; a 304 without one
		// cannot be compared.
		return judged{outcome: OutcomeUnreachable, detail: "HTTP 304 to an unconditional request"}
	case !known:
		return judged{outcome: OutcomeBaselined, detail: "first reading kept as the baseline", keep: &page}
	case res.Fingerprint == prev.Fingerprint:
		return judged{outcome: OutcomeReverified, detail: "main text unchanged", keep: &page}
	}
	change := pagefetch.Summarize(prev.Text, res.Text)
	if res.Text == "" || prev.Text == "" {
		change = "the document changed (" + res.ContentType + ", no text to compare)"
	}
	return judged{outcome: OutcomeChanged, detail: change, keep: &page}
}

// networkAddress matches an IP address, with its port, in an error text
// ("lookup x on 10.0.0.53:53", "dial tcp 192.0.2.7:443"): problems are
// published, addresses of our resolver or of the sites' servers are not
// (the host name says which site).
var networkAddress = regexp.MustCompile(`( on)? (?:\[[0-9a-fA-F:]+\]|(?:\d{1,3}\.){3}\d{1,3})(?::\d+)?`)

// withoutAddresses drops network addresses from a problem text.
func withoutAddresses(problem string) string { return networkAddress.ReplaceAllString(problem, "") }

// events are the log entries of one source's reading.
func (r Runner) events(runID string, at time.Time, s Source, res pagefetch.Result, o judged) ([]changes.Event, error) {
	check := changes.SourceCheck{
		URL: s.URL, SourceName: s.Name, RunID: runID, HTTPStatus: res.HTTPStatus,
		Fingerprint: res.Fingerprint, Attempts: res.Attempts, Records: s.refs(),
	}
	var kind, summary string
	switch o.outcome {
	case OutcomeReverified:
		kind, summary = changes.KindSourceReverified, "Re-verified: "+s.Name
		if check.Fingerprint == "" && o.keep != nil {
			check.Fingerprint = o.keep.Fingerprint
		}
	case OutcomeBaselined:
		kind, summary = changes.KindSourceBaselined, "Read for the first time: "+s.Name
	case OutcomeUnreachable:
		kind, summary = changes.KindSourceUnreachable, "Unreachable: "+s.Name+" ("+o.detail+")"
		check.Reason, check.Problem = res.Reason, o.detail
	case OutcomeChanged:
		kind, summary = changes.KindSourceChanged, "Changed: "+s.Name
		check.Change = o.detail
	}
	id := "source/" + runID + "/" + urlKey(s.URL)
	ev, err := r.event(id, kind, at, s.destinations(), s.fields(), summary, check)
	if err != nil || o.outcome != OutcomeChanged {
		return []changes.Event{ev}, err
	}
	out := []changes.Event{ev}
	for _, rec := range s.Records {
		flag := changes.Flag{
			RecordRef:   changes.RecordRef{Destination: rec.Destination, Field: rec.Field},
			URL:         s.URL,
			SourceName:  s.Name,
			ChangeEvent: id,
			Change:      o.detail,
		}
		who := orShared(rec.Destination)
		var dests []string
		if rec.Destination != "" {
			dests = []string{rec.Destination}
		}
		fe, err := r.event("flag/"+runID+"/"+who+"/"+rec.Field+"/"+urlKey(s.URL), changes.KindRuleFlagged, at,
			dests, []string{rec.Field}, fmt.Sprintf("Needs review: %s %s, its source changed (%s)", who, rec.Field, s.Name), flag)
		if err != nil {
			return nil, err
		}
		out = append(out, fe)
	}
	return out, nil
}

func (r Runner) event(id, kind string, at time.Time, dests, fields []string, summary string, details any) (changes.Event, error) {
	b, err := json.Marshal(details)
	if err != nil {
		return changes.Event{}, fmt.Errorf("event %s: %w", id, err)
	}
	return changes.Event{ID: id, Kind: kind, Time: at, DatasetVersion: r.DatasetVersion,
		Destinations: dests, Fields: fields, Summary: summary, Details: b}, nil
}
