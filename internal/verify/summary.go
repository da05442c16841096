package verify

import (
	"slices"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
)

// Summarize digests the verification events (any order) into the report,
// with the flags still open (Fold's Open).
func Summarize(events []changes.Event, open []entrycheck.VerificationFlag) entrycheck.VerificationReport {
	o := entrycheck.VerificationReport{Days: changes.VerificationDays(events), Flags: open}
	type history struct {
		last       changes.SourceCheck
		lastKind   string
		failedFrom time.Time
		dests      []string
	}
	sources := map[string]*history{}
	var order []string
	for _, e := range oldestFirst(events) {
		switch e.Kind {
		case changes.KindSourceReverified, changes.KindSourceBaselined, changes.KindSourceChanged, changes.KindSourceUnreachable:
		default:
			continue
		}
		c, err := changes.DecodeDetails[changes.SourceCheck](e)
		if err != nil {
			continue
		}
		if o.LastRun == nil || o.LastRun.ID != c.RunID {
			o.LastRun = &entrycheck.VerificationRun{ID: c.RunID, Time: e.Time}
		}
		switch e.Kind {
		case changes.KindSourceReverified:
			o.LastRun.Reverified++
		case changes.KindSourceBaselined:
			o.LastRun.Baselined++
		case changes.KindSourceChanged:
			o.LastRun.Changed++
		case changes.KindSourceUnreachable:
			o.LastRun.Unreachable++
		}
		h := sources[c.URL]
		if h == nil {
			h = &history{}
			sources[c.URL] = h
			order = append(order, c.URL)
		}
		if e.Kind == changes.KindSourceUnreachable && h.lastKind != changes.KindSourceUnreachable {
			h.failedFrom = e.Time
		}
		h.last, h.lastKind, h.dests = c, e.Kind, e.Destinations
	}
	for _, url := range order {
		h := sources[url]
		if h.lastKind == changes.KindSourceUnreachable {
			o.Unreachable = append(o.Unreachable, entrycheck.UnreachableSource{URL: url, Name: h.last.SourceName,
				Problem: h.last.Problem, Since: h.failedFrom, Destinations: slices.Clone(h.dests)})
		}
	}
	return o
}
