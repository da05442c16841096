package entrycheck

import (
	"sync"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// How a row of RuleFields reaches each view of the rules. A curated field
// is built by variantField (one value per passport: the first variant whose
// applies_to matches) or itemField (a list: every item whose applies_to
// matches); the row names where CuratedRules, DestinationRules and
// EntryRules keep the field, and everything else (selection, the
// destination answer, the loader's checks, the cited records, the import)
// walks the rows.

// RuleField is one entry-rule field of an answer.
type RuleField struct {
	// Name is the field's JSON name; Label names it in English (message
	// rule.<name>.label; LabelIn in another language).
	Name, Label string
	// Item heads each item of a list-valued field in English, before what
	// names the item ("Transit without visa: " and the programme; message
	// rule.<name>.item, ItemIn in another language); empty for a field of
	// one value.
	Item  string
	lines func(RuleField, EntryRules, *locale.Catalog) []RuleLine
	// curated is where the views keep a field of the curated layer; nil
	// for yellow fever, which has a table of its own.
	curated curatedField
}

// RuleFieldWords names every entry-rule field as a sentence lists them:
// "passport validity, blank pages, ... and arrival formalities".
func RuleFieldWords() string {
	var names []string
	for _, f := range ruleFields() {
		names = append(names, InSentence(f.Label))
	}
	return JoinWords(names)
}

// LabelIn is the field's label in the language of c.
func (f RuleField) LabelIn(c *locale.Catalog) string { return RuleLabelIn(c, f.Name) }

// ItemIn heads an item of a list-valued field, named name, in the
// language of c: "Transit without visa: Singapore 96-hour VFTF".
func (f RuleField) ItemIn(c *locale.Catalog, name string) string {
	return c.Text("rule."+f.Name+".item", "name", name)
}

// List reports whether the field is a list of items rather than one value
// chosen among variants.
func (f RuleField) List() bool { return f.Item != "" }

// RuleFact is one variant or item of a curated field, seen apart from its
// type: whom it holds for, the page it was read from when that is not its
// field's, and its value (PassportValidity, HealthRule...).
type RuleFact struct {
	Scope
	// Source is the fact's own source, nil when its field's holds for it.
	Source *Citation
	Value  any
	// alone is the check's block holding this fact alone.
	alone func(applies, note string, source Citation) EntryRules
}

// Alone returns a check's block of rules holding this fact alone, in the
// state applies with note and cited from source: how a surface that lists
// every variant shows it.
func (x RuleFact) Alone(applies, note string, source Citation) EntryRules {
	return x.alone(applies, note, source)
}

// Facts returns the field as curated in r, each variant or item seen apart
// from its type; nil when no official source gave it, or when the field is
// not kept in the curated rules (yellow fever).
func (f RuleField) Facts(r CuratedRules) *Rule[[]RuleFact] {
	if f.curated == nil {
		return nil
	}
	return f.curated.facts(r, nil)
}

// FactsOn is Facts with each dated variant or item's status on day set:
// how a list of every variant shows when each holds.
func (f RuleField) FactsOn(r CuratedRules, day Date) *Rule[[]RuleFact] {
	if f.curated == nil {
		return nil
	}
	return f.curated.facts(r, &day)
}

// curatedField is a field of the curated layer, whatever the type of its
// values.
type curatedField interface {
	facts(CuratedRules, *Date) *Rule[[]RuleFact]
	choose(*CuratedRules, Traveller, *EntryRules)
	everyTraveller(CuratedRules, func(*AppliesTo) string, Date, *DestinationRules)
	destinationLines(*locale.Catalog, DestinationRules) []RuleLine
}

// fieldOf is a curated field whose variants or items are of type T: where
// CuratedRules and DestinationRules keep it, how a traveller's value is
// chosen and how one variant is held in a check's block.
type fieldOf[T scoped] struct {
	curated func(*CuratedRules) **Rule[[]T]
	every   func(*DestinationRules) *[]Variant[T]
	pick    func(*Rule[[]T], Traveller, *EntryRules)
	hold    func(*PassportRule[T], *EntryRules)
}

// variantField is a single-valued field: a check holds the first variant
// whose applies_to matches the passport, and each variant gives a line of
// words.
func variantField[T scoped, P variant[T]](name string,
	curated func(*CuratedRules) **Rule[[]T], every func(*DestinationRules) *[]Variant[T], held func(*EntryRules) **PassportRule[T],
	words func(*locale.Catalog, T) (text, detail string),
) RuleField {
	return RuleField{Name: name, Label: RuleLabel(name),
		lines: func(f RuleField, r EntryRules, c *locale.Catalog) []RuleLine { return single(c, f, *held(&r), words) },
		curated: fieldOf[T]{curated: curated, every: every,
			pick: func(r *Rule[[]T], t Traveller, out *EntryRules) { *held(out) = SelectVariant[T, P](r, t) },
			hold: func(p *PassportRule[T], out *EntryRules) { *held(out) = p },
		},
	}
}

// itemField is a list-valued field: a check holds every item whose
// applies_to matches the passport, and each item gives a line headed by
// item.
func itemField[T scoped](name string,
	curated func(*CuratedRules) **Rule[[]T], every func(*DestinationRules) *[]Variant[T], held func(*EntryRules) **PassportRule[[]T],
	line func(*locale.Catalog, RuleField, T) RuleLine,
) RuleField {
	f := RuleField{Name: name, Label: RuleLabel(name)}
	// The English head is the item message with an empty name, which every
	// item message ends with.
	f.Item = f.ItemIn(English(), "")
	f.lines = func(f RuleField, r EntryRules, c *locale.Catalog) []RuleLine {
		return items(c, f, *held(&r), func(v T) RuleLine { return line(c, f, v) })
	}
	f.curated = fieldOf[T]{curated: curated, every: every,
		pick: func(r *Rule[[]T], t Traveller, out *EntryRules) { *held(out) = SelectItems(r, t) },
		hold: func(p *PassportRule[T], out *EntryRules) { *held(out) = itemOf(p) },
	}
	return f
}

func (f fieldOf[T]) facts(r CuratedRules, day *Date) *Rule[[]RuleFact] {
	x := *f.curated(&r)
	if x == nil {
		return nil
	}
	out := &Rule[[]RuleFact]{Source: x.Source, Value: make([]RuleFact, 0, len(x.Value))}
	for _, v := range x.Value {
		if day != nil {
			v = StampedOn(v, *day)
		}
		fact := RuleFact{Scope: v.ScopeOf(), Value: v, alone: func(applies, note string, source Citation) EntryRules {
			var b EntryRules
			f.hold(&PassportRule[T]{Applies: applies, Value: v, Source: source, Note: note}, &b)
			return b
		}}
		if own, ok := any(v).(interface{ OwnSource() *Citation }); ok {
			fact.Source = own.OwnSource()
		}
		out.Value = append(out.Value, fact)
	}
	return out
}

func (f fieldOf[T]) choose(r *CuratedRules, t Traveller, out *EntryRules) {
	f.pick(*f.curated(r), t, out)
}

// everyTraveller lists the field's variants or items, each under its own
// source when it was read from another page than its field, with whom it
// holds for and whom its source speaks to in words.
func (f fieldOf[T]) everyTraveller(r CuratedRules, describe func(*AppliesTo) string, day Date, out *DestinationRules) {
	x := *f.curated(&r)
	if x == nil {
		return
	}
	vs := make([]Variant[T], 0, len(x.Value))
	for _, v := range x.Value {
		vr := Variant[T]{Value: StampedOn(v, day), Source: x.Source}
		if own, ok := any(v).(interface{ OwnSource() *Citation }); ok && own.OwnSource() != nil {
			vr.Source = *own.OwnSource()
		}
		if s := v.ScopeOf(); s.AppliesTo != nil {
			vr.For = describe(s.AppliesTo)
		}
		if s := v.ScopeOf(); s.DocumentedFor != nil {
			vr.DocumentedFor = describe(s.DocumentedFor)
		}
		vs = append(vs, vr)
	}
	*f.every(out) = vs
}

func (f fieldOf[T]) destinationLines(c *locale.Catalog, r DestinationRules) []RuleLine {
	return variantLines(c, *f.every(&r), func(p *PassportRule[T]) EntryRules {
		var b EntryRules
		f.hold(p, &b)
		return b
	})
}

// curatedRuleFields are the rows of RuleFields kept in the curated layer.
var curatedRuleFields = sync.OnceValue(curatedFields)

func curatedFields() []RuleField {
	var out []RuleField
	for _, f := range ruleFields() {
		if f.curated != nil {
			out = append(out, f)
		}
	}
	return out
}

// For returns the rules as they hold for a traveller, as the check
// result's block, without the parts an answer computes (yellow fever,
// verification, coverage).
func (r CuratedRules) For(t Traveller) EntryRules {
	var out EntryRules
	for _, f := range curatedRuleFields() {
		f.curated.choose(&r, t, &out)
	}
	return out
}

// Cited reports whether an official source gave at least one rule.
func (r CuratedRules) Cited() bool {
	for _, f := range curatedRuleFields() {
		if f.Facts(r) != nil {
			return true
		}
	}
	return false
}

// EveryTraveller is the block of rules as it holds for every traveller:
// each variant and item, with whom it holds for and whom its source speaks
// to, named by describe, and the status of a dated one on day; without the
// parts an answer computes (yellow fever, verification, coverage).
func (r CuratedRules) EveryTraveller(describe func(*AppliesTo) string, day Date) DestinationRules {
	var out DestinationRules
	for _, f := range curatedRuleFields() {
		f.curated.everyTraveller(r, describe, day, &out)
	}
	return out
}
