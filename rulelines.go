package entrycheck

import (
	"slices"
	"strconv"
	"strings"
)

// The entry-rule fields as every surface shows them. RuleFields is the one
// table of them: a row names the field, its words and where each view of
// the rules keeps it (CuratedRules, DestinationRules, EntryRules). The
// loader's checks, the curation import, the selection for a passport, the
// destination answer, the cited records and every text (the CLI, the MCP
// text, the pages, their markdown and llms-full.txt) walk it, so a new field
// is a value type and its members in the three views (rules.go), a row
// here, its schema in internal/api/openapi.json and a value in
// datatest.FullRules, whose absence the surface tests name.

// RuleLine is one thing an entry rule says, as people read it.
type RuleLine struct {
	// Field is the rule's JSON name; Label names the line for people
	// ("Passport validity", "Transit without visa: Singapore 96-hour VFTF").
	Field string `json:"field"`
	Label string `json:"label"`
	// Text is what holds for the traveller: the curated text, or why the
	// rule does not hold outright (for another passport, documented for
	// other nationals) followed by the text.
	Text string `json:"text"`
	// Detail is what the answer computes from the value ("At least 3
	// months of validity, counted from departure.").
	Detail string `json:"detail,omitempty"`
	// URL is an official link of the item itself, where it has one.
	URL    string   `json:"url,omitempty"`
	Source Citation `json:"source"`
	// ForThisPassport is set when the source gives the line for the
	// traveller's passport: a rule that holds, or one shown as ended or
	// upcoming. A line documented for other nationals or given for other
	// passports only is a hint, never this passport's rule: surfaces list
	// it apart (LinesForOtherPassports).
	ForThisPassport bool `json:"for_this_passport"`
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
func RuleFields() []RuleField { return slices.Clone(ruleFields) }

// ruleFields is the table RuleFields returns, built once: its rows hold
// names and functions, and nothing changes them. The answers walk it
// directly, since a check reads it several times.
var ruleFields = ruleFieldTable()

func ruleFieldTable() []RuleField {
	return []RuleField{
		variantField(FieldPassportValidity, "Passport validity",
			func(r *CuratedRules) **Rule[[]PassportValidity] { return &r.PassportValidity },
			func(r *DestinationRules) *[]Variant[PassportValidity] { return &r.PassportValidity },
			func(r *EntryRules) **PassportRule[PassportValidity] { return &r.PassportValidity },
			func(v PassportValidity) (string, string) { return v.Text, validityDetail(v) }),
		variantField(FieldBlankPages, "Blank pages",
			func(r *CuratedRules) **Rule[[]BlankPages] { return &r.BlankPages },
			func(r *DestinationRules) *[]Variant[BlankPages] { return &r.BlankPages },
			func(r *EntryRules) **PassportRule[BlankPages] { return &r.BlankPages },
			func(v BlankPages) (string, string) { return v.Text, Plural(v.Pages, "blank page") + "." }),
		variantField(FieldOnwardTicket, "Onward or return ticket",
			func(r *CuratedRules) **Rule[[]OnwardTicket] { return &r.OnwardTicket },
			func(r *DestinationRules) *[]Variant[OnwardTicket] { return &r.OnwardTicket },
			func(r *EntryRules) **PassportRule[OnwardTicket] { return &r.OnwardTicket },
			func(v OnwardTicket) (string, string) {
				return v.Text, map[string]string{OnwardRequired: "Required.", OnwardMayBeAsked: "May be asked for."}[v.Required]
			}),
		{Name: FieldYellowFever, Label: "Yellow fever", lines: func(f RuleField, r EntryRules) []RuleLine {
			x := r.YellowFever
			if x == nil {
				return nil
			}
			return []RuleLine{{Field: f.Name, Label: f.Label, Text: x.Value.Text, Detail: "For you: " + x.AppliesBecause + ".", Source: x.Source, ForThisPassport: true}}
		}},
		itemField(FieldOtherHealth, "Health", "Health: ",
			func(r *CuratedRules) **Rule[[]HealthRule] { return &r.OtherHealth },
			func(r *DestinationRules) *[]Variant[HealthRule] { return &r.OtherHealth },
			func(r *EntryRules) **PassportRule[[]HealthRule] { return &r.OtherHealth },
			func(f RuleField, h HealthRule) RuleLine {
				return RuleLine{Label: f.Item + strings.ReplaceAll(h.Topic, "_", " "), Text: h.Text}
			}),
		itemField(FieldTWOV, "Transit without visa", "Transit without visa: ",
			func(r *CuratedRules) **Rule[[]TWOVProgram] { return &r.TWOV },
			func(r *DestinationRules) *[]Variant[TWOVProgram] { return &r.TWOV },
			func(r *EntryRules) **PassportRule[[]TWOVProgram] { return &r.TWOV },
			func(f RuleField, p TWOVProgram) RuleLine {
				l := RuleLine{Label: f.Item + p.Program, Text: p.Text}
				if p.MaxHours != nil {
					l.Detail = "Up to " + strconv.Itoa(*p.MaxHours) + " hours."
				}
				return l
			}),
		itemField(FieldResidencePermitExemptions, "Exemption for holders of other documents", "Exemption for holders of ",
			func(r *CuratedRules) **Rule[[]Exemption] { return &r.ResidencePermitExemptions },
			func(r *DestinationRules) *[]Variant[Exemption] { return &r.ResidencePermitExemptions },
			func(r *EntryRules) **PassportRule[[]Exemption] { return &r.ResidencePermitExemptions },
			func(f RuleField, e Exemption) RuleLine {
				holders := holderNames(e.HoldersOf)
				d := "Holders of " + documentWords[e.Document] + " of " + holders + ": " + e.Effect.Label()
				if e.MaxStayDays.Valid {
					d += ", up to " + strconv.Itoa(e.MaxStayDays.N) + " days"
				}
				return RuleLine{Label: f.Item + holders, Text: e.Text, Detail: d + "."}
			}),
		itemField(FieldArrivalFormalities, "Arrival formalities", "Arrival formality: ",
			func(r *CuratedRules) **Rule[[]ArrivalFormality] { return &r.ArrivalFormalities },
			func(r *DestinationRules) *[]Variant[ArrivalFormality] { return &r.ArrivalFormalities },
			func(r *EntryRules) **PassportRule[[]ArrivalFormality] { return &r.ArrivalFormalities },
			func(f RuleField, a ArrivalFormality) RuleLine {
				l := RuleLine{Label: f.Item + a.Name, Text: a.Text, Detail: formalityDetail(a)}
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
func holderNames(codes []string) string {
	names := make([]string, len(codes))
	for i, c := range codes {
		names[i] = c
		if c == GroupSchengen {
			names[i] = "a Schengen state"
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// RuleLabel is the label of the entry-rule field named field (RuleFields),
// or the name in words when there is no such field.
func RuleLabel(field string) string {
	for _, f := range ruleFields {
		if f.Name == field {
			return f.Label
		}
	}
	return strings.ReplaceAll(field, "_", " ")
}

// Lines lists what the rules say, field by field in the order of
// RuleFields, one line per value or list item.
func (r EntryRules) Lines() []RuleLine {
	var out []RuleLine
	for _, f := range ruleFields {
		out = append(out, f.lines(f, r)...)
	}
	for i := range out {
		out[i].Text = TravellerText(out[i].Text)
	}
	return out
}

// NotCited names, in the order of RuleFields, the fields for which no
// official source gives a rule: what a traveller still has to find out.
func (r EntryRules) NotCited() []string {
	var out []string
	for _, f := range ruleFields {
		if len(f.lines(f, r)) == 0 {
			out = append(out, f.Label)
		}
	}
	return out
}

// single is the line of a single-valued rule: what holds for the passport,
// or why it does not hold outright; then the variant for the passport that
// is outside its period, if any.
func single[T scoped](f RuleField, r *PassportRule[T], words func(T) (text, detail string)) []RuleLine {
	if r == nil {
		return nil
	}
	l := RuleLine{Field: f.Name, Label: f.Label, Source: r.Source, ForThisPassport: r.Applies == AppliesYes}
	var out []RuleLine
	switch r.Applies {
	case AppliesNotForThisPassport:
		l.Text = r.Note
		return []RuleLine{l}
	case AppliesYes, AppliesDocumentedForOthers:
		text, detail := words(r.Value)
		l.Text, l.Detail = r.Words(dated(r.Value, text)), detail
		out = append(out, l)
	}
	if v := r.NotInForce; v != nil {
		text, detail := words(*v)
		out = append(out, RuleLine{Field: f.Name, Label: f.Label, Text: dated(*v, text), Detail: detail, Source: ownSource(*v, r.Source), ForThisPassport: true})
	}
	return out
}

// items are the lines of a list-valued rule, one per item that holds for
// the passport, then one per item for the passport outside its period; a
// list none of whose items names the passport says so once.
func items[T scoped](f RuleField, r *PassportRule[[]T], line func(T) RuleLine) []RuleLine {
	if r == nil {
		return nil
	}
	var notInForce []T
	if r.NotInForce != nil {
		notInForce = *r.NotInForce
	}
	if len(r.Value) == 0 && len(notInForce) == 0 {
		return []RuleLine{{Field: f.Name, Label: f.Label, Text: r.Note, Source: r.Source, ForThisPassport: r.Applies == AppliesYes}}
	}
	out := make([]RuleLine, 0, len(r.Value)+len(notInForce))
	for _, v := range r.Value {
		l := line(v)
		l.Field, l.Source, l.Text = f.Name, r.Source, dated(v, l.Text)
		l.ForThisPassport = r.Applies == AppliesYes
		if r.Applies == AppliesDocumentedForOthers && r.Note != "" {
			l.Text = r.Note + " " + l.Text
		}
		out = append(out, l)
	}
	for _, v := range notInForce {
		l := line(v)
		l.Field, l.Source, l.Text = f.Name, r.Source, dated(v, l.Text)
		l.ForThisPassport = true
		out = append(out, l)
	}
	return out
}

// dated puts before a fact's text when it holds, for a fact whose source
// gives it a period: "Ended on 31 October 2026; not applied: ...".
func dated[T scoped](v T, text string) string {
	if w := v.ScopeOf().PeriodWords(); w != "" {
		return w + ": " + text
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

var countedFromWords = map[string]string{"entry": "entry", "departure": "departure", "end_of_permitted_stay": "the end of the permitted stay"}

var documentWords = map[string]string{DocumentVisa: "a visa", DocumentResidencePermit: "a residence permit", DocumentEither: "a visa or residence permit"}

func validityDetail(v PassportValidity) string {
	d := "No computable margin (see the text)"
	switch m := v.MinMonthsRemaining; {
	case m != nil && *m == 0 && v.CountedFrom != nil && *v.CountedFrom == "entry":
		return "Valid on the day of entry."
	case m != nil && *m == 0:
		return "Valid for the whole stay."
	case m != nil:
		d = "At least " + Plural(*m, "month") + " of validity"
	}
	if v.CountedFrom != nil {
		d += ", counted from " + countedFromWords[*v.CountedFrom]
	}
	return d + "."
}

var formalityKinds = map[string]string{"arrival_card": "Arrival card", "travel_authorisation": "Travel authorisation", "registration": "Registration", "customs_declaration": "Customs declaration"}

func formalityDetail(a ArrivalFormality) string {
	d := formalityKinds[a.Kind]
	if d == "" {
		d = "Formality"
	}
	switch a.When {
	case "before_arrival":
		d += ", before arrival"
	case "on_arrival":
		d += ", on arrival"
	}
	if a.Fee != nil {
		d += map[bool]string{true: ", with a fee", false: ", free of charge"}[*a.Fee]
	}
	return d + "."
}

// plural writes a count with its noun: "1 blank page", "2 blank pages".
