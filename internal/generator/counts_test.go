package generator_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestCountsComeFromTheData compares every count the built site states
// about the data (the transparency page, llms.txt, the passport pages'
// marks) with the same count worked out from the matrix and the curators'
// notes, independently of the evaluation core.
func TestCountsComeFromTheData(t *testing.T) {
	root := built(t)
	day := entrycheck.DateOf(buildDay.Now()).String()
	corroborated, conflicting := datatest.StatementRoutes(t, day)
	requirements := datatest.Requirements(t, day)
	cited, notes := datatest.CitedDestinations(t)
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	number := func(page, pattern string) int {
		t.Helper()
		m := regexp.MustCompile(pattern).FindStringSubmatch(page)
		if m == nil {
			t.Fatalf("no %q in the page", pattern)
		}
		n, err := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	transparency := read("transparency/index.md")
	for _, c := range []struct {
		what    string
		pattern string
		want    int
	}{
		{"routes corroborated", `agree with the verdict of ([0-9,]+) routes`, len(corroborated)},
		{"routes in conflict", `contradict it on ([0-9,]+) routes`, len(conflicting)},
		{"destinations with cited rules", `- Destinations with cited entry rules \(extended\): ([0-9]+)`, cited},
		{"destinations curated without a cited rule", `- Destinations curated without a cited rule \(basic\): ([0-9]+)`, notes - cited},
		{"destinations not curated", `- Destinations not curated yet \(basic\): ([0-9]+)`, len(datatest.Routes(t, datatest.Current))/198 - notes},
	} {
		if got := number(transparency, c.pattern); got != c.want {
			t.Errorf("transparency: %d %s, the data gives %d", got, c.what, c.want)
		}
	}
	byRequirement := map[string]int{}
	for _, r := range requirements {
		byRequirement[r]++
	}
	for _, r := range entrycheck.Requirements {
		if got, want := number(transparency, `- `+regexp.QuoteMeta(r.Label())+`: ([0-9]+)`), byRequirement[string(r)]; got != want {
			t.Errorf("transparency: %d routes %s, the data gives %d", got, r, want)
		}
	}
	listed := regexp.MustCompile(`\]\(/passports/([a-z]{3})/([a-z]{3})/\)`).FindAllStringSubmatch(section(transparency, "### Routes where an official statement contradicts the matrix"), -1)
	seen := map[string]bool{}
	for _, m := range listed {
		seen[strings.ToUpper(m[1]+"-"+m[2])] = true
	}
	if len(seen) != len(conflicting) {
		t.Errorf("transparency lists %d conflicting routes, the data gives %d", len(seen), len(conflicting))
	}
	for route := range conflicting {
		if !seen[route] {
			t.Errorf("transparency does not list the conflict on %s", route)
		}
	}
	llms := read("llms.txt")
	if got, want := number(llms, `([0-9]+) routes;`), len(requirements); got != want {
		t.Errorf("llms.txt: %d routes, the data gives %d", got, want)
	}
	if got := number(llms, `([0-9]+) destinations with cited entry rules`); got != cited {
		t.Errorf("llms.txt: %d destinations with cited entry rules, the data gives %d", got, cited)
	}
	for _, p := range []string{"DEU", "IND", "BRA", "NIC"} {
		want := 0
		for route := range corroborated {
			if strings.HasPrefix(route, p+"-") {
				want++
			}
		}
		page := read("passports/" + strings.ToLower(p) + "/index.md")
		if got := strings.Count(page, "("+entrycheck.InSentence(entrycheck.LabelCorroborated.String())+")"); got != want {
			t.Errorf("passports/%s: %d routes marked %q, the data corroborates %d", strings.ToLower(p), got, entrycheck.LabelCorroborated.String(), want)
		}
	}
}

// section is the part of a markdown page from the heading to the next
// heading.
func section(page, heading string) string {
	i := strings.Index(page, heading)
	if i < 0 {
		return ""
	}
	rest := page[i+len(heading):]
	if j := strings.Index(rest, "\n#"); j >= 0 {
		return rest[:j]
	}
	return rest
}
