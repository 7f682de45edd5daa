package queue

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDeliveryArgs: a Delivery's payload is written as one JSON string
// and read back as it was; args written with the payload as an object (as
// jobs queued by earlier versions were) read back the same.
func TestDeliveryArgs(t *testing.T) {
	for _, tc := range []struct {
		name, payload, args string
	}{
		{"object", `{"action":"opened","pull_request":{"number":2,"body":"a \"quoted\" é <b>"}}`,
			`{"delivery_id":"d","event":"pull_request","payload":"{\"action\":\"opened\",\"pull_request\":{\"number\":2,\"body\":\"a \\\"quoted\\\" é \u003cb\u003e\"}}"}`},
		{"empty object", `{}`, `{"delivery_id":"d","event":"pull_request","payload":"{}"}`},
		{"invalid UTF-8 replaced", "{\"t\":\"a\xffb\"}", `{"delivery_id":"d","event":"pull_request","payload":"{\"t\":\"a\ufffdb\"}"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(Delivery{DeliveryID: "d", Event: "pull_request", Payload: Payload(tc.payload)})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.args, string(got)); diff != "" {
				t.Errorf("args (-want +got):\n%s", diff)
			}
			var back Delivery
			if err := json.Unmarshal(got, &back); err != nil {
				t.Fatal(err)
			}
			var want any
			if err := json.Unmarshal([]byte(tc.payload), &want); err != nil {
				t.Fatal(err)
			}
			var have any
			if err := json.Unmarshal(back.Payload, &have); err != nil {
				t.Fatalf("payload read back %q: %v", back.Payload, err)
			}
			if diff := cmp.Diff(want, have); diff != "" {
				t.Errorf("payload read back (-want +got):\n%s", diff)
			}
		})
	}
	t.Run("queued by an earlier version", func(t *testing.T) {
		old := `{"delivery_id":"d","event":"issues","payload":{"action":"opened","issue":{"number":3}}}`
		var d Delivery
		if err := json.Unmarshal([]byte(old), &d); err != nil {
			t.Fatal(err)
		}
		want := Delivery{DeliveryID: "d", Event: "issues", Payload: Payload(`{"action":"opened","issue":{"number":3}}`)}
		if diff := cmp.Diff(want, d); diff != "" {
			t.Errorf("(-want +got):\n%s", diff)
		}
	})
}

// FuzzPayload: whatever JSON value a payload holds, it reads back from
// its args as the same value.
func FuzzPayload(f *testing.F) {
	f.Add([]byte(`{"action":"opened","n":[1,2.5,null,true],"s":"\u2028 \\ \" <>&"}`))
	f.Add([]byte(`"a string"`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want any
		if json.Unmarshal(raw, &want) != nil {
			return
		}
		args, err := json.Marshal(Delivery{Payload: Payload(raw)})
		if err != nil {
			t.Fatal(err)
		}
		var back Delivery
		if err := json.Unmarshal(args, &back); err != nil {
			t.Fatal(err)
		}
		var have any
		if err := json.Unmarshal(back.Payload, &have); err != nil {
			t.Fatalf("payload %q read back as %q: %v", raw, back.Payload, err)
		}
		if diff := cmp.Diff(want, have); diff != "" {
			t.Errorf("payload %q (-want +got):\n%s", raw, diff)
		}
	})
}
