package webhook

import (
	"bytes"
	"encoding/json"
	"net/http"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
)

// TestEventShapesFitRecordedPayloads: every payload GitHub recorded fits
// its own event, and none fits another event of the table that its
// subject keys tell apart.
func TestEventShapesFitRecordedPayloads(t *testing.T) {
	for _, w := range fixtures.Webhooks(t) {
		keys := keysOf(t, w.Body)
		if ok, missing, foreign := fits(eventShapes, w.Event, keys); !ok {
			t.Errorf("%s does not fit %s: missing %q, foreign %q", w.Name, w.Event, missing, foreign)
		}
		for other := range eventShapes {
			if other == w.Event || !distinct(w.Event, other) {
				continue
			}
			if ok, _, _ := fits(eventShapes, other, keys); ok {
				t.Errorf("%s (a %s payload) fits %s too", w.Name, w.Event, other)
			}
		}
	}
}

// distinct reports whether two events' payloads can be told apart by
// their top-level keys: a label or milestone payload carries a subset of
// what an issues.labeled or issues.milestoned one does, and the create,
// delete, installation and status payloads name no subject.
func distinct(a, b string) bool {
	weak := []string{"create", "delete", "installation", "status", "label", "milestone"}
	return !slices.Contains(weak, a) && !slices.Contains(weak, b)
}

// keysOf is body's top-level keys as the decoding pass collects them.
func keysOf(t testing.TB, body []byte) []string {
	_, keys, err := decodeOnce(body, envelopeFields(), MaxDepth)
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	return keys
}

// TestWebhookWrongEvent: GitHub's signed pull_request_review payload sent
// as pull_request, and its issue_comment payload sent as issues, are
// refused 400 and not queued. Its negative control judges no shape: both
// are queued as the event their header names.
func TestWebhookWrongEvent(t *testing.T) {
	review := fixtures.Payload(t, "pull_request_review", "submitted")
	comment := fixtures.Payload(t, "issue_comment", "created")
	for _, tt := range []struct {
		name   string
		fits   func(string, []string) bool
		want   int
		queued int
	}{
		{"shapes judged", nil, http.StatusBadRequest, 0},
		{"broken: any event fits", func(string, []string) bool { return true }, http.StatusAccepted, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := &memQueue{}
			h := newEdge(q)
			h.opts.EventFits = tt.fits
			for i, k := range []hook{
				{event: "pull_request", id: "w1", sig: sign("current", review), body: review},
				{event: "issues", id: "w2", sig: sign("current", comment), body: comment},
			} {
				if got := post(h, k); got != tt.want {
					t.Errorf("delivery %d (%s): status %d, want %d", i, k.event, got, tt.want)
				}
			}
			if len(q.jobs) != tt.queued {
				t.Errorf("queued %d, want %d", len(q.jobs), tt.queued)
			}
		})
	}
	h := newEdge(&memQueue{})
	if got := post(h, hook{event: "pull_request_review", id: "w3", sig: sign("current", review), body: review}); got != http.StatusAccepted {
		t.Errorf("the review payload as its own event: %d, want 202", got)
	}
}

// FuzzTopLevelKeys: for any JSON object, the keys the decoding pass
// collects are encoding/json's top-level keys.
func FuzzTopLevelKeys(f *testing.F) {
	f.Add([]byte(`{"action":"opened","pull_request":{"a":[1,{"b":2}]},"number":1}`), uint8(3))
	f.Add([]byte(`{"pull\u005frequest":{},"x\"y":"z","":1}`), uint8(1))
	f.Add([]byte(` { "a" : "}," , "b":[",\"c\":"] }`), uint8(2))
	f.Fuzz(func(t *testing.T, body []byte, _ uint8) {
		var m map[string]json.RawMessage
		if !bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("{")) || json.Unmarshal(body, &m) != nil {
			return
		}
		want := decoderKeys(t, body)
		if len(want) > maxKeys {
			return
		}
		_, keys, err := decodeOnce(body, envelopeFields(), 10000)
		if err != nil {
			t.Fatalf("decode %q: %v", body, err)
		}
		// A key longer than maxKeyLen bytes as sent is kept as "": its
		// decoded form is at least a sixth as long.
		for i := range min(len(want), len(keys)) {
			if keys[i] == "" && len(want[i]) > maxKeyLen/6 {
				want[i] = ""
			}
		}
		if diff := cmp.Diff(want, keys); diff != "" {
			t.Fatalf("keys of %q (-decoder +pass):\n%s", body, diff)
		}
	})
}

// decoderKeys are body's top-level keys in order, as encoding/json reads
// them.
func decoderKeys(t *testing.T, body []byte) []string {
	d := json.NewDecoder(bytes.NewReader(body))
	d.Token() // {
	var keys []string
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}
