package instructor

import (
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/protocol/login"
	"github.com/google/go-cmp/cmp"
)

const claude = "claude[bot]"

func at(min int) time.Time { return time.Date(2026, 12, 1, 10, min, 0, 0, time.UTC) }

func TestInstructions(t *testing.T) {
	triggers := TriggersFor([]string{claude, "chatgpt-codex-connector[bot]"}, nil)
	items := []Item{
		{Channel: ChannelIssueAssignment, Author: "alice", At: at(1), Assignee: "Claude[bot]", Ref: "#7"},
		{Channel: ChannelPullAssignment, Author: "bob", At: at(2), Assignee: "dana"},
		{Channel: ChannelComment, Author: "carol", At: at(3), Body: "@claude please fix, and /codex review", Ref: "c1"},
		{Channel: ChannelReview, Author: "dana", At: at(4), Body: "looks good"},
		{Channel: ChannelReviewComment, Author: "erin", At: at(5), Body: "`@claude` is quoted code"},
		{Channel: ChannelLabel, Author: "frank", At: at(6), Label: "Claude", Ref: "label claude"},
		{Channel: ChannelLabel, Author: "gina", At: at(7), Label: "bug"},
	}
	want := []Instruction{
		{Channel: ChannelIssueAssignment, Author: "alice", Agent: claude, At: at(1), Ref: "#7"},
		{Channel: ChannelComment, Author: "carol", Agent: claude, At: at(3), Ref: "c1"},
		{Channel: ChannelComment, Author: "carol", Agent: "chatgpt-codex-connector[bot]", At: at(3), Ref: "c1"},
		{Channel: ChannelLabel, Author: "frank", Agent: claude, At: at(6), Ref: "label claude"},
	}
	if diff := cmp.Diff(want, Instructions(items, triggers)); diff != "" {
		t.Errorf("Instructions (-want +got):\n%s", diff)
	}
}

func TestPerPush(t *testing.T) {
	isAgent := agents(claude, "copilot-swe-agent[bot]")
	ins := []Instruction{
		{Channel: ChannelIssueAssignment, Author: "alice", Agent: claude, At: at(1)},
		{Channel: ChannelComment, Author: "bob", Agent: claude, At: at(5)},
		{Channel: ChannelReview, Author: "copilot-swe-agent[bot]", Agent: claude, At: at(6)}, // an agent asking: nobody's
		{Channel: ChannelReviewComment, Author: "", Agent: claude, At: at(6)},                // a deleted account: nobody's
		{Channel: ChannelLabel, Author: "carol", Agent: "copilot-swe-agent[bot]", At: at(7)}, // another agent's
		{Channel: ChannelComment, Author: "dana", Agent: claude, At: at(10)},                 // at the push: counts
		{Channel: ChannelComment, Author: "erin", Agent: claude, At: at(30)},                 // after every push
	}
	run := &Instruction{Channel: ChannelWorkflow, Author: "frank", Agent: claude, At: at(20), Ref: "run 42"}
	pushes := []Push{
		{Head: "h0", At: at(0), Known: true, Agent: claude},
		{Head: "h1", At: at(2), Known: true, Agent: claude},
		{Head: "h2", At: at(8), Known: true, Agent: claude},
		{Head: "h3", At: at(9), Known: true}, // a person's push
		{Head: "h4", At: at(10), Known: true, Agent: claude},
		{Head: "h5", At: at(21), Known: true, Current: true, Agent: claude, Run: run},
	}
	got := PerPush(pushes, ins, isAgent)
	want := []*Instruction{nil, &ins[0], &ins[1], nil, &ins[5], run}
	if len(got) != len(want) {
		t.Fatalf("PerPush: %d pushes, want %d", len(got), len(want))
	}
	for i, g := range got {
		if g.N != i+1 || g.Head != pushes[i].Head {
			t.Errorf("push %d: N %d head %s", i, g.N, g.Head)
		}
		if diff := cmp.Diff(want[i], g.Instructor); diff != "" {
			t.Errorf("push %d instructor (-want +got):\n%s", i+1, diff)
		}
	}
}

// TestPerPushBackdated: the agent's second commit says it was committed
// at 10:02, before dave's comment at 10:05, but the App recorded its push
// at 10:08. Taken at its recorded time, dave instructed it; pushed at no
// known time (no record) and being the head, everyone who ever
// instructed the agent may have; a later head pushed at a known time
// bounds them. Negative control: the committed date taken as
// the push's time (Known) clears dave, and alice is named instead.
func TestPerPushBackdated(t *testing.T) {
	isAgent := agents(claude)
	alice := Instruction{Channel: ChannelIssueAssignment, Author: "alice", Agent: claude, At: at(0)}
	dave := Instruction{Channel: ChannelComment, Author: "dave", Agent: claude, At: at(5), Ref: "c1"}
	erin := Instruction{Channel: ChannelComment, Author: "erin", Agent: claude, At: at(20), Ref: "c2"}
	ins := []Instruction{alice, dave, erin}
	first := Push{Head: "h1", At: at(1), Known: true, Agent: claude}
	tests := []struct {
		name       string
		second     Push
		instructor *Instruction
		unsure     []Instruction
	}{
		{"recorded time", Push{Head: "h2", At: at(8), Known: true, Current: true, Agent: claude}, &dave, nil},
		{"unknown time, the head's push with it", Push{Head: "h2", At: at(2), Current: true, Agent: claude}, nil, nil},
		{"negative control: committed date taken", Push{Head: "h2", At: at(2), Known: true, Current: true, Agent: claude}, &alice, nil},
	}
	tests[1].unsure = ins
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PerPush([]Push{first, tt.second}, ins, isAgent)
			if diff := cmp.Diff(tt.instructor, got[1].Instructor); diff != "" {
				t.Errorf("instructor (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.unsure, got[1].Unsure); diff != "" {
				t.Errorf("unsure (-want +got):\n%s", diff)
			}
		})
	}
	// The head h3 pushed at a recorded 10:10 bounds h2, pushed at no
	// known time: alice and dave may have instructed it, erin (10:20)
	// came after every push.
	head := Push{Head: "h3", At: at(10), Known: true, Current: true, Agent: claude}
	got := PerPush([]Push{first, {Head: "h2", At: at(2), Agent: claude}, head}, ins, isAgent)
	if diff := cmp.Diff([]Instruction{alice, dave}, got[1].Unsure); diff != "" {
		t.Errorf("bounded by the head (-want +got):\n%s", diff)
	}
	if got[1].Instructor != nil || got[2].Instructor == nil || got[2].Instructor.Author != "dave" {
		t.Errorf("pushes = %+v", got)
	}
	got = PerPush([]Push{first, tests[1].second}, ins, isAgent)
	f := (&Finding{Agents: []string{claude}}).WithPushes(got, isAgent)
	for _, who := range []string{"alice", "dave", "erin"} {
		if f.Of(who) == nil {
			t.Errorf("%s, who may have instructed push 2, is no instructor: %+v", who, f)
		}
	}
}

// FuzzPerPush replays instructions and pushes built from outside logins
// and times: the instructor of a push is never an agent nor an unknown
// account, is for the push's agent, is never later than the push (unless
// it is the run that pushed), and a person's push has none.
func FuzzPerPush(f *testing.F) {
	f.Add("alice@1>claude[bot];claude[bot]@2>claude[bot];@3>claude[bot]", "claude[bot]@2;bob@4;claude[bot]@5")
	f.Fuzz(func(t *testing.T, instr, pushes string) {
		isAgent := agents(claude, "Copilot")
		var ins []Instruction
		for _, s := range strings.Split(instr, ";") {
			who, rest, _ := strings.Cut(s, "@")
			mins, agent, _ := strings.Cut(rest, ">")
			ins = append(ins, Instruction{Channel: ChannelComment, Author: who, Agent: agent, At: at(len(mins))})
		}
		var ps []Push
		for _, s := range strings.Split(pushes, ";") {
			agent, mins, _ := strings.Cut(s, "@")
			if !isAgent(agent) {
				agent = ""
			}
			ps = append(ps, Push{Head: s, Agent: agent, At: at(len(mins)), Known: len(mins)%2 == 0})
		}
		for _, p := range PerPush(ps, ins, isAgent) {
			for _, u := range p.Unsure {
				if p.Known || isAgent(u.Author) || !login.Equal(u.Author, u.Author) || !login.Equal(u.Agent, p.Agent) {
					t.Fatalf("push %q: unsure %+v", p.Head, u)
				}
			}
			i := p.Instructor
			switch {
			case i == nil:
			case p.Agent == "":
				t.Fatalf("a person's push %q has instructor %+v", p.Head, i)
			case isAgent(i.Author) || !login.Equal(i.Author, i.Author):
				t.Fatalf("push %q instructed by %q", p.Head, i.Author)
			case !p.Known || !login.Equal(i.Agent, p.Agent) || i.At.After(p.At):
				t.Fatalf("push %q (%s at %v) instructed by %+v", p.Head, p.Agent, p.At, i)
			}
		}
	})
}

func TestWithPushes(t *testing.T) {
	isAgent := agents(claude, "Copilot")
	f := &Finding{Agents: []string{claude}, Unit: 7, Instructors: []Instructor{{Login: "alice", Agent: claude, Roles: []Role{RoleAssigner}}}}
	pushes := []Instructed{
		{Push: Push{Head: "h1", Agent: claude}, N: 1, Instructor: &Instruction{Channel: ChannelIssueAssignment, Author: "alice", Agent: claude}},
		{Push: Push{Head: "h2"}, N: 2},
		{Push: Push{Head: "h3", Agent: "Copilot"}, N: 3, Instructor: &Instruction{Channel: ChannelReviewComment, Author: "bob", Agent: "Copilot"}},
		{Push: Push{Head: "h4", Agent: claude}, N: 4},
	}
	got := f.WithPushes(pushes, isAgent)
	want := &Finding{Agents: []string{claude, "Copilot"}, Unit: 7, Instructors: []Instructor{
		{Login: "alice", Agent: claude, Roles: []Role{RoleAssigner, "instructed push 1 (assigned it on the unit issue)"}},
		{Login: "bob", Agent: "Copilot", Roles: []Role{"instructed push 3 (commanded it in a review comment)"}},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("WithPushes (-want +got):\n%s", diff)
	}
	if len(f.Instructors[0].Roles) != 1 {
		t.Errorf("WithPushes changed f: %+v", f)
	}
	if got.Of("BOB") == nil || !(*Finding)(nil).WithPushes(pushes, isAgent).Applies() {
		t.Error("Of: a push's instructor is an instructor; a pull request only its pushes show an agent's applies")
	}
}
