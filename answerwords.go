package entrycheck

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// The words of an answer beside its entry rules (RuleFields names those):
// the labels of its facts and how their values read. The route pages are
// the reference, since travellers read them; the pages' markdown, the CLI,
// the MCP text, llms-full.txt and the embeddable checker (which receives
// these words when it is bundled) say the same.

// Label is a label of an answer's facts; its words are message
// label.<name> of each catalog, so a label is written once, there.
type Label int

// Labels of an answer's facts.
const (
	LabelAllowedStay Label = iota
	LabelAction
	LabelAsOf
	LabelOfficialStatement
	LabelExemption
	LabelNotCited
	LabelVerdictBasis
	LabelSource
	LabelSchengen
	LabelNeedsAttention
	LabelDefaultsApplied
	LabelAssumptions
	LabelVerdictAge
	// LabelForOtherPassports heads what official pages say for other
	// passports (LinesForOtherPassports), apart from this passport's rules.
	LabelForOtherPassports
	// LabelCorroborated marks a route whose verdict an official statement
	// in force agrees with (VerdictVerification.CorroboratedBy).
	LabelCorroborated
)

// ID is the label's message id.
func (l Label) ID() string {
	return "label." + [...]string{
		LabelAllowedStay: "allowed_stay", LabelAction: "action", LabelAsOf: "as_of",
		LabelOfficialStatement: "official_statement", LabelExemption: "exemption",
		LabelNotCited: "not_cited", LabelVerdictBasis: "verdict_basis", LabelSource: "source",
		LabelSchengen: "schengen", LabelNeedsAttention: "needs_attention",
		LabelDefaultsApplied: "defaults_applied", LabelAssumptions: "assumptions",
		LabelVerdictAge: "verdict_age", LabelForOtherPassports: "for_other_passports",
		LabelCorroborated: "corroborated",
	}[l]
}

// In is the label in the language of c.
func (l Label) In(c *locale.Catalog) string { return c.Text(l.ID()) }

// String is the label in English.
func (l Label) String() string { return l.In(English()) }

// EntryRulesOf heads a country's entry rules: "Entry rules of Thailand";
// country is its name in the language of c.
func EntryRulesOf(c *locale.Catalog, country string) string {
	return c.Text("label.entry_rules_of", "country", country)
}

// TransitThrough heads the lookup of a transit country: "Transit through
// Singapore (SGP)"; country is its name in the language of c.
func TransitThrough(c *locale.Catalog, country string) string {
	return c.Text("label.transit_through", "country", country)
}

// NotStated is the allowed stay of a visa-free route for which the
// secondary visa table gives no number of days, in the language of c.
func NotStated(c *locale.Catalog) string { return c.Text("stay.not_stated") }

// StayWordsIn is a verdict's allowed stay as it reads after
// LabelAllowedStay: "60 days", NotStated, or "" when the requirement states
// no stay. It is in the language of c.
func StayWordsIn(c *locale.Catalog, r Requirement, d Days) string {
	switch {
	case d.Valid:
		return c.Count("stay.days", d.N)
	case r == VisaFree:
		return NotStated(c)
	}
	return ""
}

// VerdictWords is a requirement with its allowed stay in one phrase, as an
// answer's headline gives it: "Visa-free, up to 60 days", "Visa-free,
// allowed stay: no limit given by the source", "Visa required". label is the
// answer's requirement_label.
func VerdictWords(label string, r Requirement, d Days) string {
	return VerdictWordsIn(English(), label, r, d)
}

// VerdictWordsIn is VerdictWords in the language of c.
func VerdictWordsIn(c *locale.Catalog, label string, r Requirement, d Days) string {
	switch s := StayWordsIn(c, r, d); {
	case d.Valid:
		return c.Text("verdict.with_stay", "requirement", label, "stay", s)
	case s != "":
		return c.Text("verdict.with_stay_not_stated", "requirement", label, "stay", s)
	}
	return label
}

// Words is the action as it reads after LabelAction: "apply before travel".
func (a Action) Words() string { return a.WordsIn(English()) }

// WordsIn is Words in the language of c: message words.action.<action>,
// or the code in words for an action no catalog names.
func (a Action) WordsIn(c *locale.Catalog) string {
	if id := "words.action." + string(a); c.Has(id) {
		return c.Text(id)
	}
	return strings.ReplaceAll(string(a), "_", " ")
}

// Sentence tells the traveller what to do about requirement r, in its
// words: "Apply before you travel: an e-visa is required." ownCountry is
// set when passport and destination are the same country.
func (a Action) Sentence(r Requirement, ownCountry bool) string {
	return a.SentenceIn(English(), r, ownCountry)
}

// SentenceIn is Sentence in the language of c: message action.<action>,
// action.none.own_country for a citizen going home, and
// action.apply_before_travel.<requirement> for each document to obtain.
func (a Action) SentenceIn(c *locale.Catalog, r Requirement, ownCountry bool) string {
	switch {
	case a == ActionNone && ownCountry:
		return c.Text("action.none.own_country")
	case a == ActionApplyBeforeTravel:
		return c.Text("action.apply_before_travel." + string(r))
	case a == ActionNone, a == ActionObtainOnArrival, a == ActionEntryNotPermitted:
		return c.Text("action." + string(a))
	}
	return c.Text("action.check_official_authority")
}

// OldVerdictWordsIn says that a verdict as of asOf is older than
// VerdictOldAfterDays and must be confirmed before travel: with the official
// authority of destination (a country name), whose curated official page is
// page, or, when page is nil, with its embassy, consulate or immigration
// service (no address is guessed). The page is given by its address alone:
// its citation names the page the curators read it on, which may be another.
// "The verdict is as of 17 February 2026, more than 180 days ago, and may
// have changed since: confirm it with the official authority of Japan before
// you travel (official page:
// https://www.mofa.go.jp/j_info/visit/visa/visaonline.html)." It is in the
// language of c; destination is the country's name in that language.
func OldVerdictWordsIn(c *locale.Catalog, asOf Date, destination string, page *Apply) string {
	if page == nil {
		return c.Count("verdict.old.confirm_unnamed", VerdictOldAfterDays, "date", asOf.LongIn(c))
	}
	return c.Count("verdict.old.confirm", VerdictOldAfterDays, "date", asOf.LongIn(c), "country", destination, "url", page.URL)
}

// OldVerdictsWordsIn says the same of every verdict of a list as of asOf (a
// passport's destinations), whose own pages name each destination's
// authority: "The verdicts below are as of 17 February 2026, more than 180
// days ago, and may have changed since: confirm yours with the destination's
// official authority before you travel; each destination's page names it."
// It is in the language of c.
func OldVerdictsWordsIn(c *locale.Catalog, asOf Date) string {
	return c.Count("words.old_verdicts", VerdictOldAfterDays, "date", asOf.LongIn(c))
}

// ApplyAtEmbassyWordsIn is the next step of a route that requires a visa
// where the curators found no official page to apply on or read about it:
// where a visa is applied for, without guessing an address. It is in the
// language of c; destination is the country's name in that language.
func ApplyAtEmbassyWordsIn(c *locale.Catalog, destination string) string {
	return c.Text("words.apply_at_embassy", "country", destination)
}

// ApplyKindLabelIn names an official place to apply by its kind, as the link
// to it reads: "Apply online (official portal)". It is in the language of c:
// message words.apply_kind.<kind>, or the kind for one no catalog names.
func ApplyKindLabelIn(c *locale.Catalog, kind string) string {
	if id := "words.apply_kind." + kind; c.Has(id) {
		return c.Text(id)
	}
	return kind
}

// ApplyKinds lists the apply kinds.
func ApplyKinds() []string {
	return []string{ApplyOfficialPortal, ApplyOfficialInfo, ApplyEmbassyFinder}
}

// Standing says how an official statement bears on the verdict on the
// travel date: "in force, from 1 January 2026; conflicts with the matrix".
func (s CheckedStatement) Standing() string { return s.StandingIn(English()) }

// StandingIn is Standing in the language of c.
func (s CheckedStatement) StandingIn(c *locale.Catalog) string {
	return c.Text("status.statement.standing", "status", s.StatusWordsIn(c), "period", s.PeriodIn(c), "comparison", s.ComparisonIn(c))
}

// Label names the statement with its standing, as answers head it:
// "Official statement, in force, from 1 January 2026; conflicts with the matrix".
func (s CheckedStatement) Label() string { return s.LabelIn(English()) }

// LabelIn is Label in the language of c.
func (s CheckedStatement) LabelIn(c *locale.Catalog) string {
	return c.Text("status.statement.label", "label", LabelOfficialStatement.In(c), "standing", s.StandingIn(c))
}

// ConditionLabelIn names a condition of a trip's leg by the entry rule it
// assesses, with that rule's label (RuleFields); the planned stay and the
// Schengen count have labels of their own. It is in the language of c.
func ConditionLabelIn(c *locale.Catalog, kind string) string {
	switch kind {
	case ConditionStayDuration:
		return LabelAllowedStay.In(c)
	case ConditionSchengen:
		return LabelSchengen.In(c)
	case ConditionTransit:
		return RuleLabelIn(c, FieldTWOV)
	case ConditionVerdictAge:
		return LabelVerdictAge.In(c)
	}
	return RuleLabelIn(c, kind)
}

// NotCitedNames names the entry rules no official source covers yet, as
// they read inside a sentence: "blank pages", "health".
func (r EntryRules) NotCitedNames() []string { return r.NotCitedNamesIn(English()) }

// NotCitedNamesIn is NotCitedNames in the language of c.
func (r EntryRules) NotCitedNamesIn(c *locale.Catalog) []string {
	names := r.notCited()
	for i, f := range names {
		names[i] = InSentenceIn(c, RuleLabelIn(c, f))
	}
	return names
}

// InSentence is a label as it reads inside a sentence: "Blank pages" ->
// "blank pages".
func InSentence(label string) string { return InSentenceIn(English(), label) }

// InSentenceIn is InSentence in the language of c. German capitalises
// every noun, so a German label keeps its capital inside a sentence; the
// scripts without case (Arabic, Chinese, Devanagari) are left as they are.
func InSentenceIn(c *locale.Catalog, label string) string {
	if label == "" || c.Code == "de" {
		return label
	}
	r, size := utf8.DecodeRuneInString(label)
	return string(unicode.ToLower(r)) + label[size:]
}

// NotCitedWords says which entry rules of destination no official source
// covers yet (notCited, as NotCitedNames gives them), as the line under the
// rules does; some tells whether any rule is cited. The label is
// LabelNotCited, or empty when no rule is cited and the sentence stands
// alone; both are empty when every rule is cited.
func NotCitedWords(destination string, notCited []string, some bool) (label, words string) {
	return NotCitedWordsIn(English(), destination, notCited, some)
}

// NotCitedWordsIn is NotCitedWords in the language of c; destination is
// the country's name and notCited the names in that language.
func NotCitedWordsIn(c *locale.Catalog, destination string, notCited []string, some bool) (label, words string) {
	switch {
	case len(notCited) == 0:
		return "", ""
	case some:
		return LabelNotCited.In(c), c.Text("rule.not_cited.some", "fields", JoinWordsIn(c, notCited))
	}
	return "", c.Text("rule.not_cited.none", "country", destination, "fields", JoinWordsIn(c, notCited))
}

// ActionSentence is the answer's action as a sentence (Action.Sentence),
// followed, when the verdict is old, by what confirming it asks
// (VerdictVerification.Confirm): what to do rests on that verdict.
func (r CheckResult) ActionSentence() string { return r.ActionSentenceIn(English()) }

// ActionSentenceIn is ActionSentence in the language of c.
func (r CheckResult) ActionSentenceIn(c *locale.Catalog) string {
	s := r.Action.SentenceIn(c, r.Requirement, r.Passport.ISO3 == r.Destination.ISO3)
	if confirm := r.VerdictVerification.Confirm; confirm != "" {
		return s + " " + confirm
	}
	return s
}

// SourceWordsIn is the provenance of a verdict from the secondary source
// src, in the words of c around its name (which a page links): before +
// name + after reads "a secondary visa table (imorte/passport-index-data,
// 17 February 2026, MIT licence), which reads "eta" for this route"; the
// value the table reads is quoted as the table gives it.
func SourceWordsIn(c *locale.Catalog, src Source) (before, after string) {
	edition := EditionWordsIn(c, src.Snapshot)
	if src.MatrixValue != nil {
		after = c.Text("source.matrix.after", "edition", edition, "license", src.License, "value", strconv.Quote(*src.MatrixValue))
	} else {
		after = c.Text("source.matrix.after_no_value", "edition", edition, "license", src.License)
	}
	return c.Text("source.matrix.before"), after
}

// SinceWordsIn says in the words of c since which edition of the
// secondary visa table a verdict holds: "this verdict changed in the
// edition of 17 February 2026", or, when it did not change since the first
// edition on record (edition), "this verdict holds since the edition of 12
// January 2025 or earlier".
func SinceWordsIn(c *locale.Catalog, changed bool, edition string) string {
	if changed {
		return c.Text("source.since.changed", "edition", EditionWordsIn(c, edition))
	}
	return c.Text("source.since.held", "edition", EditionWordsIn(c, edition))
}

// EditionWordsIn is the date of an edition of the secondary visa table
// (a snapshot version, "2026-02-17") as people read it in the language of
// c: "17 February 2026"; a version that is not a date is itself.
func EditionWordsIn(c *locale.Catalog, version string) string {
	if d, err := ParseDate(version); err == nil {
		return d.LongIn(c)
	}
	return version
}

// RouteWords names a route as its page heads it, with the country after
// the passport rather than before it as an adjective: "Passport of Germany
// to United Kingdom".
func RouteWords(passport, destination string) string {
	return RouteWordsIn(English(), passport, destination)
}

// RouteWordsIn is RouteWords in the language of c; the names are the
// countries' in that language.
func RouteWordsIn(c *locale.Catalog, passport, destination string) string {
	return c.Text("route.title", "passport", passport, "destination", destination)
}

// PassportWords names a country's passport: "Passport of Germany".
func PassportWords(country string) string { return PassportWordsIn(English(), country) }

// PassportWordsIn is PassportWords in the language of c.
func PassportWordsIn(c *locale.Catalog, country string) string {
	return c.Text("route.passport", "country", country)
}

// EveryDestinationWords is the link from a route to its passport's page:
// "Every destination for a passport of Germany".
func EveryDestinationWords(country string) string { return EveryDestinationWordsIn(English(), country) }

// EveryDestinationWordsIn is EveryDestinationWords in the language of c.
func EveryDestinationWordsIn(c *locale.Catalog, country string) string {
	return c.Text("route.every_destination", "country", country)
}

// HeldDocumentWordsIn is a held document that qualified for an exemption
// (AppliedExemption.HeldDocument, "residence_permit of USA") in the
// language of c: "residence permit of USA". The issuer stays a code, as
// the request gave it.
func HeldDocumentWordsIn(c *locale.Catalog, held string) string {
	kind, issuer, found := strings.Cut(held, " of ")
	kind = wordsOr(c, "words.held_document."+kind, strings.ReplaceAll(kind, "_", " "))
	if !found {
		return kind
	}
	return c.Text("words.held_document", "document", kind, "issuer", issuer)
}
