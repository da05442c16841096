package pagefetch

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

func TestWithDefaults(t *testing.T) {
	got := Config{UserAgent: "x"}.withDefaults()
	want := Config{
		UserAgent: "x", Timeout: 20 * time.Second, MaxBody: 2 << 20, Retries: 2,
		Backoff: 2 * time.Second, MaxBackoff: 30 * time.Second, HostInterval: 2 * time.Second,
		Concurrency: 8, MaxRedirects: 5,
	}
	if got != want {
		t.Errorf("withDefaults:\n%+v\nwant\n%+v", got, want)
	}
	none := Config{Retries: -1, HostInterval: -1, MaxRedirects: -1}.withDefaults()
	if none.Retries != 0 || none.HostInterval != 0 || none.MaxRedirects != 0 {
		t.Errorf("negative values should mean none: %+v", none)
	}
}

func TestProductToken(t *testing.T) {
	for ua, want := range map[string]string{
		"entrycheck-verifier/1 (+https://example.org/transparency/)": "entrycheck-verifier",
		"EntryCheck (+https://example.org/)":                         "entrycheck",
		"bot":                                                        "bot",
	} {
		if got := productToken(ua); got != want {
			t.Errorf("productToken(%q) = %q, want %q", ua, got, want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"7", 7 * time.Second, true},
		{"99999999999999", 24 * time.Hour, true},
		{"-3", 0, false},
		{"soon", 0, false},
		{"Sun, 22 Nov 2026 12:00:30 GMT", 30 * time.Second, true},
		{"Sun, 22 Nov 2026 11:00:00 GMT", 0, true},
	}
	for _, tt := range tests {
		h := http.Header{}
		if tt.value != "" {
			h.Set("Retry-After", tt.value)
		}
		got, ok := retryAfter(h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %v %v, want %v %v", tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRetryDelay(t *testing.T) {
	f := &Fetcher{cfg: Config{Backoff: 100 * time.Millisecond, MaxBackoff: time.Second}}
	for n, base := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond} {
		if d := f.retryDelay(n, nil); d < base || d > base+base/10 {
			t.Errorf("retry after attempt %d waits %v, want %v plus up to 10%%", n, d, base)
		}
	}
	if d := f.retryDelay(20, nil); d != time.Second {
		t.Errorf("retry delay %v not capped", d)
	}
	h := http.Header{"Retry-After": {"3600"}}
	if d := f.retryDelay(1, h); d != time.Second {
		t.Errorf("Retry-After of an hour gives %v, want the 1s cap", d)
	}
}

func TestOriginKey(t *testing.T) {
	for raw, want := range map[string]string{
		"https://Gov.Example/a":     "https://gov.example:443",
		"https://gov.example:443/b": "https://gov.example:443",
		"http://gov.example/c":      "http://gov.example:80",
		"http://127.0.0.1:8080/d":   "http://127.0.0.1:8080",
		"http://[::1]:9/e":          "http://[::1]:9",
	} {
		u, err := parseTarget(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := originKey(u); got != want {
			t.Errorf("originKey(%s) = %s, want %s", raw, got, want)
		}
	}
}

func TestCapText(t *testing.T) {
	if got := capText("abc\ndef", 5); got != "abc" {
		t.Errorf("cut at line: %q", got)
	}
	if got := capText("ééé", 3); got != "é" {
		t.Errorf("cut in a rune: %q", got)
	}
	if got := capText("short", 10); got != "short" {
		t.Errorf("uncut: %q", got)
	}
}

func TestNeutralize(t *testing.T) {
	tests := map[string]string{
		// Date-only lines.
		"Monday, 22 November 2026":             dateToken,
		"22nd of November 2026":                dateToken,
		"Nov. 22, 2026, 2:05 p.m. EST":         dateToken,
		"2026-11-22T14:05:00Z":                 dateToken,
		"at 14:05:59 UTC+01:00":                dateToken,
		"Monday, 22 November 2026 | 14:05 CET": dateToken,
		// Counters and copyright years.
		"Viewed 1,234 times":                    viewsToken,
		"Page views: 5,000":                     viewsToken,
		"© Crown copyright 2026. Accessibility": "© crown copyright " + yearToken + ". accessibility",
		"2 visits per year":                     "2 visits per year",
		// Stamps.
		"Last updated 3 March 2026":            "",
		"Updated: 14:05, Monday 2 March":       "",
		"Next review due: 12 January 2029":     "",
		"Today is Monday 2 March":              "",
		"Date of publication: 3 March 2026":    "",
		"As at 1 May 2026":                     "",
		"Version":                              "version",
		"Last updated 3 March 2026 — Visa fee": "last updated " + dateToken + " — visa fee",
		"Updated 3 March 2026 at 14:05: ETA":   "updated " + dateToken + ": eta",
		// Content, dates and times included.
		"Children under 18 may apply":                       "children under 18 may apply",
		"Passports valid for six months":                    "passports valid for six months",
		"  Mixed   CASE\u00a0and\tspace ":                   "mixed case and space",
		"Published in the Official Gazette":                 "published in the official gazette",
		"Register from Monday, 9 November 2025":             "register from monday, 9 november 2025",
		"Valid until 31/12/2026":                            "valid until 31/12/2026",
		"Closed on Monday, 22/11/2026":                      "closed on monday, 22/11/2026",
		"Publication":                                       "publication",
		"Opens at 08:00 CET, closes 2:05 p.m.":              "opens at 08:00 cet, closes 2:05 p.m.",
		"As of 2 April 2025, an ETA is needed":              "as of 2 april 2025, an eta is needed",
		"News — updated 3 March 2026: from 9 November 2025": "news — updated " + dateToken + ": from 9 november 2025",
	}
	for in, want := range tests {
		if got := neutralize(in); got != want {
			t.Errorf("neutralize(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckRedirectRejectsRevisit(t *testing.T) {
	f := &Fetcher{cfg: Config{MaxRedirects: 5}}
	mk := func(s string) *http.Request {
		u, _ := url.Parse(s)
		return &http.Request{URL: u}
	}
	via := []*http.Request{mk("https://gov.example/a"), mk("https://gov.example/b")}
	err := f.checkRedirect(mk("https://gov.example/a#top"), via)
	if err == nil || !strings.Contains(err.Error(), "redirect loop") {
		t.Errorf("revisit: %v", err)
	}
	if err := f.checkRedirect(mk("https://gov.example/c"), via); err != nil {
		t.Errorf("new URL: %v", err)
	}
}
