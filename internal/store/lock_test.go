package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/entrycheck/entrycheck/internal/store"
)

// TestOneStorePerFile: while a store has a SQLite file open, no second
// store opens it under any name (the same path, a symlink, a hard link,
// another relative path), and a refusal leaves the first store's own SQLite
// locks in place; once the first closes, every name opens.
func TestOneStorePerFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.Mkdir("sub", 0o750); err != nil {
		t.Fatal(err)
	}
	first := open(t, "q.db")
	if err := os.Symlink(filepath.Join(dir, "q.db"), "symlink.db"); err != nil {
		t.Fatal(err)
	}
	if err := os.Link("q.db", filepath.Join("sub", "hardlink.db")); err != nil {
		t.Fatal(err)
	}
	names := []string{"q.db", "symlink.db", "sub/hardlink.db", "sub/../q.db", filepath.Join(dir, "q.db")}
	held := sqliteLocks(t, "q.db")
	if held == 0 {
		t.Fatal("SQLite holds no POSIX lock on an open database: this test cannot see them")
	}
	for _, name := range names {
		s, err := store.Open(context.Background(), name)
		if err == nil {
			s.Close()
			t.Fatalf("%s opened while q.db is open", name)
		}
		if msg := err.Error(); !strings.Contains(msg, name) || !strings.Contains(msg, "PostgreSQL") {
			t.Errorf("%s: %q, want the file named and PostgreSQL suggested", name, msg)
		}
		if got := sqliteLocks(t, "q.db"); got != held {
			t.Fatalf("after refusing %s, the first store holds %d SQLite locks, want %d", name, got, held)
		}
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		s := open(t, name)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// sqliteLocks counts the POSIX locks this process holds on the file at path
// (SQLite's; the store's own lock is a flock), or -1 where /proc/locks
// cannot be read.
func sqliteLocks(t *testing.T, path string) int {
	t.Helper()
	locks, err := os.ReadFile("/proc/locks")
	if err != nil {
		return -1
	}
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(string(locks), "\n") {
		// "1: POSIX  ADVISORY  READ 1234 fe:00:5678 1073741826 1073742335"
		f := strings.Fields(line)
		if len(f) >= 6 && f[1] == "POSIX" && f[4] == fmt.Sprint(os.Getpid()) && strings.HasSuffix(f[5], fmt.Sprintf(":%d", st.Ino)) {
			n++
		}
	}
	return n
}

// TestOneProcessPerFile: another process cannot open a SQLite file that a
// store has open, even through a symlink, and can once the store closes.
// The test binary runs itself as that other process.
func TestOneProcessPerFile(t *testing.T) {
	if path := os.Getenv("ENTRYCHECK_TEST_OPEN_STORE"); path != "" {
		s, err := store.Open(context.Background(), path)
		if err != nil {
			fmt.Print(err)
			os.Exit(3)
		}
		s.Close()
		os.Exit(0)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "q.db")
	link := filepath.Join(dir, "link.db")
	first := open(t, path)
	defer first.Close()
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	other := func() (string, int) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestOneProcessPerFile$")
		cmd.Env = append(os.Environ(), "ENTRYCHECK_TEST_OPEN_STORE="+link)
		out, err := cmd.Output()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return string(out), exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	if out, code := other(); code != 3 || !strings.Contains(out, "another entrycheck process") || !strings.Contains(out, "PostgreSQL") {
		t.Errorf("the other process opened the file: exit %d, %q", code, out)
	}
	first.Close()
	if out, code := other(); code != 0 {
		t.Errorf("after the first closed, the other process: exit %d, %q", code, out)
	}
}
