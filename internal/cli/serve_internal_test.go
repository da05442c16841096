package cli

import (
	"bufio"
	"context"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck"
	"github.com/entrycheck/entrycheck/internal/datatest"
)

// TestServeSaysWhereItRuns: once it listens, serve prints one line for the
// person who started it, with the address and base URL it was given, and
// stops cleanly when its context ends (Ctrl-C).
func TestServeSaysWhereItRuns(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // a free port, for serve to take
	dir := t.TempDir()
	t.Setenv("ENTRYCHECK_DATA", datatest.MatrixDir(t, datatest.Current))
	t.Setenv("ENTRYCHECK_GEO", datatest.GeoDir(t))
	t.Setenv("ENTRYCHECK_IP_HASH_KEY", "the tests' key, of at least thirty-two characters")

	// The log goes to a file, which takes the server's goroutines' writes
	// as they come; stdout is read line by line as serve writes it.
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	logged := func() string { b, _ := os.ReadFile(stderr.Name()); return string(b) }
	outR, outW := io.Pipe()
	defer outW.Close()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	env := Env{Stdout: outW, Stderr: stderr, Clock: entrycheck.FixedClock(time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC))}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() {
		done <- serveUntil(ctx, env, []string{"--addr", addr, "--base-url", "http://" + addr,
			"--public", dir, "--db", filepath.Join(dir, "e.db"), "--verify-at", "off"})
	}()

	want := "entrycheck is running: open http://" + addr + "/ (Ctrl-C to stop)"
	var said []string
	for running := false; !running; {
		select {
		case line := <-lines:
			said = append(said, line)
			running = line == want
		case code := <-done:
			t.Fatalf("serve exited %d before saying it runs; stdout %q, stderr %s", code, said, logged())
		case <-time.After(time.Minute):
			t.Fatalf("no start line within a minute; stdout %q, stderr %s", said, logged())
		}
	}
	go func() { // the rest of stdout, so that serve never waits on it
		for range lines {
		}
	}()
	// The line comes once the port is taken: the server answers.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatalf("serve said it runs, but %s does not answer: %v", addr, err)
	}
	c.Close()
	cancel()
	select {
	case code := <-done:
		if code != ExitOK {
			t.Errorf("serve exited %d after Ctrl-C; stderr %s", code, logged())
		}
	case <-time.After(time.Minute):
		t.Fatal("serve still runs a minute after its context ended")
	}
}

func TestRunningLine(t *testing.T) {
	for _, c := range []struct{ listening, base, want string }{
		{"127.0.0.1:8080", "http://127.0.0.1:8080", "entrycheck is running: open http://127.0.0.1:8080/ (Ctrl-C to stop)"},
		{"127.0.0.1:9000", "http://127.0.0.1:9000/", "entrycheck is running: open http://127.0.0.1:9000/ (Ctrl-C to stop)"},
		// Behind a proxy, or --addr without its --base-url: both are named.
		{"127.0.0.1:9000", "https://entrycheck.example", "entrycheck is running on 127.0.0.1:9000 for https://entrycheck.example/ (Ctrl-C to stop)"},
	} {
		if got := runningLine(c.listening, c.base); got != c.want {
			t.Errorf("runningLine(%q, %q) = %q, want %q", c.listening, c.base, got, c.want)
		}
	}
}
