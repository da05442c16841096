package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
)

func runCheck(env Env, args []string) int {
	cfg := config.Default()
	fs := newFlags(env, "check", "Usage: entrycheck check PASSPORT DESTINATION [options]\n\nPASSPORT and DESTINATION are countries: ISO 3166-1 alpha-3 or alpha-2 codes in any\ncase, or names (quote names with spaces), e.g. entrycheck check DEU THA or\nentrycheck check Germany \"South Korea\".\n\nOptions:")
	cfg.RegisterAnswer(fs)
	var req entrycheck.CheckRequest
	var permits, visas string
	asJSON := fs.Bool("json", false, "print the exact API JSON")
	fs.StringVar(&req.Transit, "transit", "", "transit country `ISO3`")
	fs.StringVar(&req.Purpose, "purpose", "", "tourism (default) or business")
	fs.StringVar(&permits, "residence-permits-of", "", "comma-separated `codes` of countries (or SCHENGEN) whose residence permits you hold")
	fs.StringVar(&visas, "visas-of", "", "comma-separated `codes` of countries (or SCHENGEN) whose visas you hold")
	fs.StringVar(&req.ResidencePermitsText, "residence-permits", "", "free-text description of residence permits (echoed, never interpreted)")
	fs.StringVar(&req.VisasHeldText, "visas-held", "", "free-text description of visas held (echoed, never interpreted)")
	pos, code := positionals(fs, args, 2)
	if code != ExitOK {
		return code
	}
	req.Passport, req.Destination = pos[0], pos[1]
	req.ResidencePermitsOf, req.VisasOf = entrycheck.SplitCodes(permits), entrycheck.SplitCodes(visas)
	ev, err := loadEvaluator(context.Background(), cfg, env)
	if err != nil {
		return reportError(env.Stderr, err)
	}
	res, err := ev.Check(req, env.Clock)
	if err != nil {
		return reportError(env.Stderr, err)
	}
	if *asJSON {
		return writeJSON(env.Stdout, res)
	}
	printCheck(env.Stdout, res)
	return ExitOK
}

func flagExit(err error) int {
	if err == flag.ErrHelp {
		return ExitOK
	}
	return ExitUsage
}

func writeJSON(w io.Writer, v any) int {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(w, "entrycheck: %v\n", err)
		return ExitFailure
	}
	return ExitOK
}

// printCheck writes the answer for people.
func printCheck(w io.Writer, r entrycheck.CheckResult) {
	fmt.Fprintf(w, "%s (%s) passport to %s (%s)\n\n", r.Passport.Name, r.Passport.ISO3, r.Destination.Name, r.Destination.ISO3)
	verdict := r.RequirementLabel
	if r.AllowedStayDays.Valid {
		verdict += fmt.Sprintf(", up to %d days", r.AllowedStayDays.N)
	}
	fmt.Fprintf(w, "  %s, %s\n", verdict, r.VerdictVerification.AgeWords())
	fmt.Fprintf(w, "  Action: %s\n", strings.ReplaceAll(string(r.Action), "_", " "))
	if x := r.ExemptionApplied; x != nil {
		fmt.Fprintf(w, "  Exemption: holding a %s changes %s to %s. %s\n    Source: %s\n",
			strings.ReplaceAll(x.HeldDocument, "_", " "), x.MatrixRequirement, x.Exemption.Effect, x.Exemption.Text, cite(x.Source))
	}
	if a := r.Apply; a != nil {
		fmt.Fprintf(w, "  Apply: %s (%s)\n    %s\n    Source: %s\n", a.URL, strings.ReplaceAll(a.Kind, "_", " "), a.Note, cite(a.Source))
	}
	fmt.Fprintf(w, "  Verdict: %s. %s\n", r.VerdictVerification.Status, r.VerdictVerification.Note)
	for _, s := range r.VerdictVerification.OfficialStatements {
		fmt.Fprintf(w, "    Official statement (%s): %s\n      Source: %s\n", s.StatementWords(), s.Text, cite(s.Source))
	}

	er := r.EntryRules
	v := r.EntryRulesVerification
	fmt.Fprintf(w, "\nEntry rules (coverage %s, %s", er.Coverage, v.Status)
	fmt.Fprintf(w, ", %s", v.ReadWords())
	fmt.Fprintf(w, ")\n  %s\n", v.Note)
	for _, l := range er.Lines() {
		printRule(w, l)
	}
	if t := r.Transit; t != nil {
		fmt.Fprintf(w, "\nTransit through %s (%s): %s", t.Country.Name, t.Country.ISO3, t.RequirementLabel)
		if t.AllowedStayDays.Valid {
			fmt.Fprintf(w, ", up to %d days", t.AllowedStayDays.N)
		}
		fmt.Fprintf(w, "\n  %s\n", t.Note)
		for _, p := range t.Programs {
			eligible := "read the conditions"
			if p.EligibleForThisPassport != nil {
				eligible = map[bool]string{true: "this passport is eligible", false: "this passport is not eligible"}[*p.EligibleForThisPassport]
			}
			fmt.Fprintf(w, "  - %s (%s): %s\n", p.Program, eligible, p.Text)
		}
		if t.ProgramsSource != nil {
			fmt.Fprintf(w, "    Source: %s\n", cite(*t.ProgramsSource))
		}
	}
	fmt.Fprintln(w, "\nAssumptions:")
	for _, a := range r.Assumptions {
		fmt.Fprintf(w, "  - %s\n", a)
	}
	fmt.Fprintln(w, "Defaults applied:")
	for _, d := range r.DefaultsApplied {
		fmt.Fprintf(w, "  - %s = %s: %s\n", d.Field, d.Value, d.Reason)
	}
	src := r.Source
	raw := "none"
	if src.MatrixValue != nil {
		raw = fmt.Sprintf("%q", *src.MatrixValue)
	}
	fmt.Fprintf(w, "\nSource of the verdict: %s, snapshot %s (matrix value %s), %s licence, %s\n", src.Name, src.Snapshot, raw, src.License, src.URL)
	fmt.Fprintf(w, "Request %s, evaluated %s, dataset %s\n\n%s\n", r.RequestID, r.EvaluatedAt.Format("2006-01-02 15:04:05 MST"), r.DatasetVersion, r.Disclaimer)
}

func printRule(w io.Writer, l entrycheck.RuleLine) {
	fmt.Fprintf(w, "  %s: %s", l.Label, strings.TrimSpace(l.Text+" "+l.Detail))
	if l.URL != "" {
		fmt.Fprintf(w, " <%s>", l.URL)
	}
	fmt.Fprintf(w, "\n    Source: %s\n", cite(l.Source))
}

func cite(c entrycheck.Citation) string {
	return fmt.Sprintf("%s <%s>, %s", c.Name, c.URL, c.ReadText("read"))
}
