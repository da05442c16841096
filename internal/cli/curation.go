package cli

import (
	"fmt"

	"github.com/entrycheck/entrycheck/internal/curation"
)

func runCuration(env Env, args []string) int {
	if len(args) == 0 || args[0] != "import" {
		fmt.Fprintln(env.Stderr, "Usage: entrycheck curation import [--from DIR] [--to DIR]")
		return ExitUsage
	}
	fs := newFlags(env, "curation import", "")
	from := fs.String("from", "../shared/curation", "the curators' notes `directory` (destinations/*.json, yellow-fever.json)")
	to := fs.String("to", "dataset/curated", "the project's curated `directory`")
	if err := fs.Parse(args[1:]); err != nil {
		return flagExit(err)
	}
	files, err := curation.Convert(*from)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: importing %s: %v\n", *from, err)
		return ExitFailure
	}
	n, err := curation.Write(*to, files)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: writing %s: %v\n", *to, err)
		return ExitFailure
	}
	fmt.Fprintf(env.Stdout, "imported %d files from %s into %s: %d written, %d unchanged\n", len(files), *from, *to, n, len(files)-n)
	return ExitOK
}
