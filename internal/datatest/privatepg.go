package datatest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/entrycheck/entrycheck/internal/store"
)

// PrivatePostgres is a PostgreSQL server of one test's own, which the test
// may freeze (SIGSTOP) without stalling the other packages' tests on the
// shared server. The postmaster runs in a process group of its own.
type PrivatePostgres struct {
	// URL reaches the server over TCP as the superuser entrycheck.
	URL string
	t   *testing.T
	cmd *exec.Cmd
}

// StartPostgres initialises and starts a private PostgreSQL server, stopped
// and deleted when the test ends. Without PostgreSQL's binaries it skips
// the test, unless CI is set, where it fails it. PostgreSQL refuses to run
// as root, so under root it runs as the postgres user.
func StartPostgres(t *testing.T) *PrivatePostgres {
	t.Helper()
	bin, err := postgresBin()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must have PostgreSQL's server binaries to test a frozen database: %v", err)
		}
		t.Skipf("skipping: PostgreSQL's server binaries are not installed (%v)", err)
	}
	// Not t.TempDir: its parent is private to root, and the server may run
	// as another user.
	dir, err := os.MkdirTemp("", "entrycheck-pg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	cred, err := serverCredential(dir)
	if err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-U", "entrycheck", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
	initdb.Dir = dir // the test's directory may be closed to the postgres user
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	logFile, err := os.Create(filepath.Join(dir, "postgres.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port), "-k", dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=50")
	cmd.Dir = dir
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Pdeathsig: a test binary that dies (a panic, a timeout) takes the
	// server with it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("starting postgres: %v", err)
	}
	p := &PrivatePostgres{t: t, cmd: cmd, URL: fmt.Sprintf("postgres://entrycheck@127.0.0.1:%d/postgres?sslmode=disable", port)}
	t.Cleanup(func() {
		p.stop()
		logFile.Close()
	})
	if err := p.waitReady(30 * time.Second); err != nil {
		log, _ := os.ReadFile(logFile.Name())
		t.Fatalf("%v\n%s", err, log)
	}
	return p
}

// Freeze stops the server and its backends (SIGSTOP): connections stay
// open and nothing answers, as when the database's machine stalls. Each
// backend makes itself a process group leader (InitPostmasterChild calls
// setsid), so the postmaster is stopped first, then every child it has.
func (p *PrivatePostgres) Freeze() {
	p.t.Helper()
	if err := p.signal(syscall.SIGSTOP); err != nil {
		p.t.Fatalf("freezing postgres: %v", err)
	}
}

// Thaw resumes a frozen server.
func (p *PrivatePostgres) Thaw() {
	p.t.Helper()
	if err := p.signal(syscall.SIGCONT); err != nil {
		p.t.Fatalf("thawing postgres: %v", err)
	}
}

// signal sends sig to the postmaster's process group, then to every child
// of the postmaster.
func (p *PrivatePostgres) signal(sig syscall.Signal) error {
	pid := p.cmd.Process.Pid
	if err := syscall.Kill(-pid, sig); err != nil {
		return err
	}
	children, err := childrenOf(pid)
	if err != nil {
		return err
	}
	for _, c := range children {
		syscall.Kill(c, sig) // a child may have exited since
	}
	return nil
}

// childrenOf lists the processes whose parent is pid, from /proc.
func childrenOf(pid int) ([]int, error) {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return nil, fmt.Errorf("listing processes: /proc is needed to freeze postgres (%v)", err)
	}
	var out []int
	for _, path := range stats {
		b, err := os.ReadFile(path)
		if err != nil {
			continue // exited
		}
		// pid (comm) state ppid ...; comm may hold spaces and parentheses.
		rest := b[bytes.LastIndexByte(b, ')')+1:]
		fields := strings.Fields(string(rest))
		if len(fields) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == pid {
			child, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			out = append(out, child)
		}
	}
	return out, nil
}

// stop thaws the server (a stopped process ignores all but SIGKILL) and
// shuts it down at once, then kills what is left of its group.
func (p *PrivatePostgres) stop() {
	pgid := p.cmd.Process.Pid
	p.signal(syscall.SIGCONT)
	syscall.Kill(pgid, syscall.SIGQUIT) // immediate shutdown
	done := make(chan struct{})
	go func() {
		p.cmd.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
}

func (p *PrivatePostgres) waitReady(within time.Duration) error {
	db, err := sql.Open(store.Postgres, p.URL)
	if err != nil {
		return err
	}
	defer db.Close()
	end := time.Now().Add(within)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := db.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		if time.Now().After(end) {
			return fmt.Errorf("the private postgres did not start within %v: %w", within, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// postgresBin is the directory of the newest installed PostgreSQL's
// server binaries.
func postgresBin() (string, error) {
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres")
	if len(matches) == 0 {
		path, err := exec.LookPath("postgres")
		if err != nil {
			return "", fmt.Errorf("no /usr/lib/postgresql/*/bin/postgres nor postgres in PATH")
		}
		matches = []string{path}
	}
	newest := matches[len(matches)-1]
	if _, err := os.Stat(filepath.Join(filepath.Dir(newest), "initdb")); err != nil {
		return "", fmt.Errorf("no initdb beside %s", newest)
	}
	return filepath.Dir(newest), nil
}

// serverCredential is who runs the server: this process's user, or the
// postgres user under root, who is then given dir.
func serverCredential(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root, PostgreSQL needs the postgres user: %w", err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if err := os.Chown(dir, uid, gid); err != nil {
		return nil, fmt.Errorf("giving %s to the postgres user: %w", dir, err)
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("finding a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
