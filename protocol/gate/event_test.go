package gate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sampleLog = `{
  "schemaVersion": 1,
  "project": "Demo",
  "events": [
    {"type": "create", "time": "2026-11-29T12:00:00Z", "actor": "coord-bot", "authority": "coordinator",
     "gateId": "release-1", "workUnit": "7", "question": "Publish v1.2.3?", "choices": "SHIP|HOLD",
     "externalEffect": "publish-release", "ownerOnlyCategory": "high-blast-radius-public-release",
     "blockingScope": "merge", "evidence": "https://github.com/o/r/issues/7#issuecomment-1"},
    {"type": "hold", "time": "2026-11-29T12:01:00Z", "actor": "alice", "authority": "direct-owner", "reason": "wait for legal"},
    {"type": "resume", "time": "2026-11-29T12:02:00Z", "actor": "alice", "authority": "direct-owner", "evidence": "c-2"},
    {"type": "resolve", "time": "2026-11-29T12:03:00Z", "actor": "alice", "authority": "direct-owner",
     "gateId": "release-1", "choice": "SHIP", "evidence": "c-3"}
  ]
}`

func TestParseLog(t *testing.T) {
	log, err := ParseLog([]byte(sampleLog))
	if err != nil {
		t.Fatal(err)
	}
	if log.Project != "demo" || len(log.Events) != 4 {
		t.Fatalf("log %+v", log)
	}
	if diff := cmp.Diff(Choices{"SHIP", "HOLD"}, log.Events[0].Choices); diff != "" {
		t.Errorf("choices (-want +got):\n%s", diff)
	}
	d, _, err := Evaluate(log, Request{Action: "merge", WorkUnit: "7", ExternalEffect: "publish-release"})
	if err != nil || !d.Allowed {
		t.Errorf("decision %+v, %v", d, err)
	}
}

func TestParseLogErrors(t *testing.T) {
	for name, in := range map[string]string{
		"not json":        `{`,
		"array":           `[]`,
		"duplicate key":   `{"schemaVersion":1,"project":"p","project":"q","events":[]}`,
		"unknown field":   `{"schemaVersion":1,"project":"p","events":[],"gates":[]}`,
		"wrong version":   `{"schemaVersion":2,"project":"p","events":[]}`,
		"no project":      `{"schemaVersion":1,"events":[]}`,
		"no events":       `{"schemaVersion":1,"project":"p"}`,
		"events not list": `{"schemaVersion":1,"project":"p","events":{}}`,
	} {
		if _, err := ParseLog([]byte(in)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestParseLogMalformedEventsBlock(t *testing.T) {
	for name, ev := range map[string]string{
		"unknown field": `{"type":"resolve","time":"2026-11-29T12:00:00Z","gateId":"g","choise":"SHIP"}`,
		"no time":       `{"type":"hold","reason":"x"}`,
		"bad time":      `{"type":"hold","time":"yesterday","reason":"x"}`,
		"wrong type":    `{"type":"create","time":"2026-11-29T12:00:00Z","choices":7}`,
		"not object":    `"hold"`,
	} {
		log, err := ParseLog([]byte(`{"schemaVersion":1,"project":"p","events":[` + ev + `]}`))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d, _, _ := Evaluate(log, Request{Action: "spawn"})
		if d.Allowed || len(d.Blockers) != 1 || d.Blockers[0].Token != "gate-event-malformed:0" {
			t.Errorf("%s: decision %+v", name, d)
		}
	}
}

func FuzzParseLog(f *testing.F) {
	f.Add([]byte(sampleLog))
	f.Add([]byte(`{"schemaVersion":1,"project":"p","events":[{"type":"hold"}]}`))
	f.Fuzz(func(t *testing.T, raw []byte) {
		log, err := ParseLog(raw)
		if err != nil {
			return
		}
		for _, a := range []string{"spawn", "merge"} {
			d, st, err := Evaluate(log, Request{Action: a, WorkUnit: "7", ExternalEffect: "deploy"})
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Malformed) > 0 && d.Allowed {
				t.Fatal("a malformed event did not block")
			}
			for _, g := range st.Gates {
				if g.State == StateOpen && (g.IsHold() || g.BlockingScope == "project") && d.Allowed {
					t.Fatal("an open project gate did not block")
				}
			}
		}
	})
}
