package api

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/datatest"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// TestPanicIsTheDocumentedInternalError: a handler that panics behind the
// server's request id and recoverer is answered with the 500 openapi.json
// declares for the operation. No route fails so without a fault, so
// TestEveryDocumentedAnswerIsRecorded cannot record it from a server.
func TestPanicIsTheDocumentedInternalError(t *testing.T) {
	doc, err := libopenapi.NewDocument(apidoc.For(apidoc.SiteOf(config.Default(), datatest.Evaluator(t))))
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("openapi.json: %v", errs)
	}
	s := &Server{log: slog.New(slog.DiscardHandler)}
	h := s.requestID(s.recoverer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("a fault") })))
	for _, rt := range discovery.Routes {
		req := httptest.NewRequest(rt.Method, rt.Path, nil)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		resp := w.Result()
		if resp.StatusCode != http.StatusInternalServerError {
			t.Errorf("%s %s: a panic answered %d, want 500", rt.Method, rt.Path, resp.StatusCode)
		}
		if ok, errs := v.ValidateHttpResponse(req, resp); !ok {
			for _, err := range errs {
				t.Errorf("%s %s -> 500 does not match openapi.json: %s %s %v", rt.Method, rt.Path, err.Message, err.Reason, err.SchemaValidationErrors)
			}
			t.Logf("body: %s", w.Body)
		}
	}
}
