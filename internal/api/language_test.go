package api_test

import (
	"net/http"
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
