package answertext

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/entrycheck/entrycheck"
)

// Trip is the answer to a trip evaluation in words: the trip's status and
// what needs attention, then each leg, the Schengen count, the defaults
// and the assumptions.
func Trip(r entrycheck.TripResult) Answer {
	s := r.Summary
	a := Answer{
		Title:      "Trip of " + entrycheck.Plural(s.Counts.Legs, "leg"),
		Verdict:    status(s.Status),
		Summary:    []string{s.Text},
		Footer:     footer(entrycheck.English(), r.DatasetVersion, r.RequestID, r.EvaluatedAt),
		Disclaimer: r.Disclaimer,
	}
	if len(s.Attention) > 0 {
		att := Section{Heading: entrycheck.LabelNeedsAttention.String()}
		for _, t := range s.Attention {
			att.Lines = append(att.Lines, Line{Text: t})
		}
		a.Sections = append(a.Sections, att)
	}
	for _, l := range r.Legs {
		a.Sections = append(a.Sections, leg(l))
	}
	if sc := r.Schengen; sc != nil {
		a.Sections = append(a.Sections, schengen(*sc))
	}
	a.Sections = append(a.Sections, tripDefaults(r.DefaultsApplied), assumptions(entrycheck.English(), r.Assumptions))
	return a
}

// status is a trip's or a leg's status, in capitals so that it stands out.
func status(s entrycheck.TripStatus) string {
	return strings.ToUpper(strings.ReplaceAll(string(s), "_", " "))
}

// leg is one leg: the passport chosen and its verdict, what to do, the
// reasons, the conditions of the plan and how the verdict was sourced.
func leg(l entrycheck.LegDecision) Section {
	kind := l.Purpose
	if l.Transit {
		kind = "transit"
	}
	s := Section{
		Heading: "Leg " + strconv.Itoa(l.Index+1),
		Subject: fmt.Sprintf("%s (%s), %s, %s", l.Country.Name, l.Country.ISO3, legDates(l), kind),
		Status:  status(l.Status),
		Lines: []Line{
			{Label: entrycheck.PassportWords(l.Passport.Country.Name), Text: entrycheck.VerdictWords(l.RequirementLabel, l.Requirement, l.AllowedStayDays) + ", " + l.VerdictVerification.AgeWords()},
			{Label: entrycheck.LabelAction.String(), Text: l.Action.Words()},
		},
	}
	s.Lines = append(s.Lines, verdictLines(entrycheck.English(), l.ExemptionApplied, l.Apply, l.VerdictVerification.OfficialStatements)...)
	why := Line{Label: "Why", Secondary: true}
	for _, y := range l.Why {
		why.Items = append(why.Items, Line{Text: y})
	}
	conditions := Line{Label: "Conditions"}
	for _, c := range l.Conditions {
		conditions.Items = append(conditions.Items, condition(c))
	}
	s.Lines = append(s.Lines, why, conditions)
	if len(l.Alternatives) > 1 {
		parts := make([]string, len(l.Alternatives))
		for i, o := range l.Alternatives {
			parts[i] = fmt.Sprintf("#%d %s: %s", o.Rank, entrycheck.PassportWords(o.Passport.Country.Name), entrycheck.VerdictWords(o.RequirementLabel, o.Requirement, o.AllowedStayDays))
		}
		s.Lines = append(s.Lines, Line{Label: "Passports considered", Text: strings.Join(parts, "; "), Secondary: true})
	}
	s.Lines = append(s.Lines,
		Line{Label: entrycheck.LabelVerdictBasis.String(), Text: entrycheck.VerdictStatusWords(l.VerdictVerification.Status) + "."},
		Line{Label: entrycheck.EntryRulesOf(entrycheck.English(), l.Country.Name), Text: entrycheck.RulesStatusWords(l.EntryRulesVerification.Status) + "; " + l.EntryRulesVerification.ReadWords() + "."})
	return s
}

// condition is one condition of a leg under the label of the rule it
// assesses; one the plan meets, or that does not concern the leg, is
// background.
func condition(c entrycheck.Condition) Line {
	st := strings.ReplaceAll(string(c.Status), "_", " ")
	if c.ActionNeeded {
		st += ", action needed"
	}
	l := Line{Label: entrycheck.ConditionLabel(c.Kind), Status: st, Text: c.Detail, Source: c.Source,
		Secondary: c.Status == entrycheck.ConditionMet || c.Status == entrycheck.ConditionNotApplicable}
	if c.RuleText != "" {
		l.Items = []Line{{Label: "Rule", Text: entrycheck.TravellerText(c.RuleText), Secondary: true}}
	}
	return l
}

func legDates(l entrycheck.LegDecision) string {
	switch {
	case l.Arrival != nil && l.Departure != nil:
		return l.Arrival.String() + " to " + l.Departure.String()
	case l.Arrival != nil:
		return "from " + l.Arrival.String()
	case l.Departure != nil:
		return "until " + l.Departure.String()
	}
	return "no dates"
}

// schengen is the 90-days-in-any-180 count of the trip, leg by leg.
func schengen(sc entrycheck.SchengenStay) Section {
	src := sc.Source
	s := Section{
		Heading: entrycheck.LabelSchengen.String(),
		Status:  strings.ReplaceAll(string(sc.Status), "_", " "),
		Lead:    []string{sc.Detail},
		Source:  &src,
	}
	for _, sl := range sc.Legs {
		days := "undated"
		if sl.Days.Valid {
			days = entrycheck.Plural(sl.Days.N, "day")
		}
		s.Lines = append(s.Lines, Line{Label: fmt.Sprintf("Leg %d, %s, %s", sl.Index+1, sl.Country, days), Text: sl.Reason, Secondary: true})
	}
	return s
}

func tripDefaults(ds []entrycheck.TripDefault) Section {
	s := Section{Heading: entrycheck.LabelDefaultsApplied.String()}
	for _, d := range ds {
		label := ""
		if len(d.Indexes) > 0 {
			label = capital(items(d.Field, d.Indexes))
		}
		s.Lines = append(s.Lines, Line{Label: label, Text: d.Reason})
	}
	return s
}

// items names the legs or passports a default applied to, numbered from 1.
func items(field string, indexes []int) string {
	noun := "legs"
	if strings.HasPrefix(field, "traveler.passports") {
		noun = "passports"
	}
	nums := make([]string, len(indexes))
	for i, n := range indexes {
		nums[i] = strconv.Itoa(n + 1)
	}
	return noun + " " + strings.Join(nums, ", ")
}
