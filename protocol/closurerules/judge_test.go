package closurerules

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var (
	owner       = Actor{Login: "olivia", Type: "User", Permission: "admin"}
	coordinator = Actor{Login: "carl", Type: "User", Permission: "write"}
	t0          = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
)

// closed is unit #7, closed as completed by who, with the given risk.
func closed(who Actor, risk string) Facts {
	return Facts{Number: 7, StateReason: ReasonCompleted, ClosedBy: who, Owners: []string{"olivia"}, Risk: risk}
}

func with(f Facts, edit func(*Facts)) Facts { edit(&f); return f }

func closeCmd(who Actor) Command {
	return Command{Actor: who, CommentID: 99, Reason: "shipped out of band", Event: EventCommentCreated, Created: t0, Updated: t0}
}

var certified = Attempt{PR: 12, MergeSHA: "m1", CertificateSHA256: "c0ffee", MergePassed: true, ReadbackPassed: true}

func TestJudge(t *testing.T) {
	tests := []struct {
		name      string
		facts     Facts
		wantState State
		wantEvid  string
	}{
		{"open", Facts{Number: 7, Open: true}, Open, ""},
		{"coordinator closes with nothing", closed(coordinator, "medium"), WithoutEvidence, ""},
		{"certified attempt", with(closed(coordinator, "high"), func(f *Facts) { f.Attempts = []Attempt{certified} }), Done, "certificate c0ffee of #12 at m1"},
		{"certificate on an unmerged attempt", with(closed(coordinator, "high"), func(f *Facts) { f.Attempts = []Attempt{{PR: 12, CertificateSHA256: "c0ffee"}} }), WithoutEvidence, ""},
		{"low risk merge and readback", with(closed(coordinator, "low"), func(f *Facts) {
			f.Attempts = []Attempt{{PR: 12, MergeSHA: "m1", MergePassed: true, ReadbackPassed: true}}
		}), Done, "low risk: #12 passed aepgate/merge and aepgate/readback at m1"},
		{"low risk without readback", with(closed(coordinator, "low"), func(f *Facts) { f.Attempts = []Attempt{{PR: 12, MergeSHA: "m1", MergePassed: true}} }), WithoutEvidence, ""},
		{"medium risk merge and readback", with(closed(coordinator, "medium"), func(f *Facts) {
			f.Attempts = []Attempt{{PR: 12, MergeSHA: "m1", MergePassed: true, ReadbackPassed: true}}
		}), WithoutEvidence, ""},
		{"owner closes", closed(owner, "high"), Done, "closed by the owner olivia"},
		{"owner login differs in case", closed(Actor{Login: "Olivia", Type: "User", Permission: "write"}, "high"), Done, "closed by the owner Olivia"},
		{"owner lost write", closed(Actor{Login: "olivia", Type: "User", Permission: "read"}, "high"), WithoutEvidence, ""},
		{"owner permission unknown", closed(Actor{Login: "olivia", Type: "User"}, "high"), WithoutEvidence, ""},
		{"bot with the owner's login", closed(Actor{Login: "olivia", Type: "Bot", Permission: "write"}, "high"), WithoutEvidence, ""},
		{"owner command", with(closed(coordinator, "high"), func(f *Facts) { f.Commands = []Command{closeCmd(owner)} }), Done, "/aep close by the owner olivia (comment 99): shipped out of band"},
		{"command by a coordinator", with(closed(coordinator, "high"), func(f *Facts) { f.Commands = []Command{closeCmd(coordinator)} }), WithoutEvidence, ""},
		{"edited owner command", with(closed(coordinator, "high"), func(f *Facts) {
			c := closeCmd(owner)
			c.Updated = t0.Add(time.Minute)
			f.Commands = []Command{c}
		}), WithoutEvidence, ""},
		{"owner command seen as an edit", with(closed(coordinator, "high"), func(f *Facts) {
			c := closeCmd(owner)
			c.Event = "issue_comment.edited"
			f.Commands = []Command{c}
		}), WithoutEvidence, ""},
		{"owner closes under HOLD", with(closed(owner, "high"), func(f *Facts) { f.Hold = "wait for legal"; f.Attempts = []Attempt{certified} }), WithoutEvidence, ""},
		{"owner cancels", with(closed(owner, "high"), func(f *Facts) { f.StateReason = ReasonNotPlanned }), Cancelled, ""},
		{"coordinator closes as not planned", with(closed(coordinator, "high"), func(f *Facts) { f.StateReason = ReasonNotPlanned }), WithoutEvidence, ""},
		{"no state reason", with(closed(owner, "high"), func(f *Facts) { f.StateReason = "" }), WithoutEvidence, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Judge(tt.facts, DefaultRules())
			if diff := cmp.Diff(struct {
				S State
				E string
			}{tt.wantState, tt.wantEvid}, struct {
				S State
				E string
			}{got.State, got.Evidence}); diff != "" {
				t.Errorf("Judge (-want +got):\n%s", diff)
			}
			if got.Counts() != (tt.wantState == Done) || (got.Blocking() == "") != got.Counts() {
				t.Errorf("Counts %v, Blocking %q disagree with state %s", got.Counts(), got.Blocking(), got.State)
			}
		})
	}
}

func TestBlocking(t *testing.T) {
	tests := []struct {
		name  string
		facts Facts
		want  string
	}{
		{"without evidence names the closer and the command", closed(coordinator, "medium"),
			"dependency #7 was closed without evidence by carl: no merged attempt carries an aepgate/certificate; the closer is not the owner (carl is not listed in owners (olivia)); an owner says `/aep close <reason>` on #7 to count it done"},
		{"cancelled", with(closed(owner, "high"), func(f *Facts) { f.StateReason = ReasonNotPlanned }),
			"dependency #7 was cancelled (closed as not planned by olivia); drop the dependency or reopen it"},
		{"hold names resume", with(closed(owner, "high"), func(f *Facts) { f.Hold = "wait"; f.Prefix = "/x" }),
			"dependency #7 was closed without evidence by olivia: it was closed while a HOLD applied (wait), and a closure under HOLD is never evidence; the owner resumes, then closes it again; an owner says `/x resume` on #7 to count it done"},
		{"open", Facts{Number: 7, Open: true}, "dependency #7 is still open; finish it before this unit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Judge(tt.facts, DefaultRules()).Blocking()); diff != "" {
				t.Errorf("Blocking (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAwaitsEvidence(t *testing.T) {
	tests := []struct {
		name   string
		facts  Facts
		merged []int
		want   bool
	}{
		{"no merged attempt", closed(coordinator, "medium"), nil, false},
		{"merged, no evidence yet", closed(coordinator, "medium"), []int{12}, true},
		{"merged, evidence kept", with(closed(coordinator, "medium"), func(f *Facts) { f.Attempts = []Attempt{certified} }), []int{12}, false},
		{"a second merge without evidence", with(closed(coordinator, "medium"), func(f *Facts) { f.Attempts = []Attempt{certified} }), []int{12, 14}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.facts.AwaitsEvidence(tt.merged); got != tt.want {
				t.Errorf("AwaitsEvidence = %v, want %v", got, tt.want)
			}
		})
	}
}
