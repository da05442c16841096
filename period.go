package entrycheck

import "strings"

// Statuses of a dated fact (a rule item or an official statement) on a day.
const (
	PeriodInForce  = "in_force"
	PeriodUpcoming = "upcoming"
	PeriodEnded    = "ended"
)

// Period is when a curated rule item holds, as its source gives it. An
// absent start means only that the source names none: the item is the
// standing rule as read and holds on any date up to its end.
type Period struct {
	EffectiveFrom  *Date `json:"effective_from,omitempty"`
	EffectiveUntil *Date `json:"effective_until,omitempty"`
	// Status is the item's status on the day of the answer (in_force,
	// upcoming or ended), set for an item that has a period. It is
	// computed from the period and the day, never curated.
	Status string `json:"status,omitempty"`
}

// Dated reports whether the source gives the item a start or an end.
func (p Period) Dated() bool { return p.EffectiveFrom != nil || p.EffectiveUntil != nil }

// StatusOn returns the status of the period on day.
func (p Period) StatusOn(day Date) string {
	return periodStatus(p.EffectiveFrom, p.EffectiveUntil, day)
}

// periodStatus is in_force from the day from (when given) to the day until
// (when given), both included; upcoming before and ended after.
func periodStatus(from, until *Date, day Date) string {
	switch {
	case from != nil && day.Before(*from):
		return PeriodUpcoming
	case until != nil && until.Before(day):
		return PeriodEnded
	}
	return PeriodInForce
}

// PeriodStatusWords is a status as people read it: "in force",
// "upcoming", "ended".
func PeriodStatusWords(status string) string { return strings.ReplaceAll(status, "_", " ") }

// stampOn sets the status of a dated item on day; facts embed Scope, so
// every fact has it.
func (s *Scope) stampOn(day Date) {
	if s.Dated() {
		s.Status = s.StatusOn(day)
	}
}

// PeriodWords says when a dated item holds, given its status: "Until 31
// October 2026", "Ended on 31 October 2026; not applied", "From 1 January
// 2027; not applied yet"; empty for an item without a period (or one whose
// status was not computed).
func (p Period) PeriodWords() string {
	switch p.Status {
	case PeriodEnded:
		return "Ended on " + p.EffectiveUntil.Long() + "; not applied"
	case PeriodUpcoming:
		return "From " + p.EffectiveFrom.Long() + "; not applied yet"
	case PeriodInForce:
		switch {
		case p.EffectiveFrom != nil && p.EffectiveUntil != nil:
			return p.EffectiveFrom.Long() + " to " + p.EffectiveUntil.Long()
		case p.EffectiveUntil != nil:
			return "Until " + p.EffectiveUntil.Long()
		case p.EffectiveFrom != nil:
			return "Since " + p.EffectiveFrom.Long()
		}
	}
	return ""
}
