package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/answertext"
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
	pos, code, ok := positionals(fs, args, 2)
	if !ok {
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

// printCheck writes the answer for people (answertext.Text).
func printCheck(w io.Writer, r entrycheck.CheckResult) {
	io.WriteString(w, answertext.Text(answertext.Check(r)))
}
