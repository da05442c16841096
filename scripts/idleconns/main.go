// Command idleconns measures a running `entrycheck serve` under idle
// keep-alive connections: it opens many connections that each make one
// request and then stay open, as a careless or hostile client does, and
// reports the server's resident memory (VmRSS of its process) and the
// latency of fresh requests on new connections, before and after.
// scripts/bench-idle.sh builds the binary, starts the server and runs it.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:18089", "`address` of the running server")
	pid := flag.Int("pid", 0, "process `id` of the server, whose VmRSS is read from /proc")
	conns := flag.Int("conns", 10000, "idle keep-alive connections to open")
	path := flag.String("path", "/healthz", "`path` each connection requests once before it idles, and fresh requests ask")
	fresh := flag.Int("fresh", 50, "fresh requests timed, each on a new connection")
	dialers := flag.Int("dialers", 200, "connections opened at once")
	settle := flag.Duration("settle", 2*time.Second, "wait after opening the connections, before measuring")
	silent := flag.Bool("silent", false, "the connections send nothing at all instead of one request")
	flag.Parse()
	if *pid == 0 {
		fmt.Fprintln(os.Stderr, "idleconns: -pid is required")
		os.Exit(2)
	}
	if err := run(*addr, *pid, *conns, *path, *fresh, *dialers, *settle, *silent); err != nil {
		fmt.Fprintln(os.Stderr, "idleconns:", err)
		os.Exit(1)
	}
}

func run(addr string, pid, n int, path string, fresh, dialers int, settle time.Duration, silent bool) error {
	if err := waitReady(addr, path); err != nil {
		return err
	}
	before, err := timeFresh(addr, path, fresh)
	if err != nil {
		return fmt.Errorf("fresh requests before: %w", err)
	}
	rss, err := memory(pid)
	if err != nil {
		return err
	}
	fmt.Printf("before:      %s; fresh %s %s\n", rss, path, before)

	start := time.Now()
	request := "GET " + path + " HTTP/1.1\r\nHost: " + addr + "\r\nUser-Agent: idleconns\r\n\r\n"
	if silent {
		request = ""
	}
	idle, failed := openIdle(addr, request, n, dialers)
	defer func() {
		for _, c := range idle {
			c.Close()
		}
	}()
	what := "made their request and idle"
	if silent {
		what = "connected and sent nothing"
	}
	fmt.Printf("opened:      %d connections %s (%d refused or closed) in %s\n",
		len(idle), what, failed, time.Since(start).Round(time.Millisecond))
	time.Sleep(settle)
	rss, err = memory(pid)
	if err != nil {
		return err
	}
	after, err := timeFresh(addr, path, fresh)
	if err != nil {
		return fmt.Errorf("fresh requests with %d idle connections: %w", len(idle), err)
	}
	fmt.Printf("with idle:   %s; fresh %s %s\n", rss, path, after)
	fmt.Printf("still open:  %d of the %d idle connections (the others were closed by the server)\n", stillOpen(idle), len(idle))
	return nil
}

// waitReady polls until the server answers.
func waitReady(addr, path string) error {
	deadline := time.Now().Add(2 * time.Minute)
	for {
		resp, err := http.Get("http://" + addr + path)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the server at %s did not answer: %w", addr, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// latencies summarises the times of fresh requests.
type latencies []time.Duration

func (l latencies) String() string {
	s := slices.Clone(l)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[int(q*float64(len(s)-1))].Round(10 * time.Microsecond) }
	return fmt.Sprintf("min %s, median %s, p95 %s, max %s (%d requests)", at(0), at(0.5), at(0.95), at(1), len(s))
}

// timeFresh times n requests, each on a new connection: what a new
// visitor waits, connection included.
func timeFresh(addr, path string, n int) (latencies, error) {
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	var out latencies
	for range n {
		start := time.Now()
		resp, err := client.Get("http://" + addr + path)
		if err != nil {
			return nil, err
		}
		_, err = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		out = append(out, time.Since(start))
	}
	return out, nil
}

// openIdle opens n connections, dialers at a time; each sends request and
// reads the answer (when request is not empty) and is kept. Connections
// the server refuses or closes before answering are counted as failed.
func openIdle(addr, request string, n, dialers int) ([]net.Conn, int) {
	var (
		mu     sync.Mutex
		conns  = make([]net.Conn, 0, n)
		failed atomic.Int64
		next   atomic.Int64
		wg     sync.WaitGroup
	)
	for range dialers {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				c, err := oneRequest(addr, request)
				if err != nil {
					failed.Add(1)
					continue
				}
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return conns, int(failed.Load())
}

func oneRequest(addr, request string) (net.Conn, error) {
	c, err := net.DialTimeout("tcp", addr, 10*time.Second)
	if err != nil || request == "" {
		return c, err
	}
	c.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(c, request); err != nil {
		c.Close()
		return nil, err
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		c.Close()
		return nil, err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil || resp.Close {
		c.Close()
		return nil, errors.Join(err, errors.New("the server closed the connection"))
	}
	c.SetDeadline(time.Time{})
	return c, nil
}

// stillOpen counts the connections the server has not closed: a read that
// times out finds the connection open, one that ends finds it closed.
func stillOpen(conns []net.Conn) int {
	open := 0
	var b [1]byte
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(time.Millisecond))
		_, err := c.Read(b[:])
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			open++
		}
	}
	return open
}

// memory reads the resident and peak resident memory of process pid.
func memory(pid int) (string, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return "", fmt.Errorf("reading the server's memory: %w", err)
	}
	var rss, hwm string
	for line := range strings.Lines(string(b)) {
		k, v, _ := strings.Cut(line, ":")
		switch k {
		case "VmRSS":
			rss = strings.TrimSpace(v)
		case "VmHWM":
			hwm = strings.TrimSpace(v)
		}
	}
	return fmt.Sprintf("VmRSS %s (%s), peak %s", rss, mib(rss), mib(hwm)), nil
}

// mib turns "123456 kB" into "120.6 MiB".
func mib(kb string) string {
	var n float64
	if _, err := fmt.Sscanf(kb, "%g kB", &n); err != nil {
		return kb
	}
	return fmt.Sprintf("%.1f MiB", n/1024)
}
