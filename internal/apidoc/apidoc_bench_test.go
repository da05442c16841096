package apidoc_test

import (
	"testing"

	"github.com/entrycheck/entrycheck/internal/apidoc"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/discovery"
)

// BenchmarkFor writes the API description as the server does once at
// start and the build once per site: what generating it, rather than
// reading a file, costs.
func BenchmarkFor(b *testing.B) {
	site := discovery.NewSite(config.Default(), discovery.Dataset{Version: "2026-02-17"})
	var size int
	for b.Loop() {
		size = len(apidoc.For(site))
	}
	b.ReportMetric(float64(size), "bytes")
}
