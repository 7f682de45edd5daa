package verdict

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// planEvaluation is unit 1's issue holding comments, olivia owning it.
func planEvaluation(comments ...snapshot.Comment) *Evaluation {
	cfg := config.Default()
	cfg.Owners = []string{"olivia"}
	return &Evaluation{Unit: 1, Cfg: cfg, AppLogin: "aepgate[bot]", Perms: map[string]string{"olivia": "admin"},
		Snap: &snapshot.PR{Repo: "acme/app", Has: snapshot.Needs{Conversation: true},
			UnitComments: map[int]snapshot.Thread{1: {Comments: comments}}}}
}

func planComment(id int64, who, body string) snapshot.Comment {
	at := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC).Add(time.Duration(id) * time.Minute)
	return snapshot.Comment{ID: id, Body: body, Author: snapshot.Actor{Login: who, Type: "User"}, Created: at, Updated: at}
}

// TestPlanAnswer: the answer to a comment is planned from the evaluation
// alone, no GitHub in sight: a ledger row per request, 👍 for what was
// accepted, 👎 and one reply for what was refused, none twice.
func TestPlanAnswer(t *testing.T) {
	in := Origin{Delivery: "d1", Owner: "acme", Repo: "app"}
	mixed := planComment(10, "olivia", "/aep hold legal\n/aep approve")
	tests := []struct {
		name      string
		ev        *Evaluation
		id        int64
		rows      int
		react     []string
		replied   bool
		answered  bool
		wantFound bool
	}{
		{"accepted and refused", planEvaluation(mixed), 10, 2, []string{"+1", "-1"}, true, true, true},
		{"the App replied already", planEvaluation(mixed, planComment(11, "aepgate[bot]", checks.ReplyMarker(10)+"\nrefused")), 10, 2, []string{"+1", "-1"}, false, true, true},
		{"a stranger's command", planEvaluation(planComment(12, "mallory", "/aep hold now")), 12, 1, []string{"-1"}, true, true, true},
		{"no command", planEvaluation(planComment(13, "olivia", "thanks")), 13, 0, nil, false, false, true},
		{"gone", planEvaluation(), 14, 0, nil, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ok := PlanAnswer(in, tt.ev, tt.id)
			if ok != tt.wantFound {
				t.Fatalf("found = %v, want %v", ok, tt.wantFound)
			}
			if len(p.Rows) != tt.rows || (p.Reply != "") != tt.replied || (p.Answered != nil) != tt.answered {
				t.Errorf("rows %d, reply %q, answered %v; want %d, %v, %v", len(p.Rows), p.Reply, p.Answered != nil, tt.rows, tt.replied, tt.answered)
			}
			if diff := cmp.Diff(tt.react, p.React); diff != "" {
				t.Errorf("reactions (-want +got):\n%s", diff)
			}
			if tt.replied && !strings.HasPrefix(p.Reply, checks.ReplyMarker(tt.id)) {
				t.Errorf("reply does not carry its marker:\n%s", p.Reply)
			}
		})
	}
}

// TestPlanStatus: the status comment is created only when asked for, edited
// only when it no longer says what is true.
func TestPlanStatus(t *testing.T) {
	ev := planEvaluation(planComment(10, "olivia", "/aep hold legal"))
	th := Thread{Number: 1, Conv: ev.Snap.UnitComments[1]}
	if _, _, due := PlanStatus(ev, th, false); due {
		t.Error("a status comment nobody asked for is due")
	}
	edit, body, due := PlanStatus(ev, th, true)
	if !due || edit != 0 || !strings.HasPrefix(body, checks.StatusMarker) {
		t.Fatalf("asked for: due %v, edit %d, body %q", due, edit, body)
	}
	ev = planEvaluation(planComment(10, "olivia", "/aep hold legal"), planComment(11, "aepgate[bot]", body))
	th = Thread{Number: 1, Conv: ev.Snap.UnitComments[1]}
	if _, _, due := PlanStatus(ev, th, true); due {
		t.Error("an up-to-date status comment is written again")
	}
	ev = planEvaluation(planComment(10, "olivia", "/aep hold legal"), planComment(11, "aepgate[bot]", checks.StatusMarker+"\nold"))
	th = Thread{Number: 1, Conv: ev.Snap.UnitComments[1]}
	if edit, _, due := PlanStatus(ev, th, false); !due || edit != 11 {
		t.Errorf("a stale status comment: due %v, edit %d; want an edit of 11", due, edit)
	}
}

// TestPlanAnswerDefersAndUnjudged: a deploy gate's answer is left to the
// deployment judge (no row, reaction or reply here), though the gate log
// refuses it — what the answerer would otherwise have answered 👎 (the
// negative control); and while the people cannot be resolved, a gate
// command gets 👀 and one reply saying why, never 👍 or an answered row,
// and `/aep accept` (its own judge's) gets nothing here.
func TestPlanAnswerDefersAndUnjudged(t *testing.T) {
	in := Origin{Delivery: "d1", Owner: "acme", Repo: "app"}
	deployAnswer := planEvaluation(planComment(15, "olivia", "/aep resolve auto-deploy-production-run5 approve"))
	p, ok := PlanAnswer(in, deployAnswer, 15)
	if !ok || len(p.Rows)+len(p.React) != 0 || p.Reply != "" || p.Answered != nil {
		t.Errorf("a deploy gate's answer was answered here: %+v", p)
	}
	refused := false
	for _, o := range deployAnswer.GateLog().Outcomes {
		refused = refused || (o.ItemID == 15 && !o.Accepted && Deferred(o))
	}
	if !refused {
		t.Errorf("negative control: the gate log does not refuse the deploy gate's answer, so deferring stops nothing: %+v", deployAnswer.GateLog().Outcomes)
	}

	unresolved := func(c snapshot.Comment) *Evaluation {
		ev := planEvaluation(c)
		ev.Cfg, ev.Unresolved = nil, "the App cannot read team @acme/leads's members"
		ev.CfgOther = errors.New(ev.Unresolved)
		return ev
	}
	p, ok = PlanAnswer(in, unresolved(planComment(16, "olivia", "/aep hold legal")), 16)
	if diff := cmp.Diff([]string{"eyes"}, p.React); !ok || diff != "" || p.Answered != nil {
		t.Errorf("unjudged HOLD: ok %v, answered %v, reactions (-want +got):\n%s", ok, p.Answered != nil, diff)
	}
	if !strings.HasPrefix(p.Reply, checks.UnjudgedMarker(16)) || !strings.Contains(p.Reply, "@acme/leads") {
		t.Errorf("unjudged reply:\n%s", p.Reply)
	}
	if p, ok := PlanAnswer(in, unresolved(planComment(17, "olivia", "/aep accept 1 abc")), 17); ok || len(p.React) != 0 {
		t.Errorf("an acceptance was answered by the gate answerer: %+v", p)
	}
}
