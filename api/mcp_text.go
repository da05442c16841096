package api

import (
	"fmt"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
)

// The readable summaries of the MCP tool results. They only render what
// the evaluation computed; the structured content carries the whole answer.

// checkText summarises a check: verdict, stay, action, the cited rules and
// the disclaimer.
func checkText(r entrycheck.CheckResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) passport to %s (%s): %s", r.Passport.Name, r.Passport.ISO3, r.Destination.Name, r.Destination.ISO3, r.RequirementLabel)
	if r.AllowedStayDays.Valid {
		fmt.Fprintf(&b, ", up to %d days", r.AllowedStayDays.N)
	} else if r.Requirement == entrycheck.VisaFree {
		b.WriteString(", no stated limit")
	}
	fmt.Fprintf(&b, ".\nAction: %s.", words(string(r.Action)))
	if r.Action == entrycheck.ActionCheckOfficialAuthority {
		b.WriteString(" This is not a verdict: the data has none for this route that can be relied on.")
	}
	b.WriteString("\n")
	if x := r.ExemptionApplied; x != nil {
		fmt.Fprintf(&b, "Exemption applied: holding a %s changes %s to %s. %s [%s]\n", words(x.HeldDocument), x.MatrixRequirement, x.Exemption.Effect, x.Exemption.Text, citation(x.Source))
	}
	if a := r.Apply; a != nil {
		fmt.Fprintf(&b, "Apply: %s (%s). %s [%s]\n", a.URL, words(a.Kind), a.Note, citation(a.Source))
	}
	fmt.Fprintf(&b, "Verdict %s. Source: %s, snapshot %s (%s, %s). %s\n", r.VerdictVerification.AgeWords(), r.Source.Name, r.Source.Snapshot, r.Source.License, words(r.VerdictVerification.Status), r.VerdictVerification.Note)
	for _, s := range r.VerdictVerification.OfficialStatements {
		fmt.Fprintf(&b, "Official statement (%s): %s [%s]\n", s.StatementWords(), s.Text, citation(s.Source))
	}

	er, v := r.EntryRules, r.EntryRulesVerification
	fmt.Fprintf(&b, "\nEntry rules of %s (coverage %s, %s", r.Destination.Name, er.Coverage, words(v.Status))
	fmt.Fprintf(&b, ", %s", v.ReadWords())
	fmt.Fprintf(&b, "): %s\n", v.Note)
	for _, l := range er.Lines() {
		fmt.Fprintf(&b, "- %s: %s", l.Label, strings.TrimSpace(l.Text+" "+l.Detail))
		if l.URL != "" {
			fmt.Fprintf(&b, " (%s)", l.URL)
		}
		fmt.Fprintf(&b, " [%s]\n", citation(l.Source))
	}
	if er.Coverage == entrycheck.CoverageBasic {
		b.WriteString("- No curated rules for this destination: check passport validity, onward ticket and health rules with its official authority.\n")
	}

	if t := r.Transit; t != nil {
		fmt.Fprintf(&b, "\nTransit through %s (%s): %s", t.Country.Name, t.Country.ISO3, t.RequirementLabel)
		if t.AllowedStayDays.Valid {
			fmt.Fprintf(&b, ", up to %d days", t.AllowedStayDays.N)
		}
		fmt.Fprintf(&b, ". %s\n", t.Note)
		for _, p := range t.Programs {
			eligible := "read the conditions"
			if e := p.EligibleForThisPassport; e != nil && *e {
				eligible = "this passport is eligible"
			} else if e != nil {
				eligible = "this passport is not eligible"
			}
			fmt.Fprintf(&b, "- %s (%s): %s\n", p.Program, eligible, p.Text)
		}
		if t.ProgramsSource != nil {
			fmt.Fprintf(&b, "  [%s]\n", citation(*t.ProgramsSource))
		}
	}

	if len(r.DefaultsApplied) > 0 {
		b.WriteString("\nDefaults applied:")
		for _, d := range r.DefaultsApplied {
			fmt.Fprintf(&b, " %s = %s;", d.Field, d.Value)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Dataset %s, request %s.\n\n%s", r.DatasetVersion, r.RequestID, r.Disclaimer)
	return b.String()
}

// tripText summarises a trip: the overall status, each leg with its
// passport, requirement and the conditions that need attention.
func tripText(r entrycheck.TripResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Trip: %s. %s\n", words(string(r.Summary.Status)), r.Summary.Text)
	for _, l := range r.Legs {
		fmt.Fprintf(&b, "\nLeg %d, %s (%s)", l.Index+1, l.Country.Name, l.Country.ISO3)
		switch {
		case l.Arrival != nil && l.Departure != nil:
			fmt.Fprintf(&b, ", %s to %s", l.Arrival, l.Departure)
		case l.Arrival != nil:
			fmt.Fprintf(&b, ", from %s", l.Arrival)
		}
		if l.Transit {
			b.WriteString(", transit")
		}
		fmt.Fprintf(&b, ": %s. Passport %s: %s", words(string(l.Status)), l.Passport.Country.ISO3, l.RequirementLabel)
		if l.AllowedStayDays.Valid {
			fmt.Fprintf(&b, ", up to %d days", l.AllowedStayDays.N)
		}
		fmt.Fprintf(&b, "; action %s. Verdict %s.\n", words(string(l.Action)), l.VerdictVerification.AgeWords())
		for _, s := range l.VerdictVerification.OfficialStatements {
			fmt.Fprintf(&b, "- Official statement (%s): %s [%s]\n", s.StatementWords(), s.Text, citation(s.Source))
		}
		if a := l.Apply; a != nil {
			fmt.Fprintf(&b, "- Apply: %s [%s]\n", a.URL, citation(a.Source))
		}
		for _, c := range l.Conditions {
			if c.Status == entrycheck.ConditionMet || c.Status == entrycheck.ConditionNotApplicable {
				continue
			}
			fmt.Fprintf(&b, "- %s (%s): %s", words(c.Kind), words(string(c.Status)), c.Detail)
			if c.Source != nil {
				fmt.Fprintf(&b, " [%s]", citation(*c.Source))
			}
			b.WriteString("\n")
		}
	}
	if sch := r.Schengen; sch != nil {
		fmt.Fprintf(&b, "\nSchengen %d/%d: %s. %s\n", sch.LimitDays, sch.WindowDays, words(string(sch.Status)), sch.Detail)
	}
	if len(r.Summary.Attention) > 0 {
		b.WriteString("\nNeeds attention:\n")
		for _, a := range r.Summary.Attention {
			fmt.Fprintf(&b, "- %s\n", a)
		}
	}
	fmt.Fprintf(&b, "\nDataset %s, request %s.\n\n%s", r.DatasetVersion, r.RequestID, r.Disclaimer)
	return b.String()
}

// datasetText summarises get_dataset_info.
func datasetText(d datasetInfo) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Dataset %s: %d routes (%d passports, each to the %d other countries of the matrix) from %s (%s, a secondary source: verdicts are never claimed as officially verified).\n",
		d.DatasetVersion, d.Routes, d.Passports, d.Destinations-1, d.MatrixSource.Name, d.MatrixSource.License)
	fmt.Fprintf(&b, "Curated entry rules, each cited to an official source, for %d destinations (%s); they count as stale when their oldest citation is more than %d days old.\n",
		d.CuratedDestinations, strings.Join(d.CuratedDestinationCodes, ", "), d.StaleAfterDays)
	b.WriteString("Requirement values:")
	for _, r := range d.RequirementValues {
		fmt.Fprintf(&b, " %s (action %s);", r.Value, r.Action)
	}
	fmt.Fprintf(&b, "\nToday (%s): %d free checks of %d, %d paid calls; quotas reset at %s.\n", d.Today.Date, d.Today.FreeChecks, d.Today.FreeChecksCeiling, d.Today.PaidCalls, d.Today.ResetAt)
	fmt.Fprintf(&b, "More: %s (API), %s (coverage and freshness), %s (changes).", d.Links.OpenAPI, d.Links.Transparency, d.Links.Changes)
	return b.String()
}

// rateLimitedText explains a quota refusal: the cap, its limit, when it
// resets and what to do instead.
func rateLimitedText(r rateLimited) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Free check refused: %s (scope %s, limit %d a day). It resets at %s, in %s. Nothing was counted for this call.\nInstead:",
		strings.TrimSuffix(r.Message, "; they reset at midnight UTC"), r.Scope, r.Limit, r.ResetAt.Format(time.RFC3339), time.Duration(r.RetryAfterSeconds)*time.Second)
	for _, a := range r.Alternatives {
		fmt.Fprintf(&b, "\n- %s", a)
	}
	return b.String()
}

// problemsText lists every problem of an invalid request with where it is
// (a parameter or a JSON pointer) and the suggestions.
func problemsText(e *entrycheck.Error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Refused, nothing was counted or charged: %s.", e.Message)
	for _, p := range e.Problems {
		at := p.Field
		if at == "" {
			at = "/"
		}
		fmt.Fprintf(&b, "\n- %s (%s): %s", at, p.Code, p.Message)
	}
	return b.String()
}

func citation(c entrycheck.Citation) string {
	return fmt.Sprintf("%s, %s, %s", c.Name, c.URL, c.ReadText("retrieved"))
}

func words(s string) string { return strings.ReplaceAll(s, "_", " ") }
