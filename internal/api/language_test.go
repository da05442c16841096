package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// TestFreeCheckSpeaksTheLanguageAsked asks one route in every language the
// service speaks, by lang and by Accept-Language: the words change, the
// codes do not, and a language not spoken gives English and says so.
func TestFreeCheckSpeaksTheLanguageAsked(t *testing.T) {
	e := start(t, "", withManyFreeChecks)
	english := e.get("/free/check?passport=DEU&destination=THA").json(t)
	for _, c := range locale.Embedded().List() {
		for _, how := range []struct {
			path   string
			header []string
		}{
			{"/free/check?passport=DEU&destination=THA&lang=" + c.Code, nil},
			{"/free/check?passport=DEU&destination=THA", []string{"Accept-Language", c.Tag.String() + ";q=0.9, xx;q=0.1"}},
		} {
			r := e.get(how.path, how.header...)
			if r.StatusCode != http.StatusOK {
				t.Fatalf("%s %v: status %d: %s", how.path, how.header, r.StatusCode, r.body)
			}
			m := r.json(t)
			if m["language"] != c.Code || m["requirement_label"] != entrycheck.VisaFree.LabelIn(c) ||
				m["action_text"] != entrycheck.ActionNone.SentenceIn(c, entrycheck.VisaFree, false) || m["disclaimer"] != entrycheck.Disclaimer(c) {
				t.Errorf("%s %v: language %v, label %v, action %v", how.path, how.header, m["language"], m["requirement_label"], m["action_text"])
			}
			for _, code := range []string{"requirement", "allowed_stay_days", "action", "dataset_version"} {
				if m[code] != english[code] {
					t.Errorf("%s: %s = %v, in English %v", how.path, code, m[code], english[code])
				}
			}
			if c.Code == locale.English {
				continue
			}
			// Every sentence of the answer's own is in the language, none
			// copied from the English answer.
			for _, f := range []string{"requirement_label", "action_text", "disclaimer"} {
				if m[f] == english[f] {
					t.Errorf("%s: %s is the English %q", c.Code, f, m[f])
				}
			}
			got, want := m["assumptions"].([]any), english["assumptions"].([]any)
			if len(got) != len(want) || len(m["defaults_applied"].([]any)) != len(english["defaults_applied"].([]any)) {
				t.Fatalf("%s: %d assumptions and %d defaults, in English %d and %d", c.Code, len(got), len(m["defaults_applied"].([]any)), len(want), len(english["defaults_applied"].([]any)))
			}
			for i, a := range got {
				if a == want[i] {
					t.Errorf("%s: assumption %d is the English %q", c.Code, i, a)
				}
			}
			for i, d := range m["defaults_applied"].([]any) {
				if d.(map[string]any)["reason"] == english["defaults_applied"].([]any)[i].(map[string]any)["reason"] {
					t.Errorf("%s: default %d is in English", c.Code, i)
				}
			}
		}
	}
	if v := e.get("/free/check?passport=DEU&destination=THA&lang=es").Header.Values("Vary"); !strings.Contains(strings.Join(v, ","), "Accept-Language") {
		t.Errorf("Vary %v does not name Accept-Language", v)
	}
	for _, how := range []struct {
		path   string
		header []string
	}{{"/free/check?passport=DEU&destination=THA&lang=xx", nil}, {"/free/check?passport=DEU&destination=THA", []string{"Accept-Language", "tlh, xx;q=0.5"}}} {
		m := e.get(how.path, how.header...).json(t)
		if m["language"] != locale.English || m["requirement_label"] != english["requirement_label"] {
			t.Errorf("%s %v: language %v, label %v", how.path, how.header, m["language"], m["requirement_label"])
		}
		var said bool
		for _, d := range m["defaults_applied"].([]any) {
			if d := d.(map[string]any); d["field"] == "language" && d["value"] == "en" && strings.Contains(d["reason"].(string), "English") {
				said = true
			}
		}
		if !said {
			t.Errorf("%s %v: defaults_applied does not say the answer fell back to English: %v", how.path, how.header, m["defaults_applied"])
		}
	}
}

// TestMCPCheckSpeaksTheLanguageAsked calls the check tool with the
// official Go SDK and language "hi": the answer's words are in Hindi.
func TestMCPCheckSpeaksTheLanguageAsked(t *testing.T) {
	e := start(t, "")
	cs := e.connectMCP(nil, protocolDiscover)
	args := checkArgs("DEU", "THA")
	args["language"] = "hi"
	res := callTool(t, cs, "check_entry_requirements", args)
	if res.IsError {
		t.Fatalf("tool error: %v", textOf(res))
	}
	conforms(t, e.tools(cs)["check_entry_requirements"], res)
	var r entrycheck.CheckResult
	structured(t, res, &r)
	hi, _ := locale.Embedded().Get("hi")
	if r.Language != "hi" || r.Requirement != entrycheck.VisaFree || r.RequirementLabel != entrycheck.VisaFree.LabelIn(hi) || r.ActionText != entrycheck.ActionNone.SentenceIn(hi, entrycheck.VisaFree, false) {
		t.Errorf("language %q, requirement %s, label %q, action %q", r.Language, r.Requirement, r.RequirementLabel, r.ActionText)
	}
	for _, s := range append([]string{r.RequirementLabel, r.ActionText, r.Disclaimer, r.VerdictVerification.Note, r.EntryRulesVerification.Note}, r.Assumptions...) {
		if !devanagari(s) {
			t.Errorf("not in Hindi: %q", s)
		}
	}
	mcpTextInHindi(t, hi, r, strings.Join(textOf(res), "\n"))
}

// mcpTextInHindi checks the text content of a check answered in Hindi: its
// labels are the Hindi catalog's, none of the English ones is left where
// Hindi has its own, and once every message of the answer's words is
// translated, what is not cited (the sources' texts and names, the URLs)
// is mostly Devanagari.
func mcpTextInHindi(t *testing.T, hi *locale.Catalog, r entrycheck.CheckResult, text string) {
	t.Helper()
	if h := entrycheck.EntryRulesOf(hi, hi.Country(r.Destination.ISO2, r.Destination.Name)); !strings.Contains(text, h+":") {
		t.Errorf("the text has no heading %q:\n%s", h, text)
	}
	for _, l := range []entrycheck.Label{entrycheck.LabelAction, entrycheck.LabelSource, entrycheck.LabelVerdictBasis, entrycheck.LabelAllowedStay} {
		if l.In(hi) != l.String() && strings.Contains(text, l.String()) {
			t.Errorf("the text has the English label %q", l.String())
		}
	}
	if en := locale.Embedded().English(); hi.Text("label.entry_rules_of") != en.Text("label.entry_rules_of") && strings.Contains(text, "Entry rules of") {
		t.Errorf("the text has the English heading Entry rules of")
	}
	// A message whose Hindi is the English is awaiting its translation,
	// unless it has no words of its own ("{a}, {b}").
	var pending []string
	en := locale.Embedded().English()
	words, placeholder := regexp.MustCompile(`\pL`), regexp.MustCompile(`\{\w+\}`)
	for _, id := range hi.IDs() {
		if w := hi.Text(id); w == en.Text(id) && words.MatchString(placeholder.ReplaceAllString(w, "")) {
			pending = append(pending, id)
		}
	}
	if len(pending) > 0 {
		t.Logf("%d messages of the Hindi catalog await their translation (%s, ...): the script of the text is not checked yet", len(pending), pending[0])
		return
	}
	own := regexp.MustCompile(`<?https?://\S+`).ReplaceAllString(text, "")
	for _, l := range r.RuleLines() {
		own = strings.ReplaceAll(strings.ReplaceAll(own, l.Source.Name, ""), entrycheck.TravellerText(l.Text), "")
	}
	for _, s := range r.VerdictVerification.OfficialStatements {
		own = strings.ReplaceAll(strings.ReplaceAll(own, s.Text, ""), s.Source.Name, "")
	}
	if own = strings.ReplaceAll(own, r.Source.Name, ""); !devanagari(own) {
		t.Errorf("the text is not mostly Devanagari outside what it cites:\n%s", own)
	}
}

// devanagari reports whether most letters of s are in the Devanagari
// script (names such as ETA stay in Latin letters).
func devanagari(s string) bool {
	var deva, other int
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Devanagari, r):
			deva++
		case unicode.IsLetter(r):
			other++
		}
	}
	return deva > 2*other
}

// withManyFreeChecks lets one client make the many checks of a test.
func withManyFreeChecks(c *config.Config) {
	c.Quotas.Anonymous, c.Quotas.Network = 1000, 1000
}
