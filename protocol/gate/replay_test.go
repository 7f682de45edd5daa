package gate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// last returns the outcome of the event at index i.
func outcome(st State, i int) Outcome {
	for _, o := range st.Outcomes {
		if o.Index == i {
			return o
		}
	}
	return Outcome{}
}

func TestReplayOutcomes(t *testing.T) {
	noCategory := create(1, "g1", "merge", nil)
	noCategory.OwnerOnlyCategory = ""
	localRepair := create(1, "g1", "merge", nil)
	localRepair.ExternalEffect = "local-repair"
	money := create(1, "g1", "merge", nil)
	money.ExternalEffect = "because-money"
	noChoices := create(1, "g1", "merge", nil)
	noChoices.Choices = Choices{" ", ""}
	reserved := create(1, "project-hold-x", "merge", nil)
	otherContent := create(2, "g1", "close", nil)
	otherContent.Question = "Something else?"
	sameDecision := create(3, "g2", "merge", ptr("7"))
	key := "release:v1"
	keyed := create(1, "g1", "merge", ptr("7"))
	keyed.DecisionKey = &key
	keyedAgain := keyed
	keyedAgain.GateID, keyedAgain.Time = "g9", at(5)
	noEvidence := resolve(2, "g1", "SHIP")
	noEvidence.Evidence = ""
	tests := []struct {
		name   string
		events []Event
		want   Outcome // of the last event
	}{
		{"create without category", []Event{noCategory}, Outcome{Index: 0, Type: "create", GateID: "g1", Result: "refused", Token: "owner-only-category-required"}},
		{"local-repair is not an external effect", []Event{localRepair}, Outcome{Index: 0, Type: "create", GateID: "g1", Result: "refused", Token: "not-an-external-effect"}},
		{"unknown effect needs no gate", []Event{money}, Outcome{Index: 0, Type: "create", GateID: "g1", Result: "refused", Token: "external-effect-invalid"}},
		{"no choices", []Event{noChoices}, Outcome{Index: 0, Type: "create", GateID: "g1", Result: "refused", Token: "choices-required"}},
		{"hold ids reserved", []Event{reserved}, Outcome{Index: 0, Type: "create", GateID: "project-hold-x", Result: "refused", Token: "gate-id-reserved"}},
		{"existing id returned unchanged", []Event{create(1, "g1", "merge", nil), otherContent}, Outcome{Index: 1, Type: "create", GateID: "g1", Result: "idempotent"}},
		{"same decision reused while open", []Event{create(1, "g1", "merge", ptr("7")), sameDecision}, Outcome{Index: 1, Type: "create", GateID: "g1", Result: "reused-decision"}},
		{"same decision key reused after resolution", []Event{keyed, resolve(2, "g1", "SHIP"), keyedAgain}, Outcome{Index: 2, Type: "create", GateID: "g1", Result: "reused-decision"}},
		{"second HOLD while open", []Event{hold(1, "c"), hold(2, "d")}, Outcome{Index: 1, Type: "hold", GateID: HoldID, Result: "idempotent"}},
		{"HOLD without reason", []Event{{Type: EventHold, Time: at(1)}}, Outcome{Index: 0, Type: "hold", GateID: HoldID, Result: "refused", Token: "hold-reason-required"}},
		{"resolve missing gate", []Event{resolve(1, "nope", "SHIP")}, Outcome{Index: 0, Type: "resolve", GateID: "nope", Result: "refused", Token: "gate-missing"}},
		{"choice not listed", []Event{create(1, "g1", "merge", nil), resolve(2, "g1", "ship")}, Outcome{Index: 1, Type: "resolve", GateID: "g1", Result: "refused", Token: "choice-not-listed"}},
		{"resolve without evidence", []Event{create(1, "g1", "merge", nil), noEvidence}, Outcome{Index: 1, Type: "resolve", GateID: "g1", Result: "refused", Token: "authority-evidence-required"}},
		{"re-resolve same choice", []Event{create(1, "g1", "merge", nil), resolve(2, "g1", "SHIP"), resolve(3, "g1", "SHIP")}, Outcome{Index: 2, Type: "resolve", GateID: "g1", Result: "idempotent"}},
		{"re-resolve other choice", []Event{create(1, "g1", "merge", nil), resolve(2, "g1", "SHIP"), resolve(3, "g1", "HOLD")}, Outcome{Index: 2, Type: "resolve", GateID: "g1", Result: "refused", Token: "gate-already-resolved"}},
		{"resume without HOLD", []Event{resume(1, AuthorityDirectOwner)}, Outcome{Index: 0, Type: "resume", Result: "refused", Token: "no-open-hold"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := Replay(Log{Project: "demo", Events: tt.events})
			got := outcome(st, len(tt.events)-1)
			got.Message = ""
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestRefusalMessages(t *testing.T) {
	localRepair := create(1, "g1", "merge", nil)
	localRepair.ExternalEffect = "local-repair"
	money := create(1, "g1", "merge", nil)
	money.ExternalEffect = "because-money"
	for e, want := range map[*Event]string{&localRepair: "not an external effect: do it on your own authority", &money: "you do not need a gate"} {
		st := Replay(Log{Project: "demo", Events: []Event{*e}})
		if !strings.Contains(st.Outcomes[0].Message, want) {
			t.Errorf("message %q lacks %q", st.Outcomes[0].Message, want)
		}
	}
}

func TestCreateStoresGate(t *testing.T) {
	e := create(1, " Release #1 ", "merge", ptr("wu 7"))
	e.Choices = SplitChoices("SHIP,HOLD|SHIP")
	st := Replay(Log{Project: "demo", Events: []Event{e}})
	if len(st.Gates) != 1 {
		t.Fatalf("gates: %+v", st.Outcomes)
	}
	g := st.Gates[0]
	if g.GateID != "Release-1" || *g.WorkUnit != "wu-7" || g.ExternalEffect != "publish-release" || g.SafeDefault != "BLOCK" || g.State != StateOpen {
		t.Errorf("gate %+v", g)
	}
	if diff := cmp.Diff([]string{"SHIP", "HOLD"}, g.Choices); diff != "" {
		t.Errorf("choices (-want +got):\n%s", diff)
	}
	if g.DecisionFingerprint != Fingerprint(g) || len(g.DecisionFingerprint) != 64 {
		t.Errorf("fingerprint %q", g.DecisionFingerprint)
	}
}

func TestHoldGateShape(t *testing.T) {
	st := Replay(Log{Project: "demo", Events: []Event{hold(1, "c")}})
	g := st.Gates[0]
	want := Gate{SchemaVersion: 1, Project: "demo", GateID: HoldID, Question: "Project HOLD: owner asked to stop",
		Choices: []string{"RESUME"}, DecisionKey: ptr("hold:" + ms(at(1))), ExternalEffect: "product-direction-decision",
		OwnerOnlyCategory: "explicit-hold", BlockingScope: "project", SafeDefault: "HOLD", State: StateOpen,
		CreatedAt: at(1).UnixMilli(), CreatedBy: "c"}
	want.DecisionFingerprint = Fingerprint(want)
	if diff := cmp.Diff(want, g); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestChoices(t *testing.T) {
	tests := []struct{ in, want []string }{
		{[]string{"a|b|c"}, []string{"a", "b", "c"}},
		{[]string{"SHIP,HOLD|SHIP"}, []string{"SHIP", "HOLD"}},
		{[]string{" a , ,b,"}, []string{"a", "b"}},
		{[]string{""}, []string{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, SplitChoices(tt.in[0])); diff != "" {
			t.Errorf("SplitChoices(%q) (-want +got):\n%s", tt.in[0], diff)
		}
	}
}

func TestCleanID(t *testing.T) {
	for in, want := range map[string]string{"a b/c": "a-b-c", "--x--": "x", "ok.id_1": "ok.id_1", "é": ""} {
		got, err := CleanID(in)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("CleanID(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if p, _ := CleanProject("My Project"); p != "my-project" {
		t.Errorf("CleanProject = %q", p)
	}
}

// TestNegativeControls turns off each protection in turn and shows the
// attack it stops then succeeds.
func TestNegativeControls(t *testing.T) {
	coordinatorResolve := resolve(2, "g1", "SHIP")
	coordinatorResolve.Authority = "coordinator"
	attacks := []struct {
		name   string
		off    func(p *protections)
		events []Event
		req    Request
	}{
		{"coordinator answers an owner gate", func(p *protections) { p.directOwner = false },
			[]Event{create(1, "g1", "merge", ptr("7")), coordinatorResolve}, Request{Action: "merge", WorkUnit: "7"}},
		{"HOLD lifted with GO", func(p *protections) { p.exactResume = false },
			[]Event{hold(1, "c"), resolve(2, HoldID, "GO")}, Request{Action: "spawn"}},
		{"owner's HOLD answer ignored", func(p *protections) { p.safeAnswerBlocks = false },
			[]Event{create(1, "g1", "merge", ptr("7")), resolve(2, "g1", "HOLD")}, Request{Action: "merge", WorkUnit: "7"}},
		{"unreadable event skipped", func(p *protections) { p.malformedBlocks = false },
			[]Event{{Malformed: "event 0: unreadable"}}, Request{Action: "merge"}},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			if d, _ := decide(t, a.events, a.req); d.Allowed {
				t.Fatal("attack allowed with the protection in place")
			}
			weakened := allProtections()
			a.off(&weakened)
			d, _, err := evaluate(Log{Project: "demo", Events: a.events}, a.req, weakened)
			if err != nil {
				t.Fatal(err)
			}
			if !d.Allowed {
				t.Errorf("with the protection off the attack should succeed; blockers %v", tokens(d.Blockers))
			}
		})
	}
}

func TestCheckBadRequest(t *testing.T) {
	for _, req := range []Request{{Action: "project"}, {Action: "ship"}, {Action: "merge", AuthoritySource: "coordinator"}} {
		if _, _, err := Evaluate(Log{Project: "demo"}, req); err == nil {
			t.Errorf("Evaluate(%+v) accepted a bad request", req)
		}
	}
}
