package entrycheck

import (
	"strings"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// Statuses of a dated fact (a rule item or an official statement) on a day.
const (
	PeriodInForce  = "in_force"
	PeriodUpcoming = "upcoming"
	PeriodEnded    = "ended"
)

// PeriodStatuses are the statuses a dated fact can have, the only values
// periodStatus returns. The OpenAPI enums of a statement's and a rule
// item's status are generated from it and the widget sends the words of
// each; every status needs its words (period.status.<status>) in every
// catalog, which TestEveryStatementStatusOnEverySurface holds. Read it,
// never change it.
var PeriodStatuses = []string{PeriodInForce, PeriodUpcoming, PeriodEnded}

// Period is when a curated rule item holds, as its source gives it. An
// absent start means only that the source names none: the item is the
// standing rule as read and holds on any date up to its end.
type Period struct {
	EffectiveFrom  *Date `json:"effective_from,omitempty" jsonschema:"First day the item holds, when its source gives one. Absent: the source names no start, and the item is the standing rule as read, holding on any date up to effective_until."`
	EffectiveUntil *Date `json:"effective_until,omitempty" jsonschema:"Last day the item holds, when its source gives one."`
	// Status is the item's status on the day of the answer (in_force,
	// upcoming or ended), set for an item that has a period. It is
	// computed from the period and the day, never curated.
	Status string `json:"status,omitempty" jsonschema:"The item's status on the travel date (the day of evaluation, or a trip leg's own date), computed from its period; present only for an item whose source gives a period. An item that is upcoming or ended is never applied and is listed under the field's not_in_force."`
}

// Dated reports whether the source gives the item a start or an end.
func (p Period) Dated() bool { return p.EffectiveFrom != nil || p.EffectiveUntil != nil }

// StatusOn returns the status of the period on day.
func (p Period) StatusOn(day Date) string {
	return periodStatus(p.EffectiveFrom, p.EffectiveUntil, day)
}

// periodStatus is in_force from the day from (when given) to the day until
// (when given), both included; upcoming before and ended after. A status
// it returns is one of PeriodStatuses, so that every surface words it.
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
func PeriodStatusWords(status string) string { return PeriodStatusWordsIn(English(), status) }

// PeriodStatusWordsIn is PeriodStatusWords in the language of c.
func PeriodStatusWordsIn(c *locale.Catalog, status string) string {
	return wordsOr(c, "period.status."+status, strings.ReplaceAll(status, "_", " "))
}

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
func (p Period) PeriodWords() string { return p.PeriodWordsIn(English()) }

// PeriodWordsIn is PeriodWords in the language of c.
func (p Period) PeriodWordsIn(c *locale.Catalog) string {
	switch p.Status {
	case PeriodEnded:
		return c.Text("period.ended", "date", p.EffectiveUntil.LongIn(c))
	case PeriodUpcoming:
		return c.Text("period.upcoming", "date", p.EffectiveFrom.LongIn(c))
	case PeriodInForce:
		switch {
		case p.EffectiveFrom != nil && p.EffectiveUntil != nil:
			return c.Text("period.between", "from", p.EffectiveFrom.LongIn(c), "until", p.EffectiveUntil.LongIn(c))
		case p.EffectiveUntil != nil:
			return c.Text("period.until", "date", p.EffectiveUntil.LongIn(c))
		case p.EffectiveFrom != nil:
			return c.Text("period.since", "date", p.EffectiveFrom.LongIn(c))
		}
	}
	return ""
}
