package webhook

import (
	"net"
	"net/netip"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestConnLimitReservesHookShare: with room for 8 connections, eight
// senders outside GitHub's hook ranges get 6 and the others are closed at
// once, and a connection from a hook address is then still accepted. Its
// negative control knows no hook ranges: the eight take every place and
// GitHub's connection is closed.
func TestConnLimitReservesHookShare(t *testing.T) {
	for _, tt := range []struct {
		name  string
		hooks HookRanges
		want  int // connections accepted
		hook  bool
	}{
		{"reserved", prefixHooks{netip.MustParsePrefix("127.0.0.3/32")}, 7, true},
		{"broken: no hook ranges", nil, 8, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			l := limitConns(ln, 8, tt.hooks)
			defer l.Close()
			accepted := make(chan net.Conn, 16)
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						return
					}
					accepted <- c
				}
			}()
			for i, from := range []string{"127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.2", "127.0.0.3"} {
				d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
				c, err := d.Dial("tcp", ln.Addr().String())
				if err != nil {
					t.Fatalf("dial %d: %v", i, err)
				}
				defer c.Close()
			}
			got := drain(accepted, 500*time.Millisecond)
			defer closeAll(got)
			if len(got) != tt.want {
				t.Fatalf("accepted %d connections, want %d", len(got), tt.want)
			}
			hook := slices.ContainsFunc(got, func(c net.Conn) bool { return strings.HasPrefix(c.RemoteAddr().String(), "127.0.0.3:") })
			if hook != tt.hook {
				t.Errorf("GitHub's connection accepted %v, want %v", hook, tt.hook)
			}
			// A connection that closes gives its place back.
			got[slices.IndexFunc(got, func(c net.Conn) bool { return strings.HasPrefix(c.RemoteAddr().String(), "127.0.0.2:") })].Close()
			time.Sleep(50 * time.Millisecond) // the dialled spare ones are closed
			c, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if more := drain(accepted, 500*time.Millisecond); len(more) != 1 {
				t.Errorf("after a close, accepted %d more, want 1", len(more))
			} else {
				more[0].Close()
			}
		})
	}
}

// drain collects the connections accepted within d.
func drain(accepted chan net.Conn, d time.Duration) []net.Conn {
	var got []net.Conn
	for done := time.After(d); ; {
		select {
		case c := <-accepted:
			got = append(got, c)
		case <-done:
			return got
		}
	}
}

func closeAll(cs []net.Conn) {
	for _, c := range cs {
		c.Close()
	}
}
