package webhook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// How FuzzWebhookBody frames a body on the wire.
const (
	framedLength    = iota // Content-Length, whole body
	framedChunked          // chunked, whole body
	framedTruncated        // Content-Length, half the body, then EOF
	framedCutChunks        // chunked, half the body, no last chunk, then EOF
	framings
)

// rawPost sends body framed as asked over a fresh connection, in pieces of
// piece bytes, and returns the status (0 when there was no answer).
func rawPost(t *testing.T, addr, id string, body []byte, framing, piece int) int {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	w := bufio.NewWriter(c)
	fmt.Fprintf(w, "POST /webhook HTTP/1.1\r\nHost: x\r\nX-GitHub-Event: fuzz_event\r\nX-GitHub-Delivery: %s\r\nX-Hub-Signature-256: %s\r\n", id, sign("current", body))
	sent := body
	if framing == framedTruncated || framing == framedCutChunks {
		sent = body[:len(body)/2]
	}
	chunked := framing == framedChunked || framing == framedCutChunks
	if chunked {
		fmt.Fprint(w, "Transfer-Encoding: chunked\r\n\r\n")
	} else {
		fmt.Fprintf(w, "Content-Length: %d\r\n\r\n", len(body))
	}
	for p := range slicesChunk(sent, piece) {
		if chunked {
			fmt.Fprintf(w, "%x\r\n%s\r\n", len(p), p)
		} else {
			w.Write(p)
		}
	}
	if framing == framedChunked {
		fmt.Fprint(w, "0\r\n\r\n")
	}
	w.Flush()
	if framing == framedTruncated || framing == framedCutChunks {
		c.(*net.TCPConn).CloseWrite()
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func slicesChunk(b []byte, n int) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for len(b) > 0 {
			k := min(n, len(b))
			if !yield(b[:k]) {
				return
			}
			b = b[k:]
		}
	}
}

// depthOf is the nesting depth of valid JSON, walked token by token.
func depthOf(b []byte) int {
	d := json.NewDecoder(bytes.NewReader(b))
	depth, deepest := 0, 0
	for {
		tok, err := d.Token()
		if err != nil {
			return deepest
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			deepest = max(deepest, depth)
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

// FuzzWebhookBody sends signed bodies to a real server, framed with a
// declared length or chunked, whole or truncated, in pieces of any size,
// after any amount of whitespace and inside any nesting, as an event the
// shape table does not judge (FuzzTopLevelKeys covers that). A whole body is
// queued exactly when it is a JSON object within MaxDepth whose fields
// have the types of the test's view, and then with a payload from which
// the view decodes what it decodes from the body (the server spools past
// 64 bytes); a truncated body never
// is; nothing is answered 5xx.
func FuzzWebhookBody(f *testing.F) {
	f.Add([]byte(`{"ref":"refs/heads/x","commits":[]}`), uint8(framedLength), uint8(0), uint16(0), uint8(7))
	f.Add([]byte(`{"a":"}\"{"}`), uint8(framedChunked), uint8(80), uint16(3), uint8(1))
	f.Add([]byte(`{"pad":"`+strings.Repeat("x", 200)+`"}`), uint8(framedTruncated), uint8(0), uint16(0), uint8(64))
	f.Add([]byte(`[1,2]`), uint8(framedCutChunks), uint8(2), uint16(1), uint8(5))
	f.Add([]byte(`{}`), uint8(framedLength), uint8(0), uint16(MaxDepth), uint8(255))
	q := &memQueue{}
	h := newEdge(q)
	h.opts.SpoolAt = 64
	srv := httptest.NewServer(h)
	f.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()
	var seq atomic.Int64
	f.Fuzz(func(t *testing.T, inner []byte, framing, lead uint8, nest uint16, piece uint8) {
		nest %= 2 * MaxDepth
		body := []byte(strings.Repeat(" \n", int(lead)) + strings.Repeat(`{"n":`, int(nest)) + string(inner) + strings.Repeat("}", int(nest)))
		id := fmt.Sprintf("f-%d", seq.Add(1))
		code := rawPost(t, addr, id, body, int(framing%framings), max(int(piece), 1))
		if code >= 500 {
			t.Fatalf("answered %d", code)
		}
		q.mu.Lock()
		defer q.mu.Unlock()
		queued := len(q.jobs) > 0 && q.jobs[len(q.jobs)-1].DeliveryID == id
		if framing%framings >= framedTruncated {
			if queued || code == http.StatusAccepted {
				t.Fatalf("truncated body answered %d (queued %v)", code, queued)
			}
			return
		}
		view, err := viewOf(body)
		object := json.Valid(body) && bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("{"))
		want := object && err == nil && depthOf(body) <= MaxDepth
		if queued != want || (code == http.StatusAccepted) != want {
			t.Fatalf("answered %d, queued %v; want queued %v (object %v, depth %d, view error %v)", code, queued, want, object, depthOf(body), err)
		}
		if !queued {
			return
		}
		stored := q.jobs[len(q.jobs)-1].Payload
		if got, err := viewOf(stored); err != nil || !cmp.Equal(got, view) {
			t.Fatalf("view from the stored %s: %+v, %v; from the body: %+v", stored, got, err, view)
		}
	})
}
