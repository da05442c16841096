package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockDatabase takes an exclusive lock on the SQLite database file itself,
// held while the returned file stays open, so that two processes never count
// quotas in one file (each would decide alone). A flock belongs to the file,
// not to a name, so every way of reaching it (a symlink, a hard link,
// another relative path) meets the same lock. It does not touch SQLite's own
// locks, which are POSIX record locks: on Linux the two kinds are separate.
// Several instances share a PostgreSQL database instead.
func lockDatabase(path string) (*os.File, error) {
	// Closing any descriptor of a file drops every POSIX lock this process
	// holds on it, so a refusal must not open and close a file that a store
	// of this process is using: SQLite would silently lose its locks.
	if openHere(path) {
		return nil, fmt.Errorf("the SQLite database %s is already open in this process: a SQLite file belongs to one store; run several instances on PostgreSQL instead", path)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the SQLite database %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("the SQLite database %s is in use by another entrycheck process (it is locked): a SQLite file belongs to one process; run several instances on PostgreSQL instead", path)
		}
		return nil, fmt.Errorf("locking the SQLite database %s: %w", path, err)
	}
	return f, nil
}

// openHere reports whether this process has a descriptor of the file at
// path, under any name. Where the descriptors cannot be listed (no /dev/fd),
// it reports false and only the lock protects the file.
func openHere(path string) bool {
	target, err := os.Stat(path)
	if err != nil {
		return false // nothing there yet, so nothing of it is open
	}
	fds, err := os.ReadDir("/dev/fd")
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if fi, err := os.Stat("/dev/fd/" + fd.Name()); err == nil && os.SameFile(fi, target) {
			return true
		}
	}
	return false
}
