package entrycheck

import (
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck/internal/locale"
)

// The words of an answer beside its entry rules (RuleFields names those):
// the labels of its facts and how their values read. The route pages are
// the reference, since travellers read them; the pages' markdown, the CLI,
// the MCP text, llms-full.txt and the embeddable checker (which receives
// these words when it is bundled) say the same.

// Labels of an answer's facts.
const (
	LabelAllowedStay       = "Allowed stay"
	LabelAction            = "Action"
	LabelAsOf              = "As of"
	LabelOfficialStatement = "Official statement"
	LabelExemption         = "Exemption"
	LabelEntryRulesOf      = "Entry rules of"
	LabelNotCited          = "Not cited yet"
	LabelVerdictBasis      = "Where the verdict comes from"
	LabelTransitThrough    = "Transit through"
	LabelSource            = "Source"
	LabelSchengen          = "Schengen 90/180"
	LabelNeedsAttention    = "Needs attention"
	LabelDefaultsApplied   = "Defaults applied"
	LabelAssumptions       = "Assumptions"
	LabelVerdictAge        = "Age of the verdict"
	// LabelForOtherPassports heads what official pages say for other
	// passports (LinesForOtherPassports), apart from this passport's rules.
	LabelForOtherPassports = "What official pages say for other passports"
	// LabelCorroborated marks a route whose verdict an official statement
	// in force agrees with (VerdictVerification.CorroboratedBy).
	LabelCorroborated = "Official source agrees"
)

// NotStated is the allowed stay of a visa-free route for which the
// secondary visa table gives no number of days, in the language of c.
func NotStated(c *locale.Catalog) string { return c.Text("stay.not_stated") }

// StayWords is a verdict's allowed stay as it reads after LabelAllowedStay:
// "60 days", NotStated, or "" when the requirement states no stay.
func StayWords(r Requirement, d Days) string { return StayWordsIn(English(), r, d) }

// StayWordsIn is StayWords in the language of c.
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
func (a Action) Words() string { return strings.ReplaceAll(string(a), "_", " ") }

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

// OfficialAuthorityUnnamed is whom a traveller confirms a verdict with
// where the curators found no official page of the destination: no
// address is guessed.
const OfficialAuthorityUnnamed = "the destination's embassy, consulate or immigration service"

// OldVerdictWords says that a verdict as of asOf is older than
// VerdictOldAfterDays and must be confirmed before travel: with the official
// authority of destination (a country name), whose curated official page
// is page, or, when page is nil, with OfficialAuthorityUnnamed. The page is
// given by its address alone: its citation names the page the curators
// read it on, which may be another. "The verdict is as of 17 February
// 2026, more than 180 days ago, and may have changed since: confirm it with
// the official authority of Japan before you travel (official page:
// https://www.mofa.go.jp/j_info/visit/visa/visaonline.html)."
func OldVerdictWords(asOf Date, destination string, page *Apply) string {
	return OldVerdictWordsIn(English(), asOf, destination, page)
}

// OldVerdictWordsIn is OldVerdictWords in the language of c; destination
// is the country's name in that language.
func OldVerdictWordsIn(c *locale.Catalog, asOf Date, destination string, page *Apply) string {
	if page == nil {
		return c.Count("verdict.old.confirm_unnamed", VerdictOldAfterDays, "date", asOf.LongIn(c))
	}
	return c.Count("verdict.old.confirm", VerdictOldAfterDays, "date", asOf.LongIn(c), "country", destination, "url", page.URL)
}

// OldVerdictsWords says the same of every verdict of a list as of asOf (a
// passport's destinations), whose own pages name each destination's
// authority: "The verdicts below are as of 17 February 2026, more than 180
// days ago, and may have changed since: confirm yours with the
// destination's official authority before you travel; each destination's
// page names it."
func OldVerdictsWords(asOf Date) string {
	return "The verdicts below are as of " + asOf.Long() + ", " + oldSince() + ": confirm yours with the destination's official authority before you travel; each destination's page names it."
}

// oldSince is what makes a verdict old, as OldVerdictWords and
// OldVerdictsWords say it.
func oldSince() string {
	return "more than " + strconv.Itoa(VerdictOldAfterDays) + " days ago, and may have changed since"
}

// ApplyAtEmbassyWords is the next step of a route that requires a visa
// where the curators found no official page to apply on or read about it:
// where a visa is applied for, without guessing an address.
func ApplyAtEmbassyWords(destination string) string {
	return "Apply at an embassy or consulate of " + destination + "."
}

// ApplyKindLabel names an official place to apply by its kind, as the link
// to it reads: "Apply online (official portal)".
func ApplyKindLabel(kind string) string {
	switch kind {
	case ApplyOfficialPortal:
		return "Apply online (official portal)"
	case ApplyOfficialInfo:
		return "How to apply (official information)"
	case ApplyEmbassyFinder:
		return "Find the embassy or consulate"
	}
	return kind
}

// ApplyKinds lists the apply kinds.
func ApplyKinds() []string {
	return []string{ApplyOfficialPortal, ApplyOfficialInfo, ApplyEmbassyFinder}
}

// Standing says how an official statement bears on the verdict on the
// travel date: "in force, from 1 January 2026; conflicts with the matrix".
func (s CheckedStatement) Standing() string {
	return s.StatusWords() + ", " + s.Period() + "; " + s.Comparison()
}

// Label names the statement with its standing, as answers head it:
// "Official statement, in force, from 1 January 2026; conflicts with the matrix".
func (s CheckedStatement) Label() string { return LabelOfficialStatement + ", " + s.Standing() }

// ConditionLabel names a condition of a trip's leg by the entry rule it
// assesses, with that rule's label (RuleFields); the planned stay and the
// Schengen count have labels of their own.
func ConditionLabel(kind string) string {
	switch kind {
	case ConditionStayDuration:
		return LabelAllowedStay
	case ConditionSchengen:
		return LabelSchengen
	case ConditionTransit:
		return RuleLabel(FieldTWOV)
	case ConditionVerdictAge:
		return LabelVerdictAge
	}
	return RuleLabel(kind)
}

// NotCitedNames names the entry rules no official source covers yet, as
// they read inside a sentence: "blank pages", "health".
func (r EntryRules) NotCitedNames() []string {
	names := r.NotCited()
	for i, n := range names {
		names[i] = InSentence(n)
	}
	return names
}

// InSentence is a label as it reads inside a sentence: "Blank pages" ->
// "blank pages".
func InSentence(label string) string {
	if label == "" {
		return label
	}
	return strings.ToLower(label[:1]) + label[1:]
}

// NotCitedWords says which entry rules of destination no official source
// covers yet (notCited, as NotCitedNames gives them), as the line under the
// rules does; some tells whether any rule is cited. The label is
// LabelNotCited, or empty when no rule is cited and the sentence stands
// alone; both are empty when every rule is cited.
func NotCitedWords(destination string, notCited []string, some bool) (label, words string) {
	switch {
	case len(notCited) == 0:
		return "", ""
	case some:
		return LabelNotCited, JoinWords(notCited) + ". Nothing is guessed."
	}
	return "", "No entry rule of " + destination + " is cited from an official page yet (" + JoinWords(notCited) + "). Nothing is guessed: the verdict above is all that is known."
}

// ActionSentence is the answer's action as a sentence (Action.Sentence),
// followed, when the verdict is old, by what confirming it asks
// (VerdictVerification.Confirm): what to do rests on that verdict.
func (r CheckResult) ActionSentence() string {
	s := r.Action.Sentence(r.Requirement, r.Passport.ISO3 == r.Destination.ISO3)
	if c := r.VerdictVerification.Confirm; c != "" {
		return s + " " + c
	}
	return s
}

// SourceWords is the provenance of a verdict from the secondary source
// src, in the words around its name (which a page links): before + name +
// after reads "a secondary visa table (imorte/passport-index-data, 17
// February 2026, MIT licence), which reads "eta" for this route".
func SourceWords(src Source) (before, after string) {
	after = ", " + EditionWords(src.Snapshot) + ", " + src.License + " licence), "
	if src.MatrixValue != nil {
		after += "which reads " + strconv.Quote(*src.MatrixValue) + " for this route"
	} else {
		after += "which has no value for this route"
	}
	return "a secondary visa table (", after
}

// SinceWords says since which edition of the secondary visa table a
// verdict holds: "this verdict changed in the edition of 17 February 2026",
// or, when it did not change since the first edition on record (edition),
// "this verdict holds since the edition of 12 January 2025 or earlier".
func SinceWords(changed bool, edition string) string {
	if changed {
		return "this verdict changed in the edition of " + EditionWords(edition)
	}
	return "this verdict holds since the edition of " + EditionWords(edition) + " or earlier"
}

// EditionWords is the date of an edition of the secondary visa table
// (a snapshot version, "2026-02-17") as people read it: "17 February 2026".
func EditionWords(version string) string {
	if d, err := ParseDate(version); err == nil {
		return d.Long()
	}
	return version
}

// RouteWords names a route as its page heads it, with the country after
// the passport rather than before it as an adjective: "Passport of Germany
// to United Kingdom".
func RouteWords(passport, destination string) string {
	return PassportWords(passport) + " to " + destination
}

// PassportWords names a country's passport: "Passport of Germany".
func PassportWords(country string) string { return "Passport of " + country }

// EveryDestinationWords is the link from a route to its passport's page:
// "Every destination for a passport of Germany".
func EveryDestinationWords(country string) string {
	return "Every destination for a " + InSentence(PassportWords(country))
}
