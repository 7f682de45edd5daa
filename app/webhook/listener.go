package webhook

import (
	"cmp"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// MaxHeaderBytes bounds a request's header section (Go's default is
// 1 MB): GitHub's webhook headers are a few hundred bytes, and 300
// connections of 1 MB headers must not cost 300 MB.
const MaxHeaderBytes = 64 << 10

// DefaultMaxConns bounds the connections the App holds at once; a
// quarter of them only GitHub's hook addresses may use.
const DefaultMaxConns = 1024

// ReadHeaderTimeout bounds reading a request's header section.
const ReadHeaderTimeout = 10 * time.Second

// ServerLimits replace the App's server bounds in tests; the zero value is
// the App's own.
type ServerLimits struct {
	// MaxHeaderBytes replaces MaxHeaderBytes when set; the header-flood
	// test's negative control passes Go's default.
	MaxHeaderBytes int
	// ReadHeaderTimeout replaces ReadHeaderTimeout when set: the
	// header-flood test holds its connections past it, so that the header
	// bound alone decides what they cost, however slowly a loaded machine
	// reads them.
	ReadHeaderTimeout time.Duration
}

// NewServer is the App's HTTP server for h: header and body timeouts and
// the header size bound, as l replaces them.
func NewServer(h http.Handler, l ServerLimits) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: cmp.Or(l.ReadHeaderTimeout, ReadHeaderTimeout), ReadTimeout: 60 * time.Second,
		MaxHeaderBytes: cmp.Or(l.MaxHeaderBytes, MaxHeaderBytes)}
}

// connLimit is a listener that holds at most max connections at once, of
// which connections from outside GitHub's hook ranges may hold max −
// reserved while any hook range is known. A connection over its limit is closed as soon as it is
// accepted, before anything of it is read.
type connLimit struct {
	net.Listener
	hooks         HookRanges
	max, reserved int

	mu             sync.Mutex
	total, general int
}

// LimitConns wraps ln so that it holds at most max connections at once
// (max ≤ 0: DefaultMaxConns), a quarter of them kept for GitHub's hook
// addresses while any is known (connLimit).
func LimitConns(ln net.Listener, max int, hooks HookRanges) net.Listener {
	return limitConns(ln, max, hooks)
}

func limitConns(ln net.Listener, max int, hooks HookRanges) *connLimit {
	if max <= 0 {
		max = DefaultMaxConns
	}
	return &connLimit{Listener: ln, hooks: hooks, max: max, reserved: max / 4}
}

// Accept returns the next connection within the limits.
func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		hook := l.fromHook(c)
		if l.admit(hook) {
			return &limitedConn{Conn: c, done: sync.OnceFunc(func() { l.leave(hook) })}, nil
		}
		c.Close()
	}
}

func (l *connLimit) fromHook(c net.Conn) bool {
	ap, err := netip.ParseAddrPort(c.RemoteAddr().String())
	return err == nil && l.hooks != nil && l.hooks.Contains(ap.Addr().Unmap())
}

func (l *connLimit) admit(hook bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	reserved := l.reserved
	if l.hooks == nil || !l.hooks.Known() {
		reserved = 0
	}
	if l.total >= l.max || (!hook && l.general >= l.max-reserved) {
		return false
	}
	l.total++
	if !hook {
		l.general++
	}
	return true
}

func (l *connLimit) leave(hook bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.total--
	if !hook {
		l.general--
	}
}

// limitedConn gives its place back once when closed.
type limitedConn struct {
	net.Conn
	done func()
}

func (c *limitedConn) Close() error {
	err := c.Conn.Close()
	c.done()
	return err
}
