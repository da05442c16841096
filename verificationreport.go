package entrycheck

import "time"

// VerificationReport is what the daily verification of cited sources found,
// as the event log tells it: the newest run, the readings of each day and
// what awaits a curator. The event log is its only source (package verify
// digests it); the transparency page and the CLI show it as it is. The
// records' freshness is not here: the evaluator computes it, as every
// answer does.
type VerificationReport struct {
	// LastRun is the newest verification run; nil before the first.
	LastRun *VerificationRun
	// Days count the readings by outcome per day, newest first.
	Days []VerificationDay
	// Flags are the records awaiting a curator, oldest first.
	Flags []VerificationFlag
	// Unreachable are the sources whose newest reading failed.
	Unreachable []UnreachableSource
}

// ReadingCounts count readings of cited sources by outcome: the page still
// says what it said (Reverified), was read for the first time (Baselined),
// changed, or could not be read.
type ReadingCounts struct {
	Reverified  int `json:"reverified"`
	Baselined   int `json:"baselined"`
	Changed     int `json:"changed"`
	Unreachable int `json:"unreachable"`
}

// VerificationRun is one run of the verification: every cited source read
// once.
type VerificationRun struct {
	// ID identifies the run by its start, e.g. "20261122T030000Z".
	ID   string
	Time time.Time
	ReadingCounts
}

// VerificationDay counts one day's verification events: the readings by
// outcome, the records flagged (a changed page flags every record citing
// it) and the curators' reviews.
type VerificationDay struct {
	Date string `json:"date"`
	ReadingCounts
	Flagged  int `json:"flagged"`
	Reviewed int `json:"reviewed"`
}

// VerificationFlag is a record awaiting a curator: its source changed and
// nobody accepted the change yet (or a curator rejected the record, which
// then stays flagged until it is corrected).
type VerificationFlag struct {
	// ID is the rule_flagged event's id, which a review names.
	ID         string
	Record     CitedRecord
	SourceName string
	// Change says what changed on the page.
	Change string
	Since  time.Time
	// Rejected is set when a curator found that the record no longer holds;
	// Note is the curator's note.
	Rejected bool
	Note     string
}

// UnreachableSource is a cited page whose newest reading failed.
type UnreachableSource struct {
	URL, Name, Problem string
	// Since is the first of the consecutive failed readings.
	Since time.Time
	// Destinations are those whose records cite the page; none for a fact
	// shared by every destination.
	Destinations []string
}
