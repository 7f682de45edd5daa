package webhook

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPooledBodiesKeepPayloads: the edge reuses a body's memory for the
// next request once it is done with it, so what a queued delivery keeps
// must not share that memory: after many more deliveries of other bodies
// (some spooled to a file), each queued payload still decodes to what its
// own body said.
func TestPooledBodiesKeepPayloads(t *testing.T) {
	q := &memQueue{}
	e := newEdge(q)
	want := map[string]testView{}
	for i := range 200 {
		ref := fmt.Sprintf("refs/heads/b%03d", i)
		body := []byte(fmt.Sprintf(`{"ref":%q,"before":"%040d","after":"%040d","installation":{"id":%d},`+
			`"repository":{"name":"app","owner":{"login":"acme"},"default_branch":"main"},"commits":[],"pad":"%s"}`,
			ref, i, i+1, i+1, strings.Repeat("x", 1000*(i%40))))
		if i%50 == 7 {
			body = bigPush(2 << 20)
			ref = "refs/heads/feature"
		}
		id := fmt.Sprintf("pool-%d", i)
		if code := post(e, hook{event: "push", id: id, sig: sign("current", body), body: body}); code != http.StatusAccepted {
			t.Fatalf("delivery %d: status %d", i, code)
		}
		v, err := viewOf(body)
		if err != nil {
			t.Fatal(err)
		}
		v.Commits = nil
		want[id] = v
	}
	if len(q.jobs) != len(want) {
		t.Fatalf("%d jobs queued, want %d", len(q.jobs), len(want))
	}
	for _, d := range q.jobs {
		got, err := viewOf(d.Payload)
		if err != nil {
			t.Fatalf("%s: payload %q: %v", d.DeliveryID, d.Payload, err)
		}
		got.Commits = nil
		if diff := cmp.Diff(want[d.DeliveryID], got); diff != "" {
			t.Errorf("%s: payload (-its body +kept):\n%s", d.DeliveryID, diff)
		}
	}
}
