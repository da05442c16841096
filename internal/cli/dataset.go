package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/changes"
	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

const datasetUsage = `Usage:
  entrycheck dataset diff OLD_DIR NEW_DIR [--json]   what changed between two snapshot directories
  entrycheck dataset pin DIR --version YYYY-MM-DD --source URL [--commit C] --license L [--lock PATH]
                                                      pin a reviewed snapshot in the lock file

Both validate every row of the directories as loading does; diff needs no pin.`

// How much of a diff is printed.
const (
	diffTopDestinations = 10
	diffSample          = 10
)

func runDataset(env Env, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "diff":
			return runDatasetDiff(env, args[1:])
		case "pin":
			return runDatasetPin(env, args[1:])
		}
		if isHelp(args[0]) {
			fmt.Fprintln(env.Stdout, datasetUsage)
			return ExitOK
		}
	}
	fmt.Fprintln(env.Stderr, datasetUsage)
	return ExitUsage
}

func runDatasetDiff(env Env, args []string) int {
	fs := newFlags(env, "dataset diff", datasetUsage+"\n\nOptions:")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	pos, code, ok := positionals(fs, args, 2)
	if !ok {
		return code
	}
	reg, err := country.New()
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: country registry: %v\n", err)
		return ExitFailure
	}
	var ms [2]*dataset.Matrix
	for i, dir := range pos {
		if ms[i], err = dataset.ReadMatrix(dir, reg); err != nil {
			fmt.Fprintf(env.Stderr, "entrycheck: %s: %v\n", dir, err)
			return ExitFailure
		}
	}
	routes, err := changes.CompareMatrices(ms[0], ms[1])
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: comparing %s and %s: %v\n", pos[0], pos[1], err)
		return ExitFailure
	}
	s := changes.Summarize(routes, ms[1].Routes(), diffTopDestinations, diffSample)
	if *asJSON {
		return writeJSON(env.Stdout, s)
	}
	printDiff(env.Stdout, pos[0], pos[1], s)
	return ExitOK
}

func printDiff(w io.Writer, oldDir, newDir string, s changes.DiffSummary) {
	fmt.Fprintf(w, "%s -> %s: %s of %s routes differ\n", oldDir, newDir, entrycheck.Thousands(s.Changed), entrycheck.Thousands(s.Routes))
	if s.Changed == 0 {
		return
	}
	fmt.Fprintln(w, "\nBy requirement:")
	for _, c := range s.ByRequirement {
		fmt.Fprintf(w, "  %s: %d\n", c.Key, c.Count)
	}
	fmt.Fprintln(w, "\nDestinations most affected:")
	for _, c := range s.Destinations {
		fmt.Fprintf(w, "  %s %-32s %d\n", c.Key, c.Name, c.Count)
	}
	fmt.Fprintln(w, "\nSample:")
	for _, r := range s.Sample {
		fmt.Fprintf(w, "  %s -> %s: %s -> %s\n", r.Passport, r.Destination, r.From, r.To)
	}
}

func runDatasetPin(env Env, args []string) int {
	fs := newFlags(env, "dataset pin", datasetUsage+"\n\nOptions:")
	var p dataset.Provenance
	lockPath := fs.String("lock", dataset.DefaultLockFile, "lock `file` to add the snapshot to")
	fs.StringVar(&p.Version, "version", "", "snapshot `date`, YYYY-MM-DD (required)")
	fs.StringVar(&p.Source, "source", "", "https `URL` of the repository the snapshot was published in (required)")
	fs.StringVar(&p.Commit, "commit", "", "that repository's `commit`, when known")
	fs.StringVar(&p.License, "license", "", "the snapshot's licence, an SPDX `identifier` such as MIT (required)")
	pos, code, ok := positionals(fs, args, 1)
	if !ok {
		return code
	}
	if p.Version == "" || p.Source == "" || p.License == "" {
		fmt.Fprintln(env.Stderr, "entrycheck: dataset pin needs --version, --source and --license")
		return ExitUsage
	}
	if err := p.Check(); err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: dataset pin: %v\n", err)
		return ExitUsage
	}
	dir := pos[0]
	reg, err := country.New()
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: country registry: %v\n", err)
		return ExitFailure
	}
	pin, err := dataset.SnapshotPin(dir, p, reg)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: %s: %v\n", dir, err)
		return ExitFailure
	}
	lock, err := readLockOrEmpty(*lockPath)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: %v\n", err)
		return ExitFailure
	}
	added, err := lock.Add(pin)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: %s: %v\n", *lockPath, err)
		return ExitFailure
	}
	if !added {
		fmt.Fprintf(env.Stdout, "%s is already pinned in %s with these files\n", p.Version, *lockPath)
		return ExitOK
	}
	if err := os.WriteFile(*lockPath, lock.Format(), 0o644); err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: writing the lock file: %v\n", err)
		return ExitFailure
	}
	fmt.Fprintf(env.Stdout, "pinned %s in %s:\n  %s\n", p.Version, *lockPath, strings.Join(pin.Lines(), "\n  "))
	return ExitOK
}

// readLockOrEmpty reads a lock file; a missing one is empty, so that a
// first snapshot can be pinned into a new file.
func readLockOrEmpty(path string) (*dataset.Lock, error) {
	l, err := dataset.ReadLock(path)
	if errors.Is(err, os.ErrNotExist) {
		return &dataset.Lock{}, nil
	}
	return l, err
}
