package app

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/fixtures"
)

// sameJob checks that a job decodes from stored what it decodes from the
// whole body: parseDelivery's job and readbackTargets' targets.
func sameJob(t *testing.T, event string, body, stored []byte) {
	t.Helper()
	want, wantErr := parseDelivery(event, body, testAppID)
	got, err := parseDelivery(event, stored, testAppID)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: parseDelivery error %v from the stored payload, %v from the body", event, err, wantErr)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(witness{})); diff != "" {
		t.Errorf("%s: job from the stored payload (-body +stored):\n%s", event, diff)
	}
	if diff := cmp.Diff(readbackTargets(event, body), readbackTargets(event, stored)); diff != "" {
		t.Errorf("%s: readback targets from the stored payload (-body +stored):\n%s", event, diff)
	}
}

// TestStoredPayloadEveryFixture: every recorded GitHub payload of an event
// that starts work is stored, smaller than it came, and its job decodes
// the same from what is stored.
func TestStoredPayloadEveryFixture(t *testing.T) {
	var in, out int
	for _, w := range fixtures.Webhooks(t) {
		if !handled(w.Event) {
			continue
		}
		stored, err := storedPayload(w.Body)
		if err != nil {
			t.Errorf("%s: %v", w.Name, err)
			continue
		}
		in, out = in+len(w.Body), out+len(stored)
		sameJob(t, w.Event, w.Body, stored)
	}
	t.Logf("fixtures of handled events: %d bytes received, %d stored", in, out)
	if out >= in {
		t.Errorf("stored %d bytes of %d", out, in)
	}
}

func FuzzStoredPayload(f *testing.F) {
	f.Add([]byte(`{"action":"closed","pull_request":{"number":4,"merged":true,"body":"Work-unit: #1"},"installation":{"id":1},"repository":{"name":"a","owner":{"login":"o"},"default_branch":"main"}}`))
	f.Add([]byte(`{"action":"completed","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"a","head_branch":"main","head_commit":{"message":"x (#1)"}}}`))
	f.Add([]byte(`{"action":"created","issue":{"number":3,"pull_request":{"url":"u"},"labels":[{"name":"aepgate:control"}]},"comment":{"id":9007199254740993,"performed_via_github_app":null}}`))
	f.Add([]byte(`{"ref":"refs/heads/main","repository":{"default_branch":"main"},"commits":[{"added":[],"modified":null,"removed":[".github/aepgate.yml"]}],"Action":"x","action":"opened"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		stored, err := storedPayload(body)
		if err != nil {
			return
		}
		for _, event := range handledEvents {
			sameJob(t, event, body, stored)
		}
	})
}
