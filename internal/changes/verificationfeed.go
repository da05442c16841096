package changes

import (
	"fmt"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
)

// dayEntries makes one Atom entry a day that had routine readings: how many
// sources were re-verified, read for the first time, changed or could not
// be read. An entry is dated by the day's last reading; its id names the
// day, so a later run the same day updates the entry rather than adding one.
func dayEntries(site FeedSite, events []Event) []Event {
	last := map[string]time.Time{}
	for _, e := range events {
		if !routine[e.Kind] && e.Kind != KindSourceChanged && e.Kind != KindSourceUnreachable {
			continue
		}
		d := e.Time.UTC().Format(time.DateOnly)
		if e.Time.After(last[d]) {
			last[d] = e.Time.UTC()
		}
	}
	var out []Event
	for _, day := range VerificationDays(events) {
		if _, ok := last[day.Date]; !ok {
			continue
		}
		out = append(out, Event{
			ID:      "verification-day/" + day.Date,
			Kind:    KindVerificationDay,
			Time:    last[day.Date],
			Summary: daySummary(day),
		})
	}
	return out
}

// daySummary is the title of a day's entry.
func daySummary(d entrycheck.VerificationDay) string {
	parts := []string{plural(d.Reverified, "cited source re-verified", "cited sources re-verified")}
	if d.Baselined > 0 {
		parts = append(parts, plural(d.Baselined, "read for the first time", "read for the first time"))
	}
	if d.Changed > 0 {
		parts = append(parts, plural(d.Changed, "changed", "changed"))
	}
	if d.Unreachable > 0 {
		parts = append(parts, plural(d.Unreachable, "unreachable", "unreachable"))
	}
	return "Verification on " + d.Date + ": " + strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// verificationText is the body of a verification event's Atom entry.
func verificationText(e Event) string {
	switch e.Kind {
	case KindSourceChanged, KindSourceUnreachable:
		c, err := DecodeDetails[SourceCheck](e)
		if err != nil {
			return e.Summary
		}
		what := c.Change
		if e.Kind == KindSourceUnreachable {
			what = c.Problem + ". The records citing it keep their last verification date, which ages until they are stale."
		} else {
			what += ". The records citing it need review by a curator."
		}
		return fmt.Sprintf("%s. %s (%s): %s", e.Summary, c.SourceName, c.URL, what)
	case KindRuleFlagged:
		f, err := DecodeDetails[Flag](e)
		if err != nil {
			return e.Summary
		}
		return fmt.Sprintf("%s. Source: %s (%s). What changed: %s", e.Summary, f.SourceName, f.URL, f.Change)
	case KindReviewAccepted, KindReviewRejected:
		r, err := DecodeDetails[Review](e)
		if err != nil || r.Note == "" {
			return e.Summary
		}
		return fmt.Sprintf("%s. Curator's note: %s", e.Summary, r.Note)
	}
	return e.Summary
}
