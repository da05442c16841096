package entrycheck

import "github.com/entrycheck/entrycheck/internal/locale"

// States of a rule field for one passport (PassportRule.Applies).
const (
	// AppliesYes: the value holds for this passport.
	AppliesYes = "yes"
	// AppliesNotForThisPassport: the source gives the rule for other
	// passports only; it is not a gap, and no value is shown.
	AppliesNotForThisPassport = "not_for_this_passport"
	// AppliesDocumentedForOthers: the source speaks to other nationals (a
	// foreign ministry's advice to its own citizens); the value is a hint
	// that may differ for this passport, never a condition of a trip.
	AppliesDocumentedForOthers = "documented_for_others"
	// AppliesEnded and AppliesUpcoming: the source gives the rule for this
	// passport, but only for a period that has ended, or not yet begun, on
	// the day of the answer; it is not applied, and it is shown in
	// NotInForce.
	AppliesEnded    = PeriodEnded
	AppliesUpcoming = PeriodUpcoming
)

// RuleApplies lists every value of PassportRule.Applies.
var RuleApplies = []string{AppliesYes, AppliesNotForThisPassport, AppliesDocumentedForOthers, AppliesEnded, AppliesUpcoming}

// PassportRule is a curated rule field as it holds for the passport of a
// check: the variant (or the list items) selected for it, the source of
// what is shown and whether it holds.
type PassportRule[T any] struct {
	Applies string `json:"applies"`
	// Value is absent when Applies is not_for_this_passport.
	Value  T        `json:"value,omitzero"`
	Source Citation `json:"source"`
	// Note says in words why the field does not hold outright: whom the
	// source gives it for, or when; empty when Applies is yes.
	Note string `json:"note,omitempty" jsonschema:"Why the field does not hold outright; absent when applies is yes."`
	// NotInForce is what the source gives for this passport outside the
	// period it holds on the day of the answer (an item that has ended or
	// not yet begun, each with its status): shown, never applied. For a
	// single-valued field it is the variant the passport would hold if it
	// were in force; nil when there is none.
	NotInForce *T `json:"not_in_force,omitempty" jsonschema:"What the source gives for this passport whose period does not hold on the travel date (each item with status ended or upcoming): the variant of a single-valued field, the items of a list. Shown, never applied; absent when there is none."`
}

// Holding returns the rule when it holds for the passport, nil otherwise
// (absent, not for this passport or documented for others): what a trip
// may use as a condition.
func (r *PassportRule[T]) Holding() *PassportRule[T] {
	if r == nil || r.Applies != AppliesYes {
		return nil
	}
	return r
}

// Traveller is whom curated facts are selected for: a passport, the
// verdict of the route, the named groups (groups.json) it belongs to, and
// the day of travel, on which a dated fact must be in force to apply.
type Traveller struct {
	Passport    string
	Requirement Requirement
	// On is the day the rules are read for: the travel date (a trip leg's
	// own dates), today when none is given.
	On Date
	// InGroup tells whether a code is a member of a named group.
	InGroup func(group, code string) bool
	// Describe names the travellers an AppliesTo speaks of, for the notes,
	// in the language of Words.
	Describe func(*AppliesTo) string
	// Words is the language of the notes; nil for English.
	Words *locale.Catalog
}

// words is the catalog of the traveller's notes.
func (t Traveller) words() *locale.Catalog {
	if t.Words == nil {
		return English()
	}
	return t.Words
}

// scoped is a curated fact with a Scope.
type scoped interface{ ScopeOf() Scope }

// variant is a pointer to a single-valued fact that may carry its own source.
type variant[T scoped] interface {
	*T
	OwnSource() *Citation
	clearSource()
}

// state says whether a fact with scope s holds for the traveller: not for
// this passport, outside its period on the traveller's day (ended or
// upcoming), documented for other nationals, or yes.
func (t Traveller) state(s Scope) string {
	if !s.AppliesTo.Matches(t.Passport, t.Requirement, t.InGroup) {
		return AppliesNotForThisPassport
	}
	if status := s.StatusOn(t.On); status != PeriodInForce {
		return status
	}
	switch {
	case s.DocumentedFor != nil && !s.DocumentedFor.Matches(t.Passport, t.Requirement, t.InGroup):
		return AppliesDocumentedForOthers
	}
	return AppliesYes
}

// SelectVariant returns the field as it holds for the traveller: the first
// variant whose applies_to matches and whose period holds on the
// traveller's day, with its own source when it has one. A variant for the
// passport but out of its period is kept in NotInForce; when no variant
// holds, the field is in that variant's state (ended or upcoming), or not
// for this passport when none names it.
func SelectVariant[T scoped, P variant[T]](r *Rule[[]T], t Traveller) *PassportRule[T] {
	if r == nil {
		return nil
	}
	out := &PassportRule[T]{Applies: AppliesNotForThisPassport, Source: r.Source}
	outOfPeriod := false
	for _, v := range r.Value {
		s := t.state(v.ScopeOf())
		switch s {
		case AppliesNotForThisPassport:
			continue
		case AppliesEnded, AppliesUpcoming:
			if !outOfPeriod {
				outOfPeriod = true
				// It keeps its own source, if any: the field's cites what holds.
				nif := StampedOn(v, t.On)
				out.Applies, out.NotInForce = s, &nif
			}
			continue
		}
		out.Applies, out.Value = s, StampedOn(v, t.On)
		if own := P(&v).OwnSource(); own != nil {
			out.Source = *own
		}
		P(&out.Value).clearSource()
		if s == AppliesDocumentedForOthers {
			out.Note = t.documentedNote(v.ScopeOf().DocumentedFor)
		}
		return out
	}
	if !outOfPeriod {
		out.Note = notForNote(t, r.Value)
	}
	return out
}

// SelectItems returns a list field as it holds for the traveller: the items
// whose applies_to excludes the passport are left out, and those outside
// their period on the traveller's day are kept apart in NotInForce. The
// field holds (yes) when an item holds outright, is documented for others
// when every item kept is, is ended or upcoming when only items out of
// their period name the passport, and is not for this passport when none
// does.
func SelectItems[T scoped](r *Rule[[]T], t Traveller) *PassportRule[[]T] {
	if r == nil {
		return nil
	}
	out := &PassportRule[[]T]{Applies: AppliesNotForThisPassport, Source: r.Source}
	var documented *AppliesTo
	var notInForce []T
	outOfPeriod := ""
	for _, v := range r.Value {
		switch s := t.state(v.ScopeOf()); s {
		case AppliesYes:
			out.Applies = AppliesYes
		case AppliesDocumentedForOthers:
			documented = v.ScopeOf().DocumentedFor
		case AppliesEnded, AppliesUpcoming:
			if outOfPeriod == "" {
				outOfPeriod = s
			}
			notInForce = append(notInForce, StampedOn(v, t.On))
			continue
		default:
			continue
		}
		out.Value = append(out.Value, StampedOn(v, t.On))
	}
	if notInForce != nil {
		kept := notInForce
		out.NotInForce = &kept
	}
	switch {
	case out.Value == nil && outOfPeriod != "":
		out.Applies = outOfPeriod
	case out.Value == nil:
		out.Note = notForNote(t, r.Value)
	case out.Applies != AppliesYes:
		out.Applies, out.Note = AppliesDocumentedForOthers, t.documentedNote(documented)
	}
	return out
}

// StampedOn returns a copy of a fact with its status on day set, when the
// fact has a period (every fact embeds Scope).
func StampedOn[T scoped](v T, day Date) T {
	if !v.ScopeOf().Dated() {
		return v // most facts have no period, and copy nothing
	}
	return stamped(v, day)
}

// stamped sets the status of a dated fact; apart from StampedOn so that
// only a dated fact is moved to the heap for its pointer.
func stamped[T scoped](v T, day Date) T {
	if s, ok := any(&v).(interface{ stampOn(Date) }); ok {
		s.stampOn(day)
	}
	return v
}

// ItemHolds reports whether a list item holds for the traveller: true or
// false by its applies_to and its period, nil when its source speaks to
// other nationals.
func (t Traveller) ItemHolds(s Scope) *bool {
	yes, no := true, false
	switch t.state(s) {
	case AppliesYes:
		return &yes
	case AppliesDocumentedForOthers:
		return nil
	}
	return &no
}

// Open reports whether a fact is open to the traveller: its applies_to
// names the passport and its period holds on the traveller's day, whomever
// its source speaks to.
func (t Traveller) Open(s Scope) bool {
	st := t.state(s)
	return st == AppliesYes || st == AppliesDocumentedForOthers
}

func (t Traveller) documentedNote(a *AppliesTo) string {
	return documentedNoteIn(t.words(), t.describe(a))
}

// documentedNoteIn says that a fact's source speaks to the nationals whom
// names, not to every traveller, in the language of c.
func documentedNoteIn(c *locale.Catalog, whom string) string {
	return c.Text("rule.note.documented_for", "whom", whom)
}

func notForNote[T scoped](t Traveller, facts []T) string {
	c := t.words()
	var whom []string
	for _, v := range facts {
		whom = append(whom, t.describe(v.ScopeOf().AppliesTo))
	}
	if len(whom) == 0 {
		return c.Text("rule.note.not_for_others")
	}
	return c.Text("rule.note.not_for", "whom", listIn(c, "list.semicolon", whom))
}

func (t Traveller) describe(a *AppliesTo) string {
	if t.Describe == nil || a == nil {
		return t.words().Text("rule.note.other_travellers")
	}
	return t.Describe(a)
}

// Words is what a surface shows of the field given the value's text: the
// note alone when the rule is not for this passport, the note before the
// text when it is documented for others, the text otherwise.
func (r *PassportRule[T]) Words(text string) string {
	switch r.Applies {
	case AppliesNotForThisPassport:
		return r.Note
	case AppliesDocumentedForOthers:
		return r.Note + " " + text
	}
	return text
}
