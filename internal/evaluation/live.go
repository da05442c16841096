package evaluation

import "github.com/entrycheck/entrycheck"

// notLive says why a destination's rules are not verified on the live
// pages: a reason (entrycheck.Reason*) and a note for people, both empty
// when every rule's source was read live.
type notLive struct{ reason, note string }

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
	read := "Rules read on " + oldest.Source.RetrievedAt.Long() + " without a record that the live page was read"
	if oldest.Source.ReadFrom == entrycheck.ReadFromStoredCopy {
		read = "Rules read from a stored copy of unknown date on " + oldest.Source.RetrievedAt.Long()
	}
	if awaiting {
		return notLive{entrycheck.ReasonAwaitingConfirmation, read + "; the live page has been read again, and it is not yet confirmed that it says what the rules say."}
	}
	return notLive{entrycheck.ReasonStoredCopy, read + "; not yet confirmed on the live page."}
}
