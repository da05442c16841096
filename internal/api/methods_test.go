package api_test

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestEveryOtherMethodIs405: on every path of openapi.json, each method the
// document does not declare gets 405 with an Allow header naming the
// declared ones, and HEAD where GET is (GET and HEAD on a POST endpoint
// too, which the site's catch-all route would otherwise answer), and a JSON
// error a person can act on; a HEAD gets the error's headers without its
// body.
func TestEveryOtherMethodIs405(t *testing.T) {
	e := start(t, "")
	var doc struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(apidoc.For(apidoc.SiteOf(e.cfg, datatest.Evaluator(t))), &doc); err != nil {
		t.Fatal(err)
	}
	methods := []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}
	for path, ops := range doc.Paths {
		var declared []string
		for _, m := range methods {
			if _, ok := ops[strings.ToLower(m)]; ok {
				declared = append(declared, m)
			}
		}
		// HEAD is not declared: it is served wherever GET is.
		served := slices.Clone(declared)
		if slices.Contains(declared, http.MethodGet) {
			served = append(served, http.MethodHead)
		}
		url := e.url + strings.ReplaceAll(path, "{iso3}", "DEU")
		for _, m := range methods {
			if slices.Contains(served, m) {
				continue
			}
			req, _ := http.NewRequest(m, url, nil)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			allow := strings.Split(resp.Header.Get("Allow"), ", ")
			if m == http.MethodHead {
				if resp.StatusCode != http.StatusMethodNotAllowed || len(raw) > 0 || !strings.Contains(resp.Header.Get("Content-Type"), "json") {
					t.Errorf("HEAD %s: %d, Content-Type %q, %d bytes of body", path, resp.StatusCode, resp.Header.Get("Content-Type"), len(raw))
				}
			} else {
				var body struct{ Error, Message string }
				derr := json.Unmarshal(raw, &body)
				if resp.StatusCode != http.StatusMethodNotAllowed || derr != nil || body.Error != "method_not_allowed" || !strings.Contains(body.Message, declared[0]) {
					t.Errorf("%s %s: %d %+v %v", m, path, resp.StatusCode, body, derr)
				}
			}
			for _, d := range served {
				if !slices.Contains(allow, d) {
					t.Errorf("%s %s: Allow %q lacks %s", m, path, resp.Header.Get("Allow"), d)
				}
			}
			for _, a := range allow {
				if a != http.MethodHead && a != http.MethodOptions && !slices.Contains(declared, a) {
					t.Errorf("%s %s: Allow %q names %s, which openapi.json does not declare", m, path, resp.Header.Get("Allow"), a)
				}
			}
		}
	}
}

// TestOpenAPIDeclaresTheLimitsAndSecurity: the trip request's lists carry
// the server's limits, and every operation says how it is authorised
// (security: [] for the public ones).
func TestOpenAPIDeclaresTheLimitsAndSecurity(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(apidoc.For(apidoc.SiteOf(config.Default(), datatest.Evaluator(t))), &doc); err != nil {
		t.Fatal(err)
	}
	traveler := at(doc, "components", "schemas", "TripRequest", "properties", "traveler", "properties").(map[string]any)
	for _, f := range []string{"residence_permits_of", "visas_of"} {
		if got := at(traveler, f, "maxItems"); got != float64(entrycheck.MaxHeldDocuments) {
			t.Errorf("TripRequest traveler.%s maxItems %v, the server accepts %d", f, got, entrycheck.MaxHeldDocuments)
		}
	}
	for path, ops := range doc["paths"].(map[string]any) {
		for method, op := range ops.(map[string]any) {
			if o, ok := op.(map[string]any); ok && (method == "get" || method == "post") {
				if _, ok := o["security"]; !ok {
					t.Errorf("%s %s declares no security", method, path)
				}
			}
		}
	}
}

// TestOpenAPIDocumentsTheOAuthMetadataAnswers: the OAuth metadata documents
// match their schemas (the harness validates each answer against
// openapi.json), a Range they cannot satisfy is the documented JSON 416,
// and they are served in parts and revalidated as the 416's description says.
func TestOpenAPIDocumentsTheOAuthMetadataAnswers(t *testing.T) {
	e := start(t, "")
	for _, path := range []string{"/.well-known/oauth-protected-resource", "/.well-known/oauth-authorization-server"} {
		ok := e.get(path, "Accept-Encoding", "identity")
		if ok.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", path, ok.StatusCode, ok.body)
		}
		r := e.get(path, "Range", "bytes=99999-", "Accept-Encoding", "identity")
		if r.StatusCode != http.StatusRequestedRangeNotSatisfiable || r.json(t)["error"] != "range_not_satisfiable" {
			t.Errorf("%s with an unsatisfiable Range: %d %s", path, r.StatusCode, r.body)
		}
		// 206 and 304 are not listed as responses: sent with the raw client.
		for _, c := range []struct {
			header, value string
			status        int
		}{
			{"Range", "bytes=0-4", http.StatusPartialContent},
			{"If-None-Match", ok.Header.Get("ETag"), http.StatusNotModified},
		} {
			req, _ := http.NewRequest(http.MethodGet, e.url+path, nil)
			req.Header.Set("Accept-Encoding", "identity")
			req.Header.Set(c.header, c.value)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != c.status {
				t.Errorf("%s with %s: %q: %d, want %d", path, c.header, c.value, resp.StatusCode, c.status)
			}
		}
	}
}
