package answertext

import (
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// Trip is the answer to a trip evaluation in words: the trip's status and
// what needs attention, then each leg, the Schengen count, the defaults
// and the assumptions. It is worded in the answer's language
// (TripResult.Language); what the sources say is cited as they say it.
func Trip(r entrycheck.TripResult) Answer {
	c := r.Words()
	s := r.Summary
	a := Answer{
		Title:      c.Count("trip.text.title", s.Counts.Legs),
		Verdict:    status(c, string(s.Status)),
		Summary:    []string{s.Text},
		Footer:     footer(c, r.DatasetVersion, r.RequestID, r.EvaluatedAt),
		Disclaimer: r.Disclaimer,
		Language:   c,
	}
	if len(s.Attention) > 0 {
		att := Section{Heading: entrycheck.LabelNeedsAttention.In(c)}
		for _, t := range s.Attention {
			att.Lines = append(att.Lines, Line{Text: t})
		}
		a.Sections = append(a.Sections, att)
	}
	for _, l := range r.Legs {
		a.Sections = append(a.Sections, leg(c, l))
	}
	if sc := r.Schengen; sc != nil {
		a.Sections = append(a.Sections, schengen(c, *sc))
	}
	a.Sections = append(a.Sections, tripDefaults(c, r.DefaultsApplied), assumptions(c, r.Assumptions))
	return a
}

// status is a trip's or a leg's status, in capitals where the language has
// them, so that it stands out: message trip.text.status.<status>.
func status(c *locale.Catalog, s string) string { return c.Text("trip.text.status." + s) }

// leg is one leg: the passport chosen and its verdict, what to do, the
// reasons, the conditions of the plan and how the verdict was sourced.
func leg(c *locale.Catalog, l entrycheck.LegDecision) Section {
	kind := l.Purpose
	if l.Transit {
		kind = "transit"
	}
	country := c.Country(l.Country.ISO2, l.Country.Name)
	s := Section{
		Heading: c.Text("trip.text.leg", "number", c.Number(l.Index+1)),
		Subject: c.Text("trip.text.subject", "country", country, "code", l.Country.ISO3, "dates", legDates(c, l), "kind", c.Text("trip.text.kind."+kind)),
		Status:  status(c, string(l.Status)),
		Lines: []Line{
			{Label: entrycheck.PassportWordsIn(c, c.Country(l.Passport.Country.ISO2, l.Passport.Country.Name)),
				Text: c.Text("list.comma", "a", entrycheck.VerdictWordsIn(c, l.RequirementLabel, l.Requirement, l.AllowedStayDays), "b", l.VerdictVerification.AgeWordsIn(c))},
			{Label: entrycheck.LabelAction.In(c), Text: l.Action.WordsIn(c)},
		},
	}
	s.Lines = append(s.Lines, verdictLines(c, l.ExemptionApplied, l.Apply, l.VerdictVerification.OfficialStatements)...)
	why := Line{Label: c.Text("trip.text.why"), Secondary: true}
	for _, y := range l.Why {
		why.Items = append(why.Items, Line{Text: y})
	}
	conditions := Line{Label: c.Text("trip.text.conditions")}
	for _, cond := range l.Conditions {
		conditions.Items = append(conditions.Items, condition(c, cond))
	}
	s.Lines = append(s.Lines, why, conditions)
	if len(l.Alternatives) > 1 {
		considered := ""
		for _, o := range l.Alternatives {
			option := c.Text("trip.text.option", "rank", c.Number(o.Rank), "passport", entrycheck.PassportWordsIn(c, c.Country(o.Passport.Country.ISO2, o.Passport.Country.Name)),
				"verdict", entrycheck.VerdictWordsIn(c, o.RequirementLabel, o.Requirement, o.AllowedStayDays))
			if considered == "" {
				considered = option
			} else {
				considered = c.Text("list.semicolon", "a", considered, "b", option)
			}
		}
		s.Lines = append(s.Lines, Line{Label: c.Text("trip.text.passports_considered"), Text: considered, Secondary: true})
	}
	s.Lines = append(s.Lines,
		Line{Label: entrycheck.LabelVerdictBasis.In(c), Text: c.Text("words.sentence", "text", entrycheck.VerdictStatusWordsIn(c, l.VerdictVerification.Status))},
		Line{Label: entrycheck.EntryRulesOf(c, country), Text: c.Text("status.rules.lead", "status", entrycheck.RulesStatusWordsIn(c, l.EntryRulesVerification.Status), "read", l.EntryRulesVerification.ReadWordsIn(c))})
	return s
}

// condition is one condition of a leg under the label of the rule it
// assesses; one the plan meets, or that does not concern the leg, is
// background.
func condition(c *locale.Catalog, cond entrycheck.Condition) Line {
	st := c.Text("trip.text.condition." + string(cond.Status))
	if cond.ActionNeeded {
		st = c.Text("trip.text.action_needed", "status", st)
	}
	l := Line{Label: entrycheck.ConditionLabelIn(c, cond.Kind), Status: st, Text: cond.Detail, Source: cond.Source,
		Secondary: cond.Status == entrycheck.ConditionMet || cond.Status == entrycheck.ConditionNotApplicable}
	if cond.RuleText != "" {
		l.Items = []Line{{Label: c.Text("trip.text.rule"), Text: entrycheck.TravellerText(cond.RuleText), Secondary: true}}
	}
	return l
}

// legDates are a leg's dates in figures, as the trip's texts write them.
func legDates(c *locale.Catalog, l entrycheck.LegDecision) string {
	switch {
	case l.Arrival != nil && l.Departure != nil:
		return c.Text("trip.text.dates.between", "arrival", l.Arrival.FiguresIn(c), "departure", l.Departure.FiguresIn(c))
	case l.Arrival != nil:
		return c.Text("trip.text.dates.from", "arrival", l.Arrival.FiguresIn(c))
	case l.Departure != nil:
		return c.Text("trip.text.dates.until", "departure", l.Departure.FiguresIn(c))
	}
	return c.Text("trip.text.dates.none")
}

// schengen is the 90-days-in-any-180 count of the trip, leg by leg.
func schengen(c *locale.Catalog, sc entrycheck.SchengenStay) Section {
	src := sc.Source
	s := Section{
		Heading: entrycheck.LabelSchengen.In(c),
		Status:  c.Text("trip.text.condition." + string(sc.Status)),
		Lead:    []string{sc.Detail},
		Source:  &src,
	}
	for _, sl := range sc.Legs {
		days := c.Text("trip.schengen.undated")
		if sl.Days.Valid {
			days = c.Count("stay.days", sl.Days.N)
		}
		s.Lines = append(s.Lines, Line{Label: c.Text("trip.text.schengen_leg", "number", c.Number(sl.Index+1), "country", sl.Country, "days", days), Text: sl.Reason, Secondary: true})
	}
	return s
}

func tripDefaults(c *locale.Catalog, ds []entrycheck.TripDefault) Section {
	s := Section{Heading: entrycheck.LabelDefaultsApplied.In(c)}
	for _, d := range ds {
		label := ""
		if len(d.Indexes) > 0 {
			label = capital(items(c, d.Field, d.Indexes))
		}
		s.Lines = append(s.Lines, Line{Label: label, Text: d.Reason})
	}
	return s
}

// items names the legs or passports a default applied to, numbered from 1.
func items(c *locale.Catalog, field string, indexes []int) string {
	id := "trip.text.items.legs"
	if strings.HasPrefix(field, "traveler.passports") {
		id = "trip.text.items.passports"
	}
	numbers := ""
	for _, n := range indexes {
		if numbers == "" {
			numbers = c.Number(n + 1)
		} else {
			numbers = c.Text("list.comma", "a", numbers, "b", c.Number(n+1))
		}
	}
	return c.Text(id, "numbers", numbers)
}
