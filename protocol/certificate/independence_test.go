package certificate

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/canonical"
)

// agentWork is the independence of an agent's pull request: two pushes,
// the agent's instructed by dave in a comment, and ann's audit counted.
func agentWork() map[string]any {
	return map[string]any{
		"pushes": []any{
			map[string]any{"n": 1, "head": shaB, "author": "carol"},
			map[string]any{"n": 2, "head": shaA, "author": "copilot-swe-agent[bot]", "agent": "copilot-swe-agent[bot]",
				"instructor": map[string]any{"login": "dave", "channel": "comment"}},
		},
		"counted": []any{map[string]any{"login": "ann", "kind": "audit", "head": shaA}},
		"needed":  1,
	}
}

// TestIndependenceField: independence, when present, is well formed and
// independent on its face; a certificate without it (every certificate
// written before it existed) is unchanged.
func TestIndependenceField(t *testing.T) {
	bad := []string{"invalid:independence"}
	tests := []struct {
		name   string
		change func(w map[string]any)
		want   []string
	}{
		{"as written", func(map[string]any) {}, []string{}},
		{"two people needed, two counted", func(w map[string]any) {
			w["needed"] = 2
			w["counted"] = append(w["counted"].([]any), map[string]any{"login": "bob", "kind": "review", "head": shaA})
		}, []string{}},
		{"two people needed, one counted twice", func(w map[string]any) {
			w["needed"] = 2
			w["counted"] = append(w["counted"].([]any), map[string]any{"login": "ANN", "kind": "review", "head": shaA})
		}, bad},
		{"the instructor counted", func(w map[string]any) {
			w["counted"] = []any{map[string]any{"login": "Dave", "kind": "audit", "head": shaA}}
		}, bad},
		{"the agent counted", func(w map[string]any) {
			w["counted"] = []any{map[string]any{"login": "copilot-swe-agent[bot]", "kind": "review", "head": shaA}}
		}, bad},
		{"nobody counted", func(w map[string]any) { w["counted"] = []any{} }, bad},
		{"needed zero", func(w map[string]any) { w["needed"] = 0 }, bad},
		{"needed as text", func(w map[string]any) { w["needed"] = "1" }, bad},
		{"needed beyond any count", func(w map[string]any) { w["needed"] = json.Number("99999999999999999999") }, bad},
		{"unknown channel", func(w map[string]any) {
			push(w, 1)["instructor"] = map[string]any{"login": "dave", "channel": "telepathy"}
		}, bad},
		{"instructor without agent", func(w map[string]any) {
			push(w, 0)["instructor"] = map[string]any{"login": "dave", "channel": "comment"}
		}, bad},
		{"unknown approval kind", func(w map[string]any) {
			w["counted"] = []any{map[string]any{"login": "ann", "kind": "vibes", "head": shaA}}
		}, bad},
		{"short head", func(w map[string]any) { push(w, 0)["head"] = shaB[:7] }, bad},
		{"pushes out of order", func(w map[string]any) { push(w, 0)["n"] = 2 }, bad},
		{"no pushes", func(w map[string]any) { w["pushes"] = []any{} }, bad},
		{"blank author", func(w map[string]any) { push(w, 0)["author"] = " " }, bad},
		{"unknown push key", func(w map[string]any) { push(w, 0)["approvedBy"] = "ann" }, bad},
		{"unknown key", func(w map[string]any) { w["note"] = "trust me" }, bad},
		{"missing counted", func(w map[string]any) { delete(w, "counted") }, bad},
		{"an assigner", func(w map[string]any) {
			w["assigners"] = []any{map[string]any{"login": "erin", "agent": "copilot-swe-agent[bot]", "role": "assigned"}}
		}, []string{}},
		{"the assigner counted", func(w map[string]any) {
			w["assigners"] = []any{map[string]any{"login": "Ann", "agent": "copilot-swe-agent[bot]", "role": "assignee"}}
		}, bad},
		{"unknown assigner role", func(w map[string]any) {
			w["assigners"] = []any{map[string]any{"login": "erin", "agent": "copilot-swe-agent[bot]", "role": "cheered"}}
		}, bad},
		{"empty assigners", func(w map[string]any) { w["assigners"] = []any{} }, bad},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := baseline()
			w := agentWork()
			tt.change(w)
			m["independence"] = w
			if diff := cmp.Diff(tt.want, Validate(encode(t, m)).Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
	for _, v := range []any{"ann", nil, []any{}} {
		m := baseline()
		m["independence"] = v
		if diff := cmp.Diff(bad, Validate(encode(t, m)).Errors); diff != "" {
			t.Errorf("independence %v: errors (-want +got):\n%s", v, diff)
		}
	}
}

func push(w map[string]any, i int) map[string]any { return w["pushes"].([]any)[i].(map[string]any) }

// TestIndependenceNegativeControl: a certificate saying the agent's
// instructor approved its work is refused; with ruleIndependence removed
// it validates.
func TestIndependenceNegativeControl(t *testing.T) {
	m := baseline()
	w := agentWork()
	w["counted"] = []any{map[string]any{"login": "dave", "kind": "audit", "head": shaA}}
	m["independence"] = w
	raw := encode(t, m)
	if Validate(raw).Valid {
		t.Fatal("a certificate whose only counted approval is the instructor's validated")
	}
	if got := validate(raw, without(allRules(), ruleIndependence)); !got.Valid {
		t.Errorf("negative control: without ruleIndependence it should validate, got %v", got.Errors)
	}
}

// TestIndependenceWritten: what Certificate writes for an agent's pull
// request (golden) validates under aepgate's rules and craft's (which
// ignore the key), and reads back as written.
func TestIndependenceWritten(t *testing.T) {
	c := sample()
	c.Independence = &Independence{Needed: 1,
		Pushes: []Push{{N: 1, Head: shaB, Author: "carol"},
			{N: 2, Head: shaA, Author: "claude[bot]", Agent: "claude[bot]", Instructor: &Instruction{Login: "dave", Channel: ChannelLabel}}},
		Counted:   []Approval{{Login: "ann", Kind: ApprovalAudit, Head: shaA}},
		Assigners: []Assigner{{Login: "erin", Agent: "claude[bot]", Role: RoleAssigned}}}
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "canonical-independence.golden.json"), raw)
	v := Validate(raw)
	if !v.Valid {
		t.Fatalf("written certificate refused: %v\n%s", v.Errors, raw)
	}
	if errs := craftValidate(v.Certificate); len(errs) != 0 {
		t.Errorf("craft validate: %v", errs)
	}
	got, err := canonical.Marshal(v.Certificate["independence"])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"assigners":[{"agent":"claude[bot]","login":"erin","role":"assigned"}],"counted":[{"head":"` + shaA + `","kind":"audit","login":"ann"}],"needed":1,"pushes":[{"author":"carol","head":"` + shaB +
		`","n":1},{"agent":"claude[bot]","author":"claude[bot]","head":"` + shaA + `","instructor":{"channel":"label","login":"dave"},"n":2}]}`
	if string(got) != want {
		t.Errorf("independence as written:\n got %s\nwant %s", got, want)
	}
}
