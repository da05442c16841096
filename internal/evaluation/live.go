package evaluation

import "github.com/entrycheck/entrycheck"

// notLive says why a destination's rules are not verified on the live
// pages: a reason (entrycheck.Reason*) and the note for people (a message
// of the catalogs, naming a day), all empty when every rule's source was
// read live.
type notLive struct {
	reason, note string
	day          entrycheck.Date
}

// words is the note in the language of w.
func (n notLive) words(w *words) string { return w.Text(n.note, "date", n.day.LongIn(w.Catalog)) }

// notLiveOf finds the rule records (official statements excepted: they are
// about the verdict) whose last verification is not a reading of the live
// page. The oldest such record names the day in the note; a stored copy
// or a page not recorded as live counts as read from a stored copy, and
// the reason is awaiting_confirmation only when the verifier has read the
// live page of every such record.
func notLiveOf(records []entrycheck.CitedRecord, v entrycheck.Verification) notLive {
	var oldest *entrycheck.CitedRecord
	awaiting := true
	for i, r := range records {
		if r.Field == entrycheck.FieldOfficialStatement {
			continue
		}
		s := v.StateOf(r)
		if s.Live {
			continue
		}
		awaiting = awaiting && s.Awaiting
		if oldest == nil || r.Source.RetrievedAt.Before(oldest.Source.RetrievedAt) {
			oldest = &records[i]
		}
	}
	if oldest == nil {
		return notLive{}
	}
	note := "rules.note.unrecorded"
	if oldest.Source.ReadFrom == entrycheck.ReadFromStoredCopy {
		note = "rules.note.stored_copy"
	}
	if awaiting {
		return notLive{entrycheck.ReasonAwaitingConfirmation, note + "_awaiting", oldest.Source.RetrievedAt}
	}
	return notLive{entrycheck.ReasonStoredCopy, note, oldest.Source.RetrievedAt}
}
