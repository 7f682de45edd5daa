package gate

import (
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

func ptr(s string) *string { return &s }

func hold(min int, actor string) Event {
	return Event{Type: EventHold, Time: at(min), Actor: actor, Authority: "coordinator", Reason: "owner asked to stop"}
}

func resume(min int, authority string) Event {
	return Event{Type: EventResume, Time: at(min), Actor: "owner", Authority: authority, Evidence: "https://github.com/o/r/issues/1#issuecomment-1"}
}

func resolve(min int, id, choice string) Event {
	return Event{Type: EventResolve, Time: at(min), Actor: "owner", Authority: AuthorityDirectOwner, GateID: id, Choice: choice, Evidence: "comment-1"}
}

func create(min int, id, scope string, wu *string) Event {
	return Event{Type: EventCreate, Time: at(min), Actor: "coordinator", Authority: "coordinator", GateID: id,
		Question: "Ship it?", Choices: Choices{"SHIP", "HOLD"}, ExternalEffect: "publish-release",
		OwnerOnlyCategory: "high-blast-radius-public-release", BlockingScope: scope, WorkUnit: wu}
}

func decide(t *testing.T, events []Event, req Request) (Decision, State) {
	t.Helper()
	d, st, err := Evaluate(Log{Project: "demo", Events: events}, req)
	if err != nil {
		t.Fatal(err)
	}
	return d, st
}

func tokens(bs []Blocker) []string {
	out := []string{}
	for _, b := range bs {
		out = append(out, b.Token)
	}
	return out
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name     string
		events   []Event
		req      Request
		blockers []string
		refusals []string
	}{
		{"no gates", nil, Request{Action: "spawn"}, []string{}, []string{}},
		{"HOLD blocks spawn", []Event{hold(1, "c")}, Request{Action: "spawn"}, []string{"gate-open:project-hold"}, []string{}},
		{"HOLD blocks every unit", []Event{hold(1, "c")}, Request{Action: "merge", WorkUnit: "7"}, []string{"gate-open:project-hold"}, []string{}},
		{"HOLD answered GO still blocks", []Event{hold(1, "c"), resolve(2, HoldID, "GO")}, Request{Action: "spawn"}, []string{"gate-open:project-hold"}, []string{}},
		{"HOLD answered resume (lowercase) still blocks", []Event{hold(1, "c"), resolve(2, HoldID, "resume")}, Request{Action: "spawn"}, []string{"gate-open:project-hold"}, []string{}},
		{"RESUME allows spawn", []Event{hold(1, "c"), resolve(2, HoldID, ResumeChoice)}, Request{Action: "spawn"}, []string{}, []string{}},
		{"resume event allows spawn", []Event{hold(1, "c"), resume(2, AuthorityDirectOwner)}, Request{Action: "spawn"}, []string{}, []string{}},
		{"resume by coordinator refused", []Event{hold(1, "c"), resume(2, "coordinator")}, Request{Action: "spawn"}, []string{"gate-open:project-hold"}, []string{}},
		{"HOLD after RESUME mints a new gate", []Event{hold(1, "c"), resume(2, AuthorityDirectOwner), hold(3, "c")}, Request{Action: "implement"},
			[]string{"gate-open:project-hold-" + ms(at(3))}, []string{}},
		{"new HOLD needs exact RESUME too", []Event{hold(1, "c"), resume(2, AuthorityDirectOwner), hold(3, "c"), resolve(4, "project-hold-"+ms(at(3)), "Resume")},
			Request{Action: "implement"}, []string{"gate-open:project-hold-" + ms(at(3))}, []string{}},
		{"resolve by coordinator refused", []Event{create(1, "g1", "merge", ptr("7")), func() Event { e := resolve(2, "g1", "SHIP"); e.Authority = "coordinator"; return e }()},
			Request{Action: "merge", WorkUnit: "7"}, []string{"gate-open:g1"}, []string{}},
		{"resolved merge gate allows merge", []Event{create(1, "g1", "merge", ptr("7")), resolve(2, "g1", "SHIP")}, Request{Action: "merge", WorkUnit: "7"}, []string{}, []string{}},
		{"open merge gate blocks its unit", []Event{create(1, "g1", "merge", ptr("7"))}, Request{Action: "merge", WorkUnit: "7"}, []string{"gate-open:g1"}, []string{}},
		{"open merge gate leaves other unit", []Event{create(1, "g1", "merge", ptr("7"))}, Request{Action: "merge", WorkUnit: "8"}, []string{}, []string{}},
		{"open merge gate leaves other action", []Event{create(1, "g1", "merge", ptr("7"))}, Request{Action: "implement", WorkUnit: "7"}, []string{}, []string{}},
		{"work-unit scope blocks every action of the unit", []Event{create(1, "g1", "", ptr("7"))}, Request{Action: "close", WorkUnit: "7"}, []string{"gate-open:g1"}, []string{}},
		{"unscoped implement gate leaves unrelated unit", []Event{create(1, "g1", "implement", nil)}, Request{Action: "implement", WorkUnit: "unrelated"}, []string{}, []string{}},
		{"unscoped implement gate blocks unscoped op", []Event{create(1, "g1", "implement", nil)}, Request{Action: "implement"}, []string{"gate-open:g1"}, []string{}},
		{"project scope blocks all", []Event{create(1, "g1", "project", ptr("7"))}, Request{Action: "deploy", WorkUnit: "9"}, []string{"gate-open:g1"}, []string{}},
		{"owner answered HOLD keeps blocking", []Event{create(1, "g1", "merge", ptr("7")), resolve(2, "g1", "HOLD")}, Request{Action: "merge", WorkUnit: "7"}, []string{"gate-answered-safe-default:g1"}, []string{}},
		{"owner answered safe default keeps blocking", []Event{func() Event {
			e := create(1, "g1", "merge", ptr("7"))
			e.Choices = Choices{"SHIP", "WAIT"}
			e.SafeDefault = "WAIT"
			return e
		}(), resolve(2, "g1", "WAIT")},
			Request{Action: "merge", WorkUnit: "7"}, []string{"gate-answered-safe-default:g1"}, []string{}},
		{"malformed event blocks", []Event{{Malformed: "event 0: bad"}}, Request{Action: "spawn"}, []string{"gate-event-malformed:0"}, []string{}},
		{"unknown event type blocks", []Event{{Type: "approve", Time: at(1)}}, Request{Action: "spawn"}, []string{"gate-event-malformed:0"}, []string{}},
		{"plan-derived without receipt", nil, Request{Action: "deploy", ExternalEffect: "deploy", AuthoritySource: AuthorityPlanDerived}, []string{},
			[]string{"plan-derived-dangerous-effect-without-plan-receipt", "exact-direct-owner-effect-gate-required"}},
		{"effect without gate", nil, Request{Action: "deploy", WorkUnit: "7", ExternalEffect: "deploy"}, []string{}, []string{"exact-direct-owner-effect-gate-required"}},
		{"unknown effect", nil, Request{Action: "deploy", ExternalEffect: "because-money"}, []string{}, []string{"external-effect-invalid"}},
		{"resolved deploy gate for the unit grants the effect", []Event{deployGate(1, "7"), resolve(2, "d1", "GO")},
			Request{Action: "deploy", WorkUnit: "7", ExternalEffect: "deploy"}, []string{}, []string{}},
		{"deploy gate for another unit grants nothing", []Event{deployGate(1, "8"), resolve(2, "d1", "GO")},
			Request{Action: "deploy", WorkUnit: "7", ExternalEffect: "deploy"}, []string{}, []string{"exact-direct-owner-effect-gate-required"}},
		{"deploy gate answered HOLD grants nothing", []Event{deployGate(1, "7"), resolve(2, "d1", "HOLD")},
			Request{Action: "deploy", WorkUnit: "7", ExternalEffect: "deploy"}, []string{"gate-answered-safe-default:d1"}, []string{"exact-direct-owner-effect-gate-required"}},
		{"events applied in time order", []Event{resolve(2, "g1", "SHIP"), create(1, "g1", "merge", ptr("7"))}, Request{Action: "merge", WorkUnit: "7"}, []string{}, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := decide(t, tt.events, tt.req)
			if diff := cmp.Diff(tt.blockers, tokens(d.Blockers)); diff != "" {
				t.Errorf("blockers (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.refusals, d.AuthorityRefusals); diff != "" {
				t.Errorf("authority refusals (-want +got):\n%s", diff)
			}
			if want := len(tt.blockers) == 0 && len(tt.refusals) == 0; d.Allowed != want {
				t.Errorf("allowed = %v, want %v", d.Allowed, want)
			}
			if len(d.Explanations) != len(d.AuthorityRefusals) {
				t.Errorf("each authority refusal needs an explanation: %v", d.Explanations)
			}
		})
	}
}

func deployGate(min int, wu string) Event {
	return Event{Type: EventCreate, Time: at(min), GateID: "d1", Question: "Deploy to production?", Choices: Choices{"GO", "HOLD"},
		ExternalEffect: "deploy", OwnerOnlyCategory: "irreversible-destructive", BlockingScope: "deploy", WorkUnit: ptr(wu)}
}

func ms(t time.Time) string { return strconv.FormatInt(t.UnixMilli(), 10) }
