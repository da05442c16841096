package mcpserver

import (
	"fmt"
	"strings"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/answertext"
	"github.com/entrycheck/entrycheck/internal/api/quota"
)

// The readable summaries of the MCP tool results. They only render what
// the evaluation computed; the structured content carries the whole answer.

// checkText summarises a check for agents (answertext.Compact).
func checkText(r entrycheck.CheckResult) string { return answertext.Compact(answertext.Check(r)) }

// tripText summarises a trip for agents (answertext.Compact).
func tripText(r entrycheck.TripResult) string { return answertext.Compact(answertext.Trip(r)) }

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
func rateLimitedText(r quota.RateLimited) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Free check refused: %s (scope %s, limit %d a day). It resets at %s, in %s. Nothing was counted for this call.\nInstead:",
		strings.TrimSuffix(r.Message, "; they reset at midnight UTC"), r.Scope, r.Limit, r.ResetAt.Format(time.RFC3339), time.Duration(r.RetryAfterSeconds)*time.Second)
	for _, a := range r.Alternatives {
		fmt.Fprintf(&b, "\n- %s", a)
	}
	return b.String()
}
