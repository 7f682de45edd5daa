package merge

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/google/go-cmp/cmp"
)

const headA, headB = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

func run(name, head string, c checks.Conclusion) verdict.Shown {
	return verdict.Shown{Run: checks.Run{Name: name, HeadSHA: head, Conclusion: c, Title: "t"}}
}

func TestGreen(t *testing.T) {
	ok := checks.ConclusionSuccess
	for _, tt := range []struct {
		name  string
		shown []verdict.Shown
		want  string // "" or a part of the reason
	}{
		{"all success", []verdict.Shown{run(checks.NameGates, headA, ok), run(checks.NameMerge, headA, ok)}, ""},
		{"config's neutral warning", []verdict.Shown{run(checks.NameConfig, headA, checks.ConclusionNeutral), run(checks.NameMerge, headA, ok)}, ""},
		{"a HOLD", []verdict.Shown{run(checks.NameGates, headA, checks.ConclusionFailure), run(checks.NameMerge, headA, ok)}, "aepgate/gates is failure"},
		{"advisory neutral merge", []verdict.Shown{run(checks.NameMerge, headA, checks.ConclusionNeutral)}, "aepgate/merge is neutral"},
		{"no aepgate/merge", []verdict.Shown{run(checks.NameGates, headA, ok)}, "aepgate/merge was not judged"},
		{"nothing shown", nil, "aepgate/merge was not judged"},
		{"another head", []verdict.Shown{run(checks.NameMerge, headB, ok)}, "not on the head"},
		{"in progress", []verdict.Shown{{Run: checks.Run{Name: checks.NameMerge, HeadSHA: headA, Status: checks.StatusInProgress}}}, "in_progress"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := Green(headA, tt.shown)
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Green = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestMay(t *testing.T) {
	cfg := &config.Config{Owners: []string{"olivia"}, Merge: config.Merge{Authority: []string{"owners", "merge-queue", "cody"}}}
	for _, tt := range []struct {
		a    Asker
		want string
	}{
		{Asker{"olivia", "User", "admin"}, ""},
		{Asker{"OLIVIA", "User", "write"}, ""},
		{Asker{"cody", "User", "write"}, ""},
		{Asker{"mallory", "User", "write"}, "neither an owner"},
		{Asker{"olivia", "Bot", "write"}, "Bot account"},
		{Asker{"olivia", "User", "read"}, "live role on the repository is read"},
		{Asker{"merge-queue", "User", "write"}, "neither an owner"},
	} {
		got := May(tt.a, cfg)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("May(%+v) = %q, want %q", tt.a, got, tt.want)
		}
	}
}

func TestMarks(t *testing.T) {
	m := mark{State: stateBound, Head: headA, Answer: 42}
	got, ok := parseMark(m.String() + "\nEnqueued.")
	if !ok || got != m {
		t.Fatalf("parseMark(%q) = %+v, %v", m.String(), got, ok)
	}
	ms := []mark{{State: stateDeclined, Head: headA, Answer: 1}, {State: stateBound, Head: headA, Answer: 2}}
	if b := bound(ms); b != headA {
		t.Errorf("bound = %q, want %s", b, headA)
	}
	if !settled(ms, headA) || settled(ms, headB) {
		t.Error("settled: want the bound head settled, another not")
	}
	ms = append(ms, mark{State: stateReleased, Head: headA})
	if b := bound(ms); b != "" || settled(ms, headA) {
		t.Errorf("after a release: bound %q, settled %v", b, settled(ms, headA))
	}
	if !answered(ms, 2) || answered(ms, 3) {
		t.Error("answered: want 2 answered, 3 not")
	}
	if diff := cmp.Diff(mark{}, func() mark { m, _ := parseMark("<!-- aepgate:merge answer=x -->"); return m }()); diff != "" {
		t.Errorf("a mark with a bad answer parsed (-want +got):\n%s", diff)
	}
}

// TestMarksOnlyTheApps: a comment by anyone but the App that copies a
// mark (say, to make a command look answered) is not one.
func TestMarksOnlyTheApps(t *testing.T) {
	forged := mark{State: stateBound, Head: headA, Answer: 7}.String()
	ev := &verdict.Evaluation{AppLogin: "aepgate[bot]", Snap: &snapshot.PR{Pull: &snapshot.Pull{Conversation: snapshot.Thread{Comments: []snapshot.Comment{
		{ID: 1, Body: forged, Author: snapshot.Actor{Login: "mallory", Type: "User"}},
		{ID: 2, Body: mark{State: stateDeclined, Head: headA, Answer: 9}.String(), Author: snapshot.Actor{Login: "aepgate[bot]", Type: "Bot"}},
	}}}}}
	ms := marks(ev)
	if answered(ms, 7) || bound(ms) != "" || len(ms) != 1 || !answered(ms, 9) {
		t.Errorf("marks = %+v, want only the App's", ms)
	}
}
