package gate

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/canonical"
)

// TestFingerprintMatchesPython pins the decision fingerprint to craft's:
// the value below is Python's
// hashlib.sha256(json.dumps(identity, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
// for the same identity (non-ASCII included, decisionKey None).
func TestFingerprintMatchesPython(t *testing.T) {
	g := Gate{Project: "demo", WorkUnit: ptr("wu-7"), Question: "  Ship é?  ", Choices: []string{"SHIP", "HOLD"},
		ExternalEffect: "publish-release", OwnerOnlyCategory: "high-blast-radius-public-release", BlockingScope: "merge", SafeDefault: "BLOCK"}
	const want = "f6e1891f643f3dd02faa7df3950deb7a1f7a434d276842074fdb68068e446a66"
	if got := Fingerprint(g); got != want {
		t.Errorf("Fingerprint = %s, want %s", got, want)
	}
}

func BenchmarkEvaluate100Events(b *testing.B) {
	var events []Event
	for i := 0; i < 25; i++ {
		id := "g" + string(rune('a'+i))
		events = append(events, create(i, id, "merge", ptr("7")), resolve(i+1, id, "SHIP"), hold(i+2, "c"), resume(i+3, AuthorityDirectOwner))
	}
	log := Log{Project: "demo", Events: events}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Evaluate(log, Request{Action: "merge", WorkUnit: "7", ExternalEffect: "publish-release"}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFingerprintEqualsTheRoundTrip: the fingerprint built without a JSON
// round trip equals canonical.Marshal of the identity struct, for strings
// that need escaping, invalid UTF-8, and absent optional fields.
func TestFingerprintEqualsTheRoundTrip(t *testing.T) {
	odd := []string{"", "plain", "quote \" back\\slash", "line\nbreak\ttab", "<&>", "é ü 日本", "\xff\xfe", "emoji 🎉", "\u2028"}
	for i, q := range odd {
		for _, wu := range []*string{nil, &odd[(i+1)%len(odd)]} {
			g := Gate{Project: "p", WorkUnit: wu, Question: q, Choices: []string{q, "b"}, ExternalEffect: "deploy",
				OwnerOnlyCategory: "explicit-hold", BlockingScope: "merge", SafeDefault: q, DecisionKey: wu}
			id := identity{Project: g.Project, WorkUnit: g.WorkUnit, Question: strings.TrimSpace(g.Question), Choices: g.Choices,
				ExternalEffect: g.ExternalEffect, OwnerOnlyCategory: g.OwnerOnlyCategory, BlockingScope: g.BlockingScope,
				SafeDefault: g.SafeDefault, DecisionKey: g.DecisionKey}
			raw, err := canonical.Marshal(id)
			if err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(raw)
			if got, want := Fingerprint(g), hex.EncodeToString(sum[:]); got != want {
				t.Errorf("question %q: fingerprint %s, round trip %s", q, got, want)
			}
		}
	}
}
