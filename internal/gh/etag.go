package gh

import (
	"bytes"
	"io"
	"net/http"
	"sync"
)

// maxETagEntries bounds the conditional-request cache of one installation.
const maxETagEntries = 2048

// etagTransport makes repeated GETs conditional (GitHub docs: Best practices
// for using the REST API, conditional requests): it remembers each 200
// answer that carried an ETag, keyed by URL (the transport belongs to one
// installation, so the key is installation + URL; GitHub's ETag folds in
// the Authorization header, so the first read after a token refresh may
// miss), sends If-None-Match, and turns a 304 — which does not count
// against the primary rate limit — back into the remembered 200.
type etagTransport struct {
	base http.RoundTripper

	mu      sync.Mutex
	entries map[string]*etagEntry
	order   []string
}

type etagEntry struct {
	etag   string
	header http.Header
	body   []byte
}

func (t *etagTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet || req.Header.Get("If-None-Match") != "" {
		return t.base.RoundTrip(req)
	}
	key := req.URL.String()
	cached := t.get(key)
	r := req
	if cached != nil {
		r = req.Clone(req.Context())
		r.Header.Set("If-None-Match", cached.etag)
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.StatusCode == http.StatusNotModified && cached != nil:
		resp.Body.Close()
		return replay(req, resp, cached), nil
	case resp.StatusCode == http.StatusOK && resp.Header.Get("ETag") != "":
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return nil, err
		}
		t.put(key, &etagEntry{etag: resp.Header.Get("ETag"), header: resp.Header.Clone(), body: body})
		resp.Body = io.NopCloser(bytes.NewReader(body))
	}
	return resp, nil
}

// replay answers from the cache, keeping the 304's fresh rate-limit headers.
func replay(req *http.Request, notModified *http.Response, e *etagEntry) *http.Response {
	h := e.header.Clone()
	for k, v := range notModified.Header {
		if len(k) > 12 && http.CanonicalHeaderKey(k)[:12] == "X-Ratelimit-" {
			h[k] = v
		}
	}
	h.Set("X-From-Cache", "1")
	return &http.Response{
		Status: "200 OK", StatusCode: http.StatusOK, Proto: notModified.Proto,
		ProtoMajor: notModified.ProtoMajor, ProtoMinor: notModified.ProtoMinor,
		Header: h, Body: io.NopCloser(bytes.NewReader(e.body)), ContentLength: int64(len(e.body)),
		Request: req,
	}
}

func (t *etagTransport) get(key string) *etagEntry {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.entries[key]
}

func (t *etagTransport) put(key string, e *etagEntry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.entries == nil {
		t.entries = map[string]*etagEntry{}
	}
	if _, ok := t.entries[key]; !ok {
		t.order = append(t.order, key)
	}
	t.entries[key] = e
	for len(t.order) > maxETagEntries {
		delete(t.entries, t.order[0])
		t.order = t.order[1:]
	}
}
