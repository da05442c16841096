package entrycheck

import (
	"slices"
	"strings"
	"sync"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// The entry-rule fields as every surface shows them. RuleFields is the one
// table of them: a row names the field, its words and where each view of
// the rules keeps it (CuratedRules, DestinationRules, EntryRules). The
// loader's checks, the curation import, the selection for a passport, the
// destination answer, the cited records and every text (the CLI, the MCP
// text, the pages, their markdown and llms-full.txt) walk it, so a new field
// is a value type and its members in the three views (rules.go), a row
// here and a value in datatest.FullRules, whose absence the surface tests
// name; the API description infers its schema from the value type.

// RuleLine is one thing an entry rule says, as people read it.
type RuleLine struct {
	// Field is the rule's JSON name; Label names the line for people
	// ("Passport validity", "Transit without visa: Singapore 96-hour VFTF").
	Field string `json:"field" jsonschema:"The entry_rules field the line is about (passport_validity, twov...)."`
	Label string `json:"label" jsonschema:"What the line is about, in words (\"Passport validity\", \"Transit without visa: Singapore 96-hour VFTF\")."`
	// Text is what holds for the traveller: the curated text, or why the
	// rule does not hold outright (for another passport, documented for
	// other nationals) followed by the text.
	Text string `json:"text" jsonschema:"What holds for the traveller: the curated text, after why the rule does not hold outright where it does not (for another passport, documented for other nationals)."`
	// Cited is the part of Text that is the source's own words, as the
	// curators recorded them (its end), in the source's language: pages
	// mark it so. Empty when Text is all the answer's own words.
	Cited string `json:"-"`
	// Detail is what the answer computes from the value ("At least 3
	// months of validity, counted from departure.").
	Detail string `json:"detail,omitempty" jsonschema:"What the answer computes from the value (\"At least 6 months of validity, counted from entry.\"); absent when it computes nothing."`
	// URL is an official link of the item itself, where it has one.
	URL    string   `json:"url,omitempty" jsonschema:"An official link of the item itself, where it has one."`
	Source Citation `json:"source"`
	// ForThisPassport is set when the source gives the line for the
	// traveller's passport: a rule that holds, or one shown as ended or
	// upcoming. A line documented for other nationals or given for other
	// passports only is a hint, never this passport's rule: surfaces list
	// it apart (LinesForOtherPassports).
	ForThisPassport bool `json:"for_this_passport" jsonschema:"True when the source gives the line for the traveller's passport: a rule that holds, or one shown as ended or upcoming. False for a line documented for other nationals or given for other passports only: a hint, never this passport's rule, which the route page lists under \"What official pages say for other passports\" and the widget leaves out of its answer."`
}

// LinesForThisPassport returns the lines the source gives for the traveller's
// passport, in order.
func LinesForThisPassport(lines []RuleLine) []RuleLine {
	var out []RuleLine
	for _, l := range lines {
		if l.ForThisPassport {
			out = append(out, l)
		}
	}
	return out
}

// LinesForOtherPassports returns the lines given for other passports or
// documented for other nationals, in order: what official pages say for
// others (LabelForOtherPassports).
func LinesForOtherPassports(lines []RuleLine) []RuleLine {
	var out []RuleLine
	for _, l := range lines {
		if !l.ForThisPassport {
			out = append(out, l)
		}
	}
	return out
}

// RuleFields lists the entry-rule fields in the order answers show them.
func RuleFields() []RuleField { return slices.Clone(ruleFields()) }

// ruleFields is the table RuleFields returns, built once, on first use
// (its English labels are read from the catalog): its rows hold names and
// functions, and nothing changes them. The answers walk it directly, since
// a check reads it several times.
var ruleFields = sync.OnceValue(ruleFieldTable)

func ruleFieldTable() []RuleField {
	return []RuleField{
		variantField(FieldPassportValidity,
			func(r *CuratedRules) **Rule[[]PassportValidity] { return &r.PassportValidity },
			func(r *DestinationRules) *[]Variant[PassportValidity] { return &r.PassportValidity },
			func(r *EntryRules) **PassportRule[PassportValidity] { return &r.PassportValidity },
			func(c *locale.Catalog, v PassportValidity) (string, string) { return v.Text, validityDetail(c, v) }),
		variantField(FieldBlankPages,
			func(r *CuratedRules) **Rule[[]BlankPages] { return &r.BlankPages },
			func(r *DestinationRules) *[]Variant[BlankPages] { return &r.BlankPages },
			func(r *EntryRules) **PassportRule[BlankPages] { return &r.BlankPages },
			func(c *locale.Catalog, v BlankPages) (string, string) {
				return v.Text, c.Count("rule.blank_pages.detail", v.Pages)
			}),
		variantField(FieldOnwardTicket,
			func(r *CuratedRules) **Rule[[]OnwardTicket] { return &r.OnwardTicket },
			func(r *DestinationRules) *[]Variant[OnwardTicket] { return &r.OnwardTicket },
			func(r *EntryRules) **PassportRule[OnwardTicket] { return &r.OnwardTicket },
			func(c *locale.Catalog, v OnwardTicket) (string, string) { return v.Text, onwardDetail(c, v.Required) }),
		{Name: FieldYellowFever, Label: RuleLabelIn(English(), FieldYellowFever), lines: func(f RuleField, r EntryRules, c *locale.Catalog) []RuleLine {
			x := r.YellowFever
			if x == nil {
				return nil
			}
			return []RuleLine{{Field: f.Name, Label: f.LabelIn(c), Text: x.Value.Text, Cited: x.Value.Text, Detail: c.Text("rule.yellow_fever.for_you", "reason", x.AppliesBecause), Source: x.Source, ForThisPassport: true}}
		}},
		itemField(FieldOtherHealth,
			func(r *CuratedRules) **Rule[[]HealthRule] { return &r.OtherHealth },
			func(r *DestinationRules) *[]Variant[HealthRule] { return &r.OtherHealth },
			func(r *EntryRules) **PassportRule[[]HealthRule] { return &r.OtherHealth },
			func(c *locale.Catalog, f RuleField, h HealthRule) RuleLine {
				return RuleLine{Label: f.ItemIn(c, strings.ReplaceAll(h.Topic, "_", " ")), Text: h.Text}
			}),
		itemField(FieldTWOV,
			func(r *CuratedRules) **Rule[[]TWOVProgram] { return &r.TWOV },
			func(r *DestinationRules) *[]Variant[TWOVProgram] { return &r.TWOV },
			func(r *EntryRules) **PassportRule[[]TWOVProgram] { return &r.TWOV },
			func(c *locale.Catalog, f RuleField, p TWOVProgram) RuleLine {
				l := RuleLine{Label: f.ItemIn(c, p.Program), Text: p.Text}
				if p.MaxHours != nil {
					l.Detail = c.Count("rule.twov.max_hours", *p.MaxHours)
				}
				return l
			}),
		itemField(FieldResidencePermitExemptions,
			func(r *CuratedRules) **Rule[[]Exemption] { return &r.ResidencePermitExemptions },
			func(r *DestinationRules) *[]Variant[Exemption] { return &r.ResidencePermitExemptions },
			func(r *EntryRules) **PassportRule[[]Exemption] { return &r.ResidencePermitExemptions },
			func(c *locale.Catalog, f RuleField, e Exemption) RuleLine {
				holders := holderNames(c, e.HoldersOf)
				args := []string{"document", c.Text("rule.exemption.document." + e.Document), "holders", holders, "effect", e.Effect.LabelIn(c)}
				d := c.Text("rule.exemption.detail", args...)
				if e.MaxStayDays.Valid {
					d = c.Count("rule.exemption.detail_stay", e.MaxStayDays.N, args...)
				}
				return RuleLine{Label: f.ItemIn(c, holders), Text: e.Text, Detail: d}
			}),
		itemField(FieldArrivalFormalities,
			func(r *CuratedRules) **Rule[[]ArrivalFormality] { return &r.ArrivalFormalities },
			func(r *DestinationRules) *[]Variant[ArrivalFormality] { return &r.ArrivalFormalities },
			func(r *EntryRules) **PassportRule[[]ArrivalFormality] { return &r.ArrivalFormalities },
			func(c *locale.Catalog, f RuleField, a ArrivalFormality) RuleLine {
				l := RuleLine{Label: f.ItemIn(c, a.Name), Text: a.Text, Detail: formalityDetail(c, a)}
				if a.URL != nil {
					l.URL = *a.URL
				}
				return l
			}),
	}
}

// holderNames names the countries and groups whose documents an
// exemption counts, as a list read aloud ("CAN, USA or a Schengen state"):
// country codes as they are (the reader knows them from the answer), the
// Schengen group in words.
func holderNames(c *locale.Catalog, codes []string) string {
	names := make([]string, len(codes))
	for i, code := range codes {
		names[i] = code
		if code == GroupSchengen {
			names[i] = c.Text("rule.exemption.schengen_state")
		}
	}
	return listIn(c, "list.or", names)
}

// RuleLabel is the label of the entry-rule field named field (RuleFields),
// or the name in words when there is no such field.
func RuleLabel(field string) string { return RuleLabelIn(English(), field) }

// RuleLabelIn is RuleLabel in the language of c: message rule.<field>.label.
func RuleLabelIn(c *locale.Catalog, field string) string {
	if id := "rule." + field + ".label"; c.Has(id) {
		return c.Text(id)
	}
	return strings.ReplaceAll(field, "_", " ")
}

// Lines lists what the rules say, field by field in the order of
// RuleFields, one line per value or list item.
func (r EntryRules) Lines() []RuleLine { return r.LinesIn(English()) }

// LinesIn is Lines in the language of c. The curated texts are the
// sources' words and stay as they are; what the answer says of them (the
// labels, details, notes and periods) is in the language.
func (r EntryRules) LinesIn(c *locale.Catalog) []RuleLine {
	var out []RuleLine
	for _, f := range ruleFields() {
		out = append(out, f.lines(f, r, c)...)
	}
	for i := range out {
		out[i].Text = TravellerText(out[i].Text)
		if out[i].Cited = TravellerText(out[i].Cited); !strings.HasSuffix(out[i].Text, out[i].Cited) {
			out[i].Cited = ""
		}
	}
	return out
}

// NotCited names, in the order of RuleFields, the fields for which no
// official source gives a rule: what a traveller still has to find out.
func (r EntryRules) NotCited() []string {
	out := r.notCited()
	for i, f := range out {
		out[i] = RuleLabel(f)
	}
	return out
}

// notCited lists the fields NotCited names.
func (r EntryRules) notCited() []string {
	var out []string
	for _, f := range ruleFields() {
		if len(f.lines(f, r, English())) == 0 {
			out = append(out, f.Name)
		}
	}
	return out
}

// single is the line of a single-valued rule: what holds for the passport,
// or why it does not hold outright; then the variant for the passport that
// is outside its period, if any.
func single[T scoped](c *locale.Catalog, f RuleField, r *PassportRule[T], words func(*locale.Catalog, T) (text, detail string)) []RuleLine {
	if r == nil {
		return nil
	}
	l := RuleLine{Field: f.Name, Label: f.LabelIn(c), Source: r.Source, ForThisPassport: r.Applies == AppliesYes}
	var out []RuleLine
	switch r.Applies {
	case AppliesNotForThisPassport:
		l.Text = r.Note
		return []RuleLine{l}
	case AppliesYes, AppliesDocumentedForOthers:
		text, detail := words(c, r.Value)
		l.Text, l.Detail, l.Cited = r.Words(dated(c, r.Value, text)), detail, text
		out = append(out, l)
	}
	if v := r.NotInForce; v != nil {
		text, detail := words(c, *v)
		out = append(out, RuleLine{Field: f.Name, Label: f.LabelIn(c), Text: dated(c, *v, text), Cited: text, Detail: detail, Source: ownSource(*v, r.Source), ForThisPassport: true})
	}
	return out
}

// items are the lines of a list-valued rule, one per item that holds for
// the passport, then one per item for the passport outside its period; a
// list none of whose items names the passport says so once.
func items[T scoped](c *locale.Catalog, f RuleField, r *PassportRule[[]T], line func(T) RuleLine) []RuleLine {
	if r == nil {
		return nil
	}
	var notInForce []T
	if r.NotInForce != nil {
		notInForce = *r.NotInForce
	}
	if len(r.Value) == 0 && len(notInForce) == 0 {
		return []RuleLine{{Field: f.Name, Label: f.LabelIn(c), Text: r.Note, Source: r.Source, ForThisPassport: r.Applies == AppliesYes}}
	}
	out := make([]RuleLine, 0, len(r.Value)+len(notInForce))
	for _, v := range r.Value {
		l := line(v)
		l.Cited = l.Text
		l.Field, l.Source, l.Text = f.Name, r.Source, dated(c, v, l.Text)
		l.ForThisPassport = r.Applies == AppliesYes
		if r.Applies == AppliesDocumentedForOthers && r.Note != "" {
			l.Text = r.Note + " " + l.Text
		}
		out = append(out, l)
	}
	for _, v := range notInForce {
		l := line(v)
		l.Cited = l.Text
		l.Field, l.Source, l.Text = f.Name, r.Source, dated(c, v, l.Text)
		l.ForThisPassport = true
		out = append(out, l)
	}
	return out
}

// dated puts before a fact's text when it holds, for a fact whose source
// gives it a period: "Ended on 31 October 2026; not applied: ...".
func dated[T scoped](c *locale.Catalog, v T, text string) string {
	if w := v.ScopeOf().PeriodWordsIn(c); w != "" {
		return c.Text("period.before_text", "period", w, "text", text)
	}
	return text
}

// ownSource is the source of a variant read from another page than its
// field's, or the field's source.
func ownSource[T any](v T, field Citation) Citation {
	if own, ok := any(v).(interface{ OwnSource() *Citation }); ok && own.OwnSource() != nil {
		return *own.OwnSource()
	}
	return field
}

// validityDetail is what a passport-validity rule asks, in words: "At
// least 3 months of validity, counted from departure.".
func validityDetail(c *locale.Catalog, v PassportValidity) string {
	margin := c.Text("rule.passport_validity.no_margin")
	switch m := v.MinMonthsRemaining; {
	case m != nil && *m == 0 && v.CountedFrom != nil && *v.CountedFrom == "entry":
		return c.Text("rule.passport_validity.entry_day")
	case m != nil && *m == 0:
		return c.Text("rule.passport_validity.whole_stay")
	case m != nil:
		margin = c.Count("rule.passport_validity.months", *m)
	}
	if v.CountedFrom != nil {
		return c.Text("rule.passport_validity.counted_from", "margin", margin, "from", wordsOr(c, "rule.passport_validity.from."+*v.CountedFrom, *v.CountedFrom))
	}
	return c.Text("words.sentence", "text", margin)
}

// onwardDetail is whether an onward ticket is required, in words; empty
// for a value no catalog names.
func onwardDetail(c *locale.Catalog, required string) string {
	if id := "rule.onward_ticket." + required; c.Has(id) {
		return c.Text(id)
	}
	return ""
}

// formalityDetail says what kind of formality it is, when it is done and
// whether it has a fee: "Arrival card, before arrival, free of charge.".
func formalityDetail(c *locale.Catalog, a ArrivalFormality) string {
	d := wordsOr(c, "rule.arrival_formalities.kind."+a.Kind, "")
	if d == "" {
		d = c.Text("rule.arrival_formalities.kind.other")
	}
	if id := "rule.arrival_formalities." + a.When; a.When != "" && c.Has(id) {
		d = c.Text("list.comma", "a", d, "b", c.Text(id))
	}
	if a.Fee != nil {
		fee := map[bool]string{true: "rule.arrival_formalities.fee", false: "rule.arrival_formalities.free"}[*a.Fee]
		d = c.Text("list.comma", "a", d, "b", c.Text(fee))
	}
	return c.Text("words.sentence", "text", d)
}
