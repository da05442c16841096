// Package cli holds the subcommands of the entrycheck binary, one file per
// command. Each command parses its own flags, loads what it needs and
// returns an exit code.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/config"
	"github.com/entrycheck/entrycheck/internal/dataset"
	"github.com/entrycheck/entrycheck/internal/discovery"
	"github.com/entrycheck/entrycheck/internal/locale"
)

// Exit codes.
const (
	ExitOK      = 0
	ExitFailure = 1 // the command failed (bad dataset, I/O)
	ExitUsage   = 2 // the command line or the request was invalid
)

// Env is what a command runs with.
type Env struct {
	Stdout, Stderr io.Writer
	Clock          entrycheck.Clock
}

type command struct {
	name, summary string
	run           func(env Env, args []string) int
	// subcommands are the words that may follow the command's name to
	// select what it does ("dataset diff"); each answers -h on its own.
	subcommands []string
}

// isHelp reports whether an argument asks for the usage.
func isHelp(arg string) bool {
	return arg == "-h" || arg == "--help" || arg == "-help" || arg == "help"
}

func commands() []command {
	return []command{
		{"check", "check one passport and destination", runCheck, nil},
		{"passport", "list a passport's requirement for every destination", runPassport, nil},
		{"trip", "evaluate a whole itinerary from a JSON file", runTrip, nil},
		{"build", "generate the static site into public/", runBuild, nil},
		{"serve", "serve the API and the generated site", runServe, nil},
		{"curation", "import the curators' source notes into internal/dataset/curated", runCuration, []string{"import"}},
		{"verify", "re-read every cited source now and record what changed", runVerify, nil},
		{"review", "list the records flagged for review; accept or reject one", runReview, []string{"list", "accept", "reject"}},
		{"dataset", "diff two matrix snapshots; pin a reviewed one in the lock file", runDataset, []string{"diff", "pin"}},
	}
}

// Run runs the subcommand named by args[0].
func Run(env Env, args []string) int {
	if len(args) == 0 || isHelp(args[0]) {
		usage(env.Stdout)
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(env, args[1:])
		}
	}
	fmt.Fprintf(env.Stderr, "entrycheck: unknown command %q\n\n", args[0])
	usage(env.Stderr)
	return ExitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: entrycheck <command> [arguments]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'entrycheck <command> -h' for a command's options.")
}

// newFlags is the flag set of a command, writing to stderr; usage, when
// given, heads the list of options in -h and in usage errors.
func newFlags(env Env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	if usage != "" {
		fs.Usage = func() {
			fmt.Fprintln(fs.Output(), usage)
			fs.PrintDefaults()
		}
	}
	return fs
}

// configured finishes a command's configuration after its flags were
// parsed (parseErr is the parser's error): it reports a bad flag or setting
// and returns the exit code and whether the command may go on (not after
// -h, which printed the usage).
func configured(env Env, cfg *config.Config, parseErr error) (code int, ok bool) {
	if parseErr != nil {
		// -h printed the usage: that is the whole command.
		return flagExit(parseErr), false
	}
	if err := cfg.Load(); err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: %v\n", err)
		return ExitUsage, false
	}
	if unknown := discovery.UnknownPrices(cfg.Prices); len(unknown) > 0 {
		var wrong, known []string
		for _, name := range unknown {
			wrong = append(wrong, config.PriceEnv(name))
		}
		for _, p := range discovery.PricesOf(nil) {
			known = append(known, config.PriceEnv(p.Name))
		}
		fmt.Fprintf(env.Stderr, "entrycheck: %s: no paid route has this price; the prices are %s\n", strings.Join(wrong, ", "), strings.Join(known, ", "))
		return ExitUsage, false
	}
	return ExitOK, true
}

// parseInterleaved parses flags that may stand before, between or after the
// positional arguments, as in "check DEU THA --json".
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return positional, nil
		}
		positional = append(positional, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// positionals parses flags that may stand among exactly n positional
// arguments. ok is false when the command must stop: after -h, which
// printed the usage (code ExitOK), or on a bad command line, which is
// reported with the usage (code ExitUsage). The code alone cannot say
// whether to go on, since -h also exits with ExitOK.
func positionals(fs *flag.FlagSet, args []string, n int) (pos []string, code int, ok bool) {
	pos, err := parseInterleaved(fs, args)
	if err != nil {
		return nil, flagExit(err), false
	}
	if len(pos) != n {
		fmt.Fprintf(fs.Output(), "entrycheck %s: expected %s, got %d\n\n", fs.Name(), entrycheck.Plural(n, "argument"), len(pos))
		fs.Usage()
		return nil, ExitUsage, false
	}
	return pos, ExitOK, true
}

// loadSnapshot loads the snapshot named by the configuration, once the
// message catalogs it is worded with are known to be complete: a catalog
// that lacks a message stops every command that answers, the build among
// them, naming the language and the message.
func loadSnapshot(cfg config.Config) (*dataset.Snapshot, error) {
	if _, err := locale.Load(); err != nil {
		return nil, fmt.Errorf("the message catalogs (internal/locale/catalogs): %w", err)
	}
	lock, err := dataset.LockAt(cfg.DataLock)
	if err != nil {
		return nil, fmt.Errorf("%w\n(the lock file is read from --data-lock or ENTRYCHECK_DATA_LOCK; default: the one built in)", err)
	}
	snap, err := dataset.Load(cfg.MatrixDir, lock, dataset.CuratedFS())
	if err != nil {
		return nil, fmt.Errorf("%w\n(the matrix is read from --data or ENTRYCHECK_DATA; default %s)", err, config.DefaultMatrixDir)
	}
	return snap, nil
}

// reportError prints an evaluation error and returns the exit code for it.
func reportError(w io.Writer, err error) int {
	var e *entrycheck.Error
	if !errors.As(err, &e) {
		fmt.Fprintf(w, "entrycheck: %v\n", err)
		return ExitFailure
	}
	fmt.Fprintf(w, "entrycheck: %s\n", e.Message)
	for _, p := range e.Problems {
		fmt.Fprintf(w, "  %s: %s\n", p.Field, p.Message)
	}
	if e.Code == entrycheck.EINVALID {
		return ExitUsage
	}
	return ExitFailure
}

// splitCodes splits a comma-separated list, trimming spaces; "" gives nil.
