package cli_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/entrycheck/entrycheck/internal/cli"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// requestID is the id of an answer, which its footer names for support.
var requestID = regexp.MustCompile(`\breq_[0-9a-z_]+`)

// TestCLITextUsesNoDeniedWord runs check, passport and trip as a traveller
// does, without --json, and reads their text for the words of the deny list
// (datatest.DeniedWords): the checks of the labelled requests (held visas,
// transit) and of a citizen, a visa route with an official statement and
// a route without a value, every passport of a sample and every example
// trip. The names of the cited pages, read from the same command's --json
// answer, and the request id are quoted, not our words.
func TestCLITextUsesNoDeniedWord(t *testing.T) {
	var commands [][]string
	for _, r := range datatest.LabelledRequests() {
		args := []string{"check", r.Passport, r.Destination}
		if r.Transit != "" {
			args = append(args, "--transit", r.Transit)
		}
		if len(r.VisasOf) > 0 {
			args = append(args, "--visas-of", strings.Join(r.VisasOf, ","))
		}
		commands = append(commands, args)
	}
	commands = append(commands, []string{"check", "JPN", "JPN"}, []string{"check", "NGA", "USA"}, []string{"check", "DEU", "AUT"},
		[]string{"check", "PAK", "LBY"}, []string{"check", "IND", "FRA", "--residence-permits-of", "SCHENGEN", "--purpose", "business"})
	for _, p := range []string{"DEU", "NGA", "KIR", "USA", "IND"} {
		commands = append(commands, []string{"passport", p})
	}
	trips, err := filepath.Glob("../evaluation/testdata/trips/*.json")
	if err != nil || len(trips) < 5 {
		t.Fatalf("trips %v: %v", trips, err)
	}
	for _, f := range trips {
		if filepath.Base(f) != "invalid.json" {
			commands = append(commands, []string{"trip", f})
		}
	}
	for _, args := range commands {
		code, out, errOut := run(t, args...)
		if code != cli.ExitOK {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		_, answer, _ := run(t, append(args, "--json")...)
		var v any
		if err := json.Unmarshal([]byte(answer), &v); err != nil {
			t.Fatalf("%v --json: %v", args, err)
		}
		quoted := append(datatest.CitedNames(v), requestID.FindAllString(out, -1)...)
		for _, w := range datatest.DeniedWordsIn(out, quoted...) {
			t.Errorf("%v says %s", args, w)
		}
	}
}
