package entrycheck

import "strings"

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
)

// PassportRule is a curated rule field as it holds for the passport of a
// check: the variant (or the list items) selected for it, the source of
// what is shown and whether it holds.
type PassportRule[T any] struct {
	Applies string `json:"applies"`
	// Value is absent when Applies is not_for_this_passport.
	Value  T        `json:"value,omitzero"`
	Source Citation `json:"source"`
	// Note says in words why the field does not hold outright: whom the
	// source gives it for; empty when Applies is yes.
	Note string `json:"note,omitempty"`
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
// verdict of the route, and the named groups (groups.json) it belongs to.
type Traveller struct {
	Passport    string
	Requirement Requirement
	// InGroup tells whether a code is a member of a named group.
	InGroup func(group, code string) bool
	// Describe names the travellers an AppliesTo speaks of, for the notes.
	Describe func(*AppliesTo) string
}

// scoped is a curated fact with a Scope.
type scoped interface{ ScopeOf() Scope }

// variant is a pointer to a single-valued fact that may carry its own source.
type variant[T scoped] interface {
	*T
	OwnSource() *Citation
	clearSource()
}

// state says whether a fact with scope s holds for the traveller.
func (t Traveller) state(s Scope) string {
	switch {
	case !s.AppliesTo.Matches(t.Passport, t.Requirement, t.InGroup):
		return AppliesNotForThisPassport
	case s.DocumentedFor != nil && !s.DocumentedFor.Matches(t.Passport, t.Requirement, t.InGroup):
		return AppliesDocumentedForOthers
	}
	return AppliesYes
}

// SelectVariant returns the field as it holds for the traveller: the first
// variant whose applies_to matches, with its own source when it has one;
// when none matches, the field with the state not_for_this_passport.
func SelectVariant[T scoped, P variant[T]](r *Rule[[]T], t Traveller) *PassportRule[T] {
	if r == nil {
		return nil
	}
	for _, v := range r.Value {
		s := t.state(v.ScopeOf())
		if s == AppliesNotForThisPassport {
			continue
		}
		out := &PassportRule[T]{Applies: s, Value: v, Source: r.Source}
		if own := P(&v).OwnSource(); own != nil {
			out.Source = *own
		}
		P(&out.Value).clearSource()
		if s == AppliesDocumentedForOthers {
			out.Note = t.documentedNote(v.ScopeOf().DocumentedFor)
		}
		return out
	}
	return &PassportRule[T]{Applies: AppliesNotForThisPassport, Source: r.Source, Note: notForNote(t, r.Value)}
}

// SelectItems returns a list field as it holds for the traveller: the items
// whose applies_to excludes the passport are left out. The field holds
// (yes) when an item holds outright, is documented for others when every
// item kept is, and is not for this passport when none is kept.
func SelectItems[T scoped](r *Rule[[]T], t Traveller) *PassportRule[[]T] {
	if r == nil {
		return nil
	}
	out := &PassportRule[[]T]{Applies: AppliesNotForThisPassport, Source: r.Source}
	var documented *AppliesTo
	for _, v := range r.Value {
		switch t.state(v.ScopeOf()) {
		case AppliesYes:
			out.Applies = AppliesYes
		case AppliesDocumentedForOthers:
			documented = v.ScopeOf().DocumentedFor
		default:
			continue
		}
		out.Value = append(out.Value, v)
	}
	switch {
	case out.Value == nil:
		out.Note = notForNote(t, r.Value)
	case out.Applies != AppliesYes:
		out.Applies, out.Note = AppliesDocumentedForOthers, t.documentedNote(documented)
	}
	return out
}

// ItemHolds reports whether a list item holds for the traveller: true or
// false by its applies_to, nil when its source speaks to other nationals.
func (t Traveller) ItemHolds(s Scope) *bool {
	yes, no := true, false
	switch t.state(s) {
	case AppliesYes:
		return &yes
	case AppliesNotForThisPassport:
		return &no
	}
	return nil
}

func (t Traveller) documentedNote(a *AppliesTo) string { return documentedNote(t.describe(a)) }

// documentedNote says that a fact's source speaks to the nationals whom
// names, not to every traveller.
func documentedNote(whom string) string {
	return "Documented for " + whom + "; it may differ for yours."
}

func notForNote[T scoped](t Traveller, facts []T) string {
	var whom []string
	for _, v := range facts {
		whom = append(whom, t.describe(v.ScopeOf().AppliesTo))
	}
	if len(whom) == 0 {
		return "Does not apply to your passport: the official source gives this rule for other travellers only."
	}
	return "Does not apply to your passport: the official source gives this rule for " + strings.Join(whom, "; ") + "."
}

func (t Traveller) describe(a *AppliesTo) string {
	if t.Describe == nil || a == nil {
		return "other travellers"
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
