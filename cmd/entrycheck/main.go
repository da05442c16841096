// Command entrycheck answers entry-requirement questions: may a holder of
// passport P enter country D, under which requirement and rules.
package main

import (
	"os"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/cli"
)

func main() {
	os.Exit(cli.Run(cli.Env{Stdout: os.Stdout, Stderr: os.Stderr, Clock: entrycheck.SystemClock{}}, os.Args[1:]))
}
