//go:build faultinject

package faultpoint

import (
	"os"
	"syscall"
)

// Reach kills the process when ENTRYCHECK_FAULT names this point.
func Reach(name string) {
	if os.Getenv("ENTRYCHECK_FAULT") == name {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {} // the signal is on its way
	}
}
