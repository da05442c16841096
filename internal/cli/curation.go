package cli

import (
	"fmt"
	"testing/fstest"

	"github.com/entrycheck/entrycheck/internal/country"
	"github.com/entrycheck/entrycheck/internal/curation"
	"github.com/entrycheck/entrycheck/internal/dataset"
)

const curationUsage = `Usage: entrycheck curation import [--from DIR] [--to DIR]

Re-imports the curators' notes into the project's curated layer; nothing is written unless the
whole imported layer loads.`

func runCuration(env Env, args []string) int {
	switch {
	case len(args) > 0 && isHelp(args[0]):
		fmt.Fprintln(env.Stdout, curationUsage)
		return ExitOK
	case len(args) == 0 || args[0] != "import":
		fmt.Fprintln(env.Stderr, curationUsage)
		return ExitUsage
	}
	fs := newFlags(env, "curation import", curationUsage+"\n\nOptions:")
	from := fs.String("from", curation.NotesDir, "the curators' format-2 notes `directory` (groups.json, destinations/, official-statements.json, statements/, yellow-fever.json)")
	to := fs.String("to", "internal/dataset/curated", "the project's curated `directory`")
	if err := fs.Parse(args[1:]); err != nil {
		return flagExit(err)
	}
	files, err := curation.Convert(*from)
	if err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: importing %s: %v\n", *from, err)
		return ExitFailure
	}
	if err := validateImport(files); err != nil {
		fmt.Fprintf(env.Stderr, "entrycheck: the imported layer is not valid, nothing was written: %v\n", err)
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

// validateImport loads the curated layer as it would be after the import
// (every file of the layer is imported), so that a
// note the loader would refuse is refused before anything is written.
func validateImport(files curation.Files) error {
	overlay := fstest.MapFS{}
	for name, b := range files {
		overlay[name] = &fstest.MapFile{Data: b}
	}
	reg, err := country.New()
	if err != nil {
		return err
	}
	_, err = dataset.LoadCurated(overlay, reg)
	return err
}
