// Package config holds the service's settings: one documented option per
// setting, its default, and the environment variable that overrides it.
// Flags override the environment, which overrides the defaults.
package config

import (
	"flag"
	"os"

	"github.com/entrycheck/entrycheck/dataset"
)

// Config is the whole configuration of a command.
type Config struct {
	// MatrixDir is the directory of the matrix snapshot to serve
	// (flag --data, environment ENTRYCHECK_DATA).
	MatrixDir string
}

// Default returns the defaults with the environment applied.
func Default() Config {
	c := Config{MatrixDir: dataset.DefaultMatrixDir}
	if v := os.Getenv("ENTRYCHECK_DATA"); v != "" {
		c.MatrixDir = v
	}
	return c
}

// RegisterData adds the --data flag to fs.
func (c *Config) RegisterData(fs *flag.FlagSet) {
	fs.StringVar(&c.MatrixDir, "data", c.MatrixDir, "matrix snapshot `directory` (env ENTRYCHECK_DATA)")
}
