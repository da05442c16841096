package evaluation_test

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// tripWords are the texts of a trip answer the evaluation words, in a
// fixed order, each with where it is: the summary and what needs
// attention, each leg's requirement labels, reasons, condition details and
// notes, the Schengen account, the defaults' reasons, the assumptions and
// the disclaimer. Cited texts (rule_text, official statements) stay in the
// language of their source and are not among them.
func tripWords(r entrycheck.TripResult) (where, words []string) {
	add := func(at, s string) {
		where = append(where, at)
		words = append(words, s)
	}
	add("summary.text", r.Summary.Text)
	for _, a := range r.Summary.Attention {
		add("summary.attention", a)
	}
	for _, l := range r.Legs {
		leg := "legs/" + l.Country.ISO3
		add(leg+".requirement_label", l.RequirementLabel)
		for _, y := range l.Why {
			add(leg+".why", y)
		}
		for _, c := range l.Conditions {
			add(leg+".conditions/"+c.Kind, c.Detail)
		}
		for _, o := range l.Alternatives {
			add(leg+".alternatives.requirement_label", o.RequirementLabel)
		}
		add(leg+".verdict_verification.note", l.VerdictVerification.Note)
		add(leg+".entry_rules_verification.note", l.EntryRulesVerification.Note)
	}
	if s := r.Schengen; s != nil {
		add("schengen.rule", s.Rule)
		add("schengen.detail", s.Detail)
		for _, sl := range s.Legs {
			add("schengen.legs.reason", sl.Reason)
		}
	}
	for _, d := range r.DefaultsApplied {
		add("defaults_applied/"+d.Field, d.Reason)
	}
	for _, a := range r.Assumptions {
		add("assumptions", a)
	}
	add("disclaimer", r.Disclaimer)
	return where, words
}

// tripCodes is the answer without its words: what every language must
// answer alike.
func tripCodes(t *testing.T, r entrycheck.TripResult) any {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	// The members that hold words; every other member is a code, a
	// number, a date, a name from the data or a cited text.
	words := map[string]bool{
		"text": true, "attention": true, "requirement_label": true, "why": true, "detail": true, "note": true,
		"confirm": true, "rule": true, "reason": true, "assumptions": true, "disclaimer": true, "language": true,
	}
	var strip func(any) any
	strip = func(v any) any {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if words[k] {
					delete(v, k)
				} else {
					v[k] = strip(x)
				}
			}
		case []any:
			for i, x := range v {
				v[i] = strip(x)
			}
		}
		return v
	}
	return strip(v)
}

// unfilled finds a placeholder left in a text.
var unfilled = regexp.MustCompile(`\{[a-z_]+\}`)

// sameInCatalog lists the messages (without placeholders) that c words as
// the English catalog does, such as "Schengen 90/180": a text that is one
// of them may read as in English.
func sameInCatalog(c *locale.Catalog) map[string]bool {
	en := locale.Embedded().English()
	same := map[string]bool{}
	for _, id := range en.IDs() {
		if s := en.Text(id); !strings.Contains(s, "{") && !strings.HasPrefix(s, "[") && c.Text(id) == s {
			same[s] = true
		}
	}
	return same
}

// languageTrips are the example itineraries, which between them reach every
// kind of leg (visa-free, a document to obtain, transit with and without a
// programme, an unknown verdict, an expiring passport, yellow fever, the
// Schengen count passed), and one that earns a curated exemption.
func languageTrips(t *testing.T) map[string]entrycheck.TripRequest {
	files, err := filepath.Glob(filepath.Join("testdata", "trips", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	trips := map[string]entrycheck.TripRequest{}
	for _, f := range files {
		if name := filepath.Base(f); name != "invalid.json" {
			trips[name] = loadTrip(t, name)
		}
	}
	trips["exemption"] = entrycheck.TripRequest{
		Traveler: entrycheck.Traveler{Passports: []entrycheck.PassportHeld{{Country: "IND", Expires: "2031-01-31"}}, VisasOf: []string{"USA"}},
		Trip: legs(
			entrycheck.Leg{Country: "SGP", Arrival: "2027-03-01", Departure: "2027-03-01", Transit: true},
			entrycheck.Leg{Country: "MEX", Arrival: "2027-03-02", Departure: "2027-03-20"},
		),
	}
	return trips
}

// TestTripSpeaksEveryLanguage evaluates every example itinerary in every
// language the service speaks. Each text the evaluation words is there,
// has every placeholder filled and names no message the catalog lacks; in
// every language but English it is the language's own, not the English
// text, unless it is a message the language's catalog words as English
// does. The catalog's own messages are where the answer says they are:
// the summary opens with the trip's status, the Schengen account states
// the rule, the assumptions start with the passports'. The codes, numbers
// and dates are those of the English answer, and English is answered
// exactly as when no language is asked.
func TestTripSpeaksEveryLanguage(t *testing.T) {
	ev := datatest.Evaluator(t)
	for name, req := range languageTrips(t) {
		plain, err := ev.EvaluateTrip(req, "req_language", today)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		where, english := tripWords(plain)
		for _, c := range locale.Embedded().List() {
			asked := req
			asked.Language = c.Code
			r, err := ev.EvaluateTrip(asked, "req_language", today)
			if err != nil {
				t.Fatalf("%s %s: %v", c.Code, name, err)
			}
			if r.Language != c.Code {
				t.Errorf("%s %s: language %q", c.Code, name, r.Language)
			}
			if !reflect.DeepEqual(tripCodes(t, r), tripCodes(t, plain)) {
				t.Errorf("%s %s: the codes differ from the English answer's", c.Code, name)
			}
			_, words := tripWords(r)
			if len(words) != len(english) {
				t.Fatalf("%s %s: %d texts, in English %d", c.Code, name, len(words), len(english))
			}
			same := sameInCatalog(c)
			for i, s := range words {
				switch {
				case s == "" && english[i] != "":
					t.Errorf("%s %s %s: empty", c.Code, name, where[i])
				case unfilled.MatchString(s):
					t.Errorf("%s %s %s: a placeholder is left: %q", c.Code, name, where[i], s)
				case strings.Contains(s, "[trip.") || strings.Contains(s, "[assumption."):
					t.Errorf("%s %s %s: a message is missing: %q", c.Code, name, where[i], s)
				case c.Code == locale.English && s != english[i]:
					t.Errorf("%s %s %s: %q, without a language %q", c.Code, name, where[i], s, english[i])
				case c.Code != locale.English && s != "" && s == english[i] && !same[s]:
					t.Errorf("%s %s %s: in English: %q", c.Code, name, where[i], s)
				}
			}
			if want := c.Text("trip.summary.status." + string(r.Summary.Status)); !strings.HasPrefix(r.Summary.Text, want) {
				t.Errorf("%s %s: summary %q does not open with %q", c.Code, name, r.Summary.Text, want)
			}
			if s := r.Schengen; s != nil && s.Rule != c.Text("trip.schengen.rule") {
				t.Errorf("%s %s: Schengen rule %q", c.Code, name, s.Rule)
			}
			if r.Assumptions[0] != c.Text("assumption.trip.passports") || r.Disclaimer != entrycheck.Disclaimer(c) {
				t.Errorf("%s %s: assumption %q, disclaimer %q", c.Code, name, r.Assumptions[0], r.Disclaimer)
			}
		}
	}
}

// TestTripLanguageFallsBackToEnglish asks a trip in a language the service
// does not speak, explicitly and by Accept-Language: the answer is the
// English one and its last default says so; a language asked by
// Accept-Language alone is spoken.
func TestTripLanguageFallsBackToEnglish(t *testing.T) {
	ev := datatest.Evaluator(t)
	req := loadTrip(t, "ten-legs-three-passports.json")
	english, err := ev.EvaluateTrip(req, "req_language", today)
	if err != nil {
		t.Fatal(err)
	}
	_, want := tripWords(english)
	for _, ask := range []struct{ language, accept string }{{"xx", ""}, {"", "tlh, xx;q=0.5"}} {
		asked := req
		asked.Language, asked.AcceptLanguage = ask.language, ask.accept
		r, err := ev.EvaluateTrip(asked, "req_language", today)
		if err != nil {
			t.Fatal(err)
		}
		if r.Language != locale.English {
			t.Errorf("%+v: language %q, want en", ask, r.Language)
		}
		last := r.DefaultsApplied[len(r.DefaultsApplied)-1]
		if len(r.DefaultsApplied) != len(english.DefaultsApplied)+1 || last.Field != "language" || last.Value != locale.English ||
			!strings.Contains(last.Reason, "xx") || last.Indexes != nil {
			t.Errorf("%+v: defaults %+v", ask, r.DefaultsApplied)
		}
		r.DefaultsApplied = r.DefaultsApplied[:len(r.DefaultsApplied)-1]
		if _, got := tripWords(r); !reflect.DeepEqual(got, want) {
			t.Errorf("%+v: the words are not the English answer's", ask)
		}
	}
	asked := req
	asked.AcceptLanguage = "de-CH, de;q=0.9, en;q=0.5"
	r, err := ev.EvaluateTrip(asked, "req_language", today)
	if err != nil {
		t.Fatal(err)
	}
	if r.Language != "de" || r.Disclaimer == english.Disclaimer || len(r.DefaultsApplied) != len(english.DefaultsApplied) {
		t.Errorf("Accept-Language de-CH: language %q, %d defaults", r.Language, len(r.DefaultsApplied))
	}
	if english.Language != "" {
		t.Errorf("no language asked: language %q, want none", english.Language)
	}
}
