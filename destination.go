package entrycheck

import "time"

// DestinationAnswer is what entrycheck says of a destination before any
// passport is known: its curated entry rules with every variant and whom it
// applies to, its yellow-fever rule without a decision for a traveller, the
// official portals the curators found and the state of its verification.
// It is computed by the evaluation core only (Evaluator.Destination); a
// check selects from the same rules for one passport (CheckResult).
type DestinationAnswer struct {
	Destination Country          `json:"destination"`
	EntryRules  DestinationRules `json:"entry_rules"`
	// Curated is set when the curators keep a record of the destination
	// (Apply and CuratorNotes come from it), even one no official page
	// gave a rule for.
	Curated                bool                   `json:"curated"`
	EntryRulesVerification EntryRulesVerification `json:"entry_rules_verification"`
	// Apply lists the official portals and information pages, each with
	// the requirements and passports it serves.
	Apply          []ApplyEntry `json:"apply"`
	CuratorNotes   string       `json:"curator_notes,omitempty"`
	DatasetVersion string       `json:"dataset_version"`
	EvaluatedAt    time.Time    `json:"evaluated_at"`
	Source         Source       `json:"source"`
	Disclaimer     string       `json:"disclaimer"`
}

// Variant is one variant or list item of a curated rule field, kept with
// its applies_to and documented_for (in Value), the page it was read from,
// and whom those name in words.
type Variant[T any] struct {
	Value  T        `json:"value"`
	Source Citation `json:"source"`
	// For names the travellers it holds for ("holders of a passport of New
	// Zealand"); empty when it holds for every passport.
	For string `json:"for,omitempty"`
	// DocumentedFor names the nationals its source speaks to; empty when
	// the source speaks to every traveller.
	DocumentedFor string `json:"documented_for,omitempty"`
}

// DestinationYellowFever is a destination's yellow-fever certificate rule
// as it holds for every traveller: whether a traveller needs the
// certificate depends on the route, which a check works out
// (YellowFeverRule).
type DestinationYellowFever struct {
	Value  YellowFever `json:"value"`
	Source Citation    `json:"source"`
	// ExtraRiskCountries are the countries of Value.ExtraRiskCountries,
	// named: those the destination treats as risk countries beyond the WHO
	// list.
	ExtraRiskCountries []Country `json:"extra_risk_countries"`
}
