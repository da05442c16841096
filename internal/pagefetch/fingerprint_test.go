package pagefetch_test

import (
	"regexp"
	"testing"

	"github.com/entrycheck/entrycheck/internal/pagefetch"
)

func TestFingerprintNeutralisesChurn(t *testing.T) {
	tests := []struct {
		name string
		a, b string
	}{
		{"ISO date", "Rules correct as at 2026-11-22.", "Rules correct as at 2027-01-05."},
		{"ISO timestamp", "Generated 2026-11-22T14:05:00Z", "Generated 2026-11-23T09:00:12+01:00"},
		{"slashes", "Checked 22/11/2026 by the embassy", "Checked 5/1/2027 by the embassy"},
		{"two-digit year", "Checked 22/11/26 by the embassy", "Checked 05/01/27 by the embassy"},
		{"dots", "Stand: 22.11.2026", "Stand: 1.2.2027"},
		{"year first", "Version of 2026/11/22", "Version of 2027/1/5"},
		{"day month year", "Rules reviewed 22 November 2026 by staff", "Rules reviewed 3 March 2027 by staff"},
		{"ordinal", "as at the 22nd of November 2026", "as at the 1st of March 2027"},
		{"month day year", "Printed November 22, 2026", "Printed March 3, 2027"},
		{"abbreviated", "Printed Nov 22 2026", "Printed Mar. 3 2027"},
		{"weekday", "Today is Monday, 22 November 2026", "Today is Tue 23 Nov 2026"},
		{"weekday without year", "Today is Monday 22 November", "Today is Friday 4 December"},
		{"weekday numeric", "Today is Monday, 22/11/2026", "Today is Tuesday, 23/11/2026"},
		{"time", "Queue times updated at 14:05", "Queue times updated at 9:41"},
		{"time with seconds and zone", "Refreshed at 14:05:59 UTC", "Refreshed at 02:00:01 GMT+1"},
		{"12-hour time", "Refreshed at 2:05 pm", "Refreshed at 11:59 a.m. CET"},
		{"view counter", "This page has been viewed 1,234 times", "This page has been viewed 98,765 times"},
		{"views", "1234 views", "1240 views"},
		{"visitors", "Visitors: 12", "Visitors: 15"},
		{"page views label", "Page views: 5,000", "Page views: 5,321"},
		{"copyright year", "© Crown copyright 2026", "© Crown copyright 2027"},
		{"copyright range", "Copyright © 2019–2026 Ministry of Foreign Affairs", "Copyright © 2019–2027 Ministry of Foreign Affairs"},
		{"last updated line", "Visa rules\nLast updated 3 March 2026\nPassports", "Visa rules\nPassports"},
		{"page last reviewed line", "Visa rules\nPage last reviewed: 12 January 2026 Next review due: 12 January 2029", "Visa rules"},
		{"published line", "Published 12 December 2022\nLast updated 3 March 2026 — See all updates\nRules", "Rules"},
		{"updated line", "Updated: 3 March 2026\nRules", "Rules\nUpdated: November 2026"},
		{"still current line", "Still current at: 22 November 2026\nRules", "Rules"},
		{"last modified line", "Rules\nLast modified: 2026-11-22 14:05", "Rules\nLast modified: 2027-01-05 09:41"},
		{"date of publication line", "Rules\nDate of publication: 3 March 2026", "Rules\nDate of publication: 9/5/2026"},
		{"printed on line", "Rules\nPrinted on 22/11/2026 at 14:05", "Rules"},
		{"as of line", "As of 3 March 2026\nRules", "As of 9 May 2026\nRules"},
		{"month and year stamp", "Rules\nLast reviewed: November 2026", "Rules\nLast reviewed: December 2026"},
		{"stand line", "Stand: 22.11.2026\nRules", "Rules"},
		{"date-only line", "Rules\nMonday, 22 November 2026 | 14:05 CET", "Rules\nTuesday, 23 November 2026 | 09:41 CET"},
		{"date-only line, other format", "Rules\n22 November 2026 · 14:05", "Rules\n2026-11-23"},
		{"time-only line", "Rules\n14:05", "Rules\n9:41 pm"},
		{"stamp phrase in a line", "News — updated 3 March 2026: an ETA is required", "News — updated 5 March 2026 at 09:00: an ETA is required"},
		{"generated in a line", "Page generated 22 November 2026 14:05. This page has been viewed 1,234 times.", "Page generated 2026-11-23 09:41:07 UTC. This page has been viewed 1,240 times."},
		{"case and space", "Passports  must be VALID\n\n  for six months ", "passports must be valid\nfor six months"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if fa, fb := pagefetch.Fingerprint(tt.a), pagefetch.Fingerprint(tt.b); fa != fb {
				t.Errorf("Fingerprint(%q) != Fingerprint(%q)", tt.a, tt.b)
			}
		})
	}
}

func TestFingerprintSeesContent(t *testing.T) {
	tests := []struct {
		name string
		a, b string
	}{
		{"rule", "Passports must be valid for six months.", "Passports must be valid for three months."},
		{"numbers are not dates", "Stay up to 90 days", "Stay up to 30 days"},
		{"month word is not a date", "Children under 18 may apply", "Children under 16 may apply"},
		{"versions are not dates", "See section 1.10.12", "See section 1.10.13"},
		{"stamp verb with content", "Updated: visa fee rises to 50 EUR", "Updated: visa fee rises to 60 EUR"},
		{"updated rule line", "Updated rules for work visas", "Updated rules for student visas"},
		{"line added", "Rules", "Rules\nA transit visa is required."},
		{"date in rule", "Travellers must register from 9 November 2025", "Travellers must register from 10 April 2026"},
		{"numeric date in rule", "Passports must be valid until 31/12/2026", "Passports must be valid until 30/06/2027"},
		{"ISO date in rule", "The ETA is required from 2025-04-02.", "The ETA is required from 2025-01-08."},
		{"month day year in rule", "From November 9, 2025, a visa is required.", "From April 10, 2026, a visa is required."},
		{"month and year in rule", "The EES starts in October 2025.", "The EES starts in November 2025."},
		{"weekday date in rule", "The border is closed on Monday 22 November", "The border is closed on Friday 4 December"},
		{"as of in a sentence", "As of 2 April 2025, travellers need an ETA.", "As of 8 January 2025, travellers need an ETA."},
		{"time in rule", "The border post opens at 08:00 CET", "The border post opens at 07:00 CET"},
		{"stamp word before a rule", "Updated rules apply from 1 May 2026", "Updated rules apply from 1 June 2026"},
		{"amended is not a stamp", "The law amended on 1 May 2026 requires a visa", "The law amended on 1 June 2026 requires a visa"},
		{"rule date after a stamp phrase", "News — updated 3 March 2026: register from 9 November 2025", "News — updated 3 March 2026: register from 10 April 2026"},
		{"rule date beside a stamp phrase", "Updated 3 March 2026: register from 9 November 2025", "Updated 4 March 2026: register from 10 April 2026"},
		{"visits are not counters", "A multiple-entry visa allows 2 visits per year", "A multiple-entry visa allows 3 visits per year"},
		{"visitors are not counters", "Visitors 18 and over need a visa", "Visitors 16 and over need a visa"},
		{"year without copyright", "The 2026 fee applies", "The 2027 fee applies"},
		{"line order", "a\nb", "b\na"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if pagefetch.Fingerprint(tt.a) == pagefetch.Fingerprint(tt.b) {
				t.Errorf("Fingerprint(%q) == Fingerprint(%q)", tt.a, tt.b)
			}
		})
	}
}

func TestFingerprintFormat(t *testing.T) {
	re := regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	for _, s := range []string{"", "x", "Last updated 3 March 2026"} {
		if fp := pagefetch.Fingerprint(s); !re.MatchString(fp) {
			t.Errorf("Fingerprint(%q) = %q", s, fp)
		}
	}
}
