package generator

import "time"

// Verification is what the transparency page shows of the daily
// verification of cited sources, from the event log. The records' freshness
// is not here: the page computes it from the evaluator, as every answer does.
type Verification struct {
	// LastRun is the newest verification run; nil before the first.
	LastRun *VerificationRun
	// Days count the readings by outcome per day, newest first.
	Days []VerificationDay
	// Flags are the records awaiting a curator, oldest first.
	Flags []VerificationFlag
	// Unreachable are the sources whose last reading failed.
	Unreachable []UnreachableSource
}

// VerificationRun counts one run's outcomes.
type VerificationRun struct {
	ID                                          string
	Time                                        time.Time
	Reverified, Baselined, Changed, Unreachable int
}

// VerificationDay counts one day's readings by outcome.
type VerificationDay struct {
	Date                                                           string
	Reverified, Baselined, Changed, Unreachable, Flagged, Reviewed int
}

// VerificationFlag is a record whose source changed and that awaits a
// curator (or that a curator found no longer holds: Rejected).
type VerificationFlag struct {
	ID string
	// Destination is an ISO3 code, empty for a fact shared by every destination.
	Destination string
	Field       string
	SourceName  string
	URL         string
	Change      string
	Since       time.Time
	Rejected    bool
	Note        string
}

// UnreachableSource is a cited page whose last reading failed.
type UnreachableSource struct {
	SourceName string
	URL        string
	Problem    string
	// Since is the first of the consecutive failed readings.
	Since        time.Time
	Destinations []string
}
