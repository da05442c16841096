package dataset

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/country"
)

// PathError is a problem of a curated record at a JSON path inside its
// file, such as rules.passport_validity.value[1].applies_to.groups[0].
type PathError struct {
	Path string
	Err  error
}

func (e *PathError) Error() string { return e.Path + ": " + e.Err.Error() }

func (e *PathError) Unwrap() error { return e.Err }

// at puts err under path: a PathError's own path is appended to it.
func at(path string, err error) error {
	if err == nil {
		return nil
	}
	if pe, ok := err.(*PathError); ok {
		return &PathError{Path: path + pe.Path, Err: pe.Err}
	}
	return &PathError{Path: path, Err: err}
}

// Validate checks a destination record: codes, citations, the values of
// every rule and whom they apply to, named groups resolved in groups.
// Errors are PathErrors.
func (d *Destination) Validate(reg *country.Registry, groups map[string]Group) error {
	if _, ok := reg.ByISO3(d.Destination); !ok || d.Destination != strings.ToUpper(d.Destination) {
		return at("destination", fmt.Errorf("%q is not an ISO 3166-1 alpha-3 code", d.Destination))
	}
	if d.CompiledAt.IsZero() {
		return at("compiled_at", errors.New("missing"))
	}
	c := checker{reg: reg, groups: groups}
	for _, f := range entrycheck.RuleFields() {
		if err := c.field(f.Name, f.Facts(d.Rules)); err != nil {
			return err
		}
	}
	for i, a := range d.Apply {
		if err := validApply(a); err != nil {
			return at(fmt.Sprintf("apply[%d]", i), err)
		}
		if err := c.appliesTo(".applies_to", a.AppliesTo); err != nil {
			return at(fmt.Sprintf("apply[%d]", i), err)
		}
	}
	return nil
}

// checker validates codes and applies_to against the registry and the groups.
type checker struct {
	reg    *country.Registry
	groups map[string]Group
}

// field validates one non-null rule field: its citation, then each
// variant or item: whom it applies to, its own source, its value.
func (c checker) field(name string, r *entrycheck.Rule[[]entrycheck.RuleFact]) error {
	if r == nil {
		return nil
	}
	path := "rules." + name
	if err := ValidCitation(r.Source); err != nil {
		return at(path+".source", err)
	}
	if err := nonEmpty(len(r.Value)); err != nil {
		return at(path+".value", err)
	}
	for i, v := range r.Value {
		item := fmt.Sprintf("%s.value[%d]", path, i)
		if err := c.appliesTo(".applies_to", v.AppliesTo); err != nil {
			return at(item, err)
		}
		if err := c.appliesTo(".documented_for", v.DocumentedFor); err != nil {
			return at(item, err)
		}
		if err := validPeriod(v.Period); err != nil {
			return at(item, err)
		}
		if v.Source != nil {
			if err := ValidCitation(*v.Source); err != nil {
				return at(item+".source", err)
			}
		}
		if err := c.value(v.Value); err != nil {
			return at(item, err)
		}
	}
	return nil
}

// value checks what a variant or item must hold besides its scope and
// source: the rules of its own type. A type without any has none here.
func (c checker) value(v any) error {
	switch v := v.(type) {
	case entrycheck.PassportValidity:
		return c.validity(v)
	case entrycheck.BlankPages:
		return positive(v.Pages, "pages")
	case entrycheck.OnwardTicket:
		return validOnward(v.Required)
	case entrycheck.HealthRule:
		return c.codes(".from_countries", v.FromCountries, false)
	case entrycheck.TWOVProgram:
		return nonBlank(".program", v.Program)
	case entrycheck.Exemption:
		return c.exemption(v)
	case entrycheck.ArrivalFormality:
		return validFormality(v)
	}
	return nil
}

// appliesTo checks that every passport is a country code, every group is
// in groups.json and every requirement is a verdict.
func (c checker) appliesTo(path string, a *entrycheck.AppliesTo) error {
	if a == nil {
		return nil
	}
	if err := c.codes(path+".passports", a.Passports, false); err != nil {
		return err
	}
	if err := c.codes(path+".except_passports", a.ExceptPassports, false); err != nil {
		return err
	}
	for _, k := range []struct {
		key    string
		groups []string
	}{{".groups", a.Groups}, {".except_groups", a.ExceptGroups}} {
		for i, g := range k.groups {
			if _, ok := c.groups[g]; !ok {
				return at(fmt.Sprintf("%s%s[%d]", path, k.key, i), fmt.Errorf("unknown group %q", g))
			}
		}
	}
	for i, r := range a.Requirements {
		if !r.Valid() || r == entrycheck.Unknown || r == entrycheck.NeedsReview {
			return at(fmt.Sprintf("%s.requirements[%d]", path, i), fmt.Errorf("%q is not a verdict", r))
		}
	}
	if len(a.Passports)+len(a.ExceptPassports)+len(a.Groups)+len(a.ExceptGroups)+len(a.Requirements) == 0 {
		return at(path, errors.New("names nobody: leave it out instead"))
	}
	return nil
}

// codes checks ISO 3166-1 alpha-3 codes; with groupsAllowed a code may also
// name a group of groups.json.
func (c checker) codes(path string, codes []string, groupsAllowed bool) error {
	for i, code := range codes {
		if _, ok := c.groups[code]; ok && groupsAllowed {
			continue
		}
		if _, ok := c.reg.ByISO3(code); !ok || code != strings.ToUpper(code) {
			return at(fmt.Sprintf("%s[%d]", path, i), fmt.Errorf("%q is not an ISO 3166-1 alpha-3 code", code))
		}
	}
	return nil
}

var countedFrom = map[string]bool{"entry": true, "departure": true, "end_of_permitted_stay": true}

func (c checker) validity(v entrycheck.PassportValidity) error {
	if m := v.MinMonthsRemaining; m != nil && (*m < 0 || *m > 24) {
		return at(".min_months_remaining", fmt.Errorf("%d is out of range", *m))
	}
	if v.CountedFrom != nil && !countedFrom[*v.CountedFrom] {
		return at(".counted_from", fmt.Errorf("%q is not entry, departure or end_of_permitted_stay", *v.CountedFrom))
	}
	if y := v.IssuedWithinYears; y != nil && *y <= 0 {
		return at(".issued_within_years", errors.New("must be positive or null"))
	}
	return nonBlank(".text", v.Text)
}

func validOnward(required string) error {
	switch required {
	case entrycheck.OnwardRequired, entrycheck.OnwardMayBeAsked:
		return nil
	}
	return at(".required", fmt.Errorf("%q is not required or may_be_asked", required))
}

func (c checker) exemption(e entrycheck.Exemption) error {
	switch {
	case len(e.HoldersOf) == 0:
		return at(".holders_of", errors.New("empty"))
	case e.Document != entrycheck.DocumentVisa && e.Document != entrycheck.DocumentResidencePermit && e.Document != entrycheck.DocumentEither:
		return at(".document", fmt.Errorf("%q is not visa, residence_permit or either", e.Document))
	case e.Effect != entrycheck.VisaFree && e.Effect != entrycheck.EVisa && e.Effect != entrycheck.VisaOnArrival:
		return at(".effect", fmt.Errorf("%q is not visa_free, e_visa or visa_on_arrival", e.Effect))
	}
	return c.codes(".holders_of", e.HoldersOf, true)
}

func validFormality(f entrycheck.ArrivalFormality) error {
	switch {
	case !slices.Contains(entrycheck.FormalityKinds, f.Kind):
		return at(".kind", fmt.Errorf("%q is not arrival_card, travel_authorisation, registration or customs_declaration", f.Kind))
	case !slices.Contains(entrycheck.FormalityWhen, f.When):
		return at(".when", fmt.Errorf("%q is not before_arrival or on_arrival", f.When))
	}
	return nonBlank(".name", f.Name)
}

// validPeriod refuses a period that ends before it begins, and a status:
// that is computed from the period and the day, never curated.
func validPeriod(p entrycheck.Period) error {
	if p.Status != "" {
		return at(".status", errors.New("a status is computed from the period and the day; remove it"))
	}
	if p.EffectiveFrom != nil && p.EffectiveUntil != nil && p.EffectiveUntil.Before(*p.EffectiveFrom) {
		return at(".effective_until", fmt.Errorf("%s is before effective_from %s", p.EffectiveUntil, p.EffectiveFrom))
	}
	return nil
}

func positive(n int, field string) error {
	if n <= 0 {
		return at("."+field, errors.New("must be positive"))
	}
	return nil
}

func nonBlank(path, s string) error {
	if strings.TrimSpace(s) == "" {
		return at(path, errors.New("empty"))
	}
	return nil
}

func nonEmpty(n int) error {
	if n == 0 {
		return errors.New("an empty list must be null instead")
	}
	return nil
}

func validCodes(codes []string, reg *country.Registry, groupsAllowed bool) error {
	groups := map[string]Group{}
	if groupsAllowed {
		groups[entrycheck.GroupSchengen] = Group{}
	}
	return checker{reg: reg, groups: groups}.codes("", codes, groupsAllowed)
}
