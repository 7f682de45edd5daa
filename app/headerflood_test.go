package app_test

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// floodConns is how many connections TestHeaderFloodMemory opens.
const floodConns = 300

// TestHeaderFloodMemory runs the whole App as a child process and opens
// 300 connections that each send 1 MB of header lines and then hold the
// connection open, and reports the child's peak resident memory, which
// must stay under 150 MB: a header section past 64 KiB is answered 431 and
// its connection closed. Its negative control serves with Go's default
// header bound (1 MB): the headers are held whole and the peak passes
// 150 MB.
//
// The peak is read once every connection has sent its headers (or was cut
// off) and the child has read every byte sent to it, while all of them are
// still held open: what is measured is what the 300 cost at once, not how
// many a loaded machine happened to overlap. The child's header read
// timeout is set past the test's waits, so that the header bound alone
// decides what a connection costs (the timeout would otherwise close the
// first connections while a slow machine still reads the last).
func TestHeaderFloodMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("memory test: starts a child process and sends 300 MB of headers; runs without -short")
	}
	if raceDetector {
		t.Skip("memory test: the race detector multiplies memory; the 150 MB bound is measured without it")
	}
	for _, tt := range []struct {
		name      string
		maxHeader int
		underCap  bool
	}{
		{"64 KiB headers", 0, true},
		{"broken: Go's default 1 MB headers", 1 << 20, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := appkit.NewWorld(t)
			c := startChildWith(t, w, childConfig{Database: "sqlite:" + filepath.Join(t.TempDir(), "a.Store()"),
				MaxHeaderBytes: tt.maxHeader, ReadHeaderTimeout: 10 * time.Minute})
			idle := procStatus(c.cmd.Process.Pid, "VmRSS")
			addr := strings.TrimPrefix(c.base, "http://")
			var sent, done sync.WaitGroup
			var cut atomic.Int32
			release := make(chan struct{})
			for i := range floodConns {
				sent.Add(1)
				done.Go(func() {
					if headerFlood(addr, i, sent.Done, release) {
						cut.Add(1)
					}
				})
			}
			sent.Wait()
			appkit.WaitFor(t, 2*time.Minute, "the child to read every header byte sent to it", func() bool { return unread(t, addr) == 0 })
			// The child's own high-water mark: its rusage Maxrss would also
			// count the parent's memory at the fork (exec keeps the old
			// address space's high-water mark).
			peak := kB(t, procStatus(c.cmd.Process.Pid, "VmHWM"))
			close(release)
			done.Wait()
			c.cmd.Process.Signal(syscall.SIGTERM)
			c.cmd.Wait()
			t.Logf("child memory: idle %s, peak %d MB with %d connections of 1 MB headers (%d cut off early)", idle, peak>>20, floodConns, cut.Load())
			if under := peak < 150<<20; under != tt.underCap {
				t.Errorf("peak resident memory %d MB; under 150 MB %v, want %v", peak>>20, under, tt.underCap)
			}
		})
	}
}

// headerFlood sends about 1 MB of header lines (less than Go's default
// bound, never ending the header section) on one connection, calls sent
// (once: when every line was written or the server cut it off), holds the
// connection until release is closed, and reports whether the server cut
// it off before.
func headerFlood(addr string, i int, sent func(), release <-chan struct{}) bool {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		sent()
		return true
	}
	defer c.Close()
	err = sendHeaderLines(c, addr, i)
	sent()
	if err != nil {
		return true
	}
	<-release
	// A server that answered 431 has closed the connection: its answer is
	// already there to read. One that holds it answers nothing.
	c.SetReadDeadline(time.Now().Add(time.Second))
	_, err = c.Read(make([]byte, 1))
	return err == nil || !isTimeout(err)
}

// sendHeaderLines writes a request line and 1,000 header lines of about
// 1 KB each on c.
func sendHeaderLines(c net.Conn, addr string, i int) error {
	line := fmt.Sprintf("X-Flood-%d: %s\r\n", i, strings.Repeat("a", 1000))
	if _, err := fmt.Fprintf(c, "POST /webhook HTTP/1.1\r\nHost: %s\r\n", addr); err != nil {
		return err
	}
	for range 1000 {
		if _, err := c.Write([]byte(line)); err != nil {
			return err
		}
	}
	return nil
}

// unread is how many bytes sent to the server listening on addr (an IPv4
// loopback address) it has not read yet, from the kernel's table of
// established connections (/proc/net/tcp): those in its connections'
// receive queues and those still in its clients' send queues. It is 0
// once the server read everything its clients wrote.
func unread(t *testing.T, addr string) int64 {
	t.Helper()
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		t.Fatal(err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	server := fmt.Sprintf(":%04X", p)
	var n int64
	s := bufio.NewScanner(f)
	for s.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue …
		fs := strings.Fields(s.Text())
		if len(fs) < 5 || fs[3] != "01" {
			continue // not an established connection
		}
		tx, rx, _ := strings.Cut(fs[4], ":")
		q := ""
		switch {
		case strings.HasSuffix(fs[1], server):
			q = rx // the server's end: what it has not read
		case strings.HasSuffix(fs[2], server):
			q = tx // a client's end: what it has not sent yet
		default:
			continue
		}
		v, err := strconv.ParseInt(q, 16, 64)
		if err != nil {
			t.Fatalf("/proc/net/tcp queue %q: %v", fs[4], err)
		}
		n += v
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}

// kB parses a /proc status size ("1234 kB") into bytes.
func kB(t *testing.T, v string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(strings.TrimSuffix(v, " kB"), 10, 64)
	if err != nil {
		t.Fatalf("size %q: %v", v, err)
	}
	return n << 10
}
