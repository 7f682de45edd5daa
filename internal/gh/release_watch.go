package gh

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// transientWatch remembers the first request of a release verification
// that failed for a passing reason: no answer (including a rate limit,
// which the installation's transport reports as an error) or a server
// error (5xx). The verification reads on through it, as it must to name
// every refusal, and the App then retries rather than reporting a failure.
type transientWatch struct {
	mu  sync.Mutex
	err error
}

// first is the first transient failure seen, or nil.
func (w *transientWatch) first() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

func (w *transientWatch) see(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err == nil {
		w.err = err
	}
}

// wrap watches every request base carries (nil: http.DefaultTransport).
func (w *transientWatch) wrap(base http.RoundTripper) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	return &watchedTransport{base: base, w: w}
}

// client is dl watched (nil: a plain client with a 60 s timeout), keeping
// its timeout and redirect policy.
func (w *transientWatch) client(dl *http.Client) *http.Client {
	if dl == nil {
		dl = &http.Client{Timeout: 60 * time.Second}
	}
	return &http.Client{Transport: w.wrap(dl.Transport), Timeout: dl.Timeout, CheckRedirect: dl.CheckRedirect, Jar: dl.Jar}
}

type watchedTransport struct {
	base http.RoundTripper
	w    *transientWatch
}

func (t *watchedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	switch {
	case err != nil && req.Context().Err() == nil:
		t.w.see(fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, err))
	case err == nil && resp.StatusCode >= 500:
		t.w.see(fmt.Errorf("%s %s: GitHub answered %s", req.Method, req.URL.Path, resp.Status))
	}
	return resp, err
}
