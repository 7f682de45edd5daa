package gate

import "testing"

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
