package gates

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// judge is a pull judge that serves one thread's evaluation and records
// what it is asked to judge, and whether a lock was held meanwhile.
type judge struct {
	ev      *verdict.Evaluation
	locks   *locks
	judged  []pull.Input
	lockedN int
}

func (j *judge) Run(_ context.Context, in pull.Input) error {
	j.judged = append(j.judged, in)
	j.lockedN += j.locks.held
	return nil
}

func (j *judge) Thread(context.Context, pull.Input, int, bool) (*verdict.Evaluation, error) {
	return j.ev, nil
}

func (j *judge) ControlIssue(context.Context, string, string) (*snapshot.ControlIssue, error) {
	return nil, errors.New("not read in these tests")
}

// locks records the keys locked and how many are held.
type locks struct {
	keys []string
	held int
}

func (l *locks) Lock(_ context.Context, key string) (func(), error) {
	l.keys, l.held = append(l.keys, key), l.held+1
	return func() { l.held-- }, nil
}

// tampered is a kept store whose MarkTampered answers kept.
type tampered struct {
	Kept
	kept bool
}

func (t tampered) MarkTampered(context.Context, string, int64, string, string, time.Time) (bool, error) {
	return t.kept, nil
}

// unitThread is unit #7's conversation with three pull requests that
// mention it: #10 an open attempt, #11 closed, #12 naming another unit.
func unitThread() *verdict.Evaluation {
	ev := verdict.NewWith(&snapshot.PR{Repo: "acme/widgets", UnitAttempts: map[int]snapshot.Attempts{7: {Pulls: []snapshot.Attempt{
		{Number: 10, State: "OPEN", Body: "Work-unit: #7"},
		{Number: 11, State: "CLOSED", Body: "Work-unit: #7"},
		{Number: 12, State: "OPEN", Body: "Work-unit: #8"},
	}}}}, nil)
	ev.Unit = 7
	return ev
}

// TestAnswerIssueCommentJudgesThroughThePort: a change to a unit's
// conversation judges its open attempts again through the pull judge, the
// port, once the thread's lock is released, each named by the unit and
// answering nothing; the control issue's conversation judges none itself.
func TestAnswerIssueCommentJudgesThroughThePort(t *testing.T) {
	for _, tt := range []struct {
		name    string
		control bool
		want    []pull.Input
	}{
		{"unit issue", false, []pull.Input{{Owner: "acme", Repo: "widgets", PR: 10, Guesses: []int{7}}}},
		{"control issue", true, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := &locks{}
			j := &judge{ev: unitThread(), locks: l}
			if tt.control {
				j.ev.Unit = 0
			}
			g := &Gates{Judge: j, Locks: l, Log: slog.New(slog.DiscardHandler)}
			in := pull.Input{Owner: "acme", Repo: "widgets", Siblings: true}
			if err := g.AnswerIssueComment(context.Background(), in, 7, tt.control); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, j.judged); diff != "" {
				t.Errorf("judged (-want +got):\n%s", diff)
			}
			if j.lockedN != 0 || l.held != 0 {
				t.Errorf("a lock was held while judging (%d) or left held (%d)", j.lockedN, l.held)
			}
			if diff := cmp.Diff([]string{"acme/widgets#7"}, l.keys); diff != "" {
				t.Errorf("locks (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSourceChanged: an edit of a kept decision's source on the control
// issue judges every open pull request again (a fanout) and ends the work;
// elsewhere, or when no kept decision came from it, the work goes on.
func TestSourceChanged(t *testing.T) {
	for _, tt := range []struct {
		name          string
		kept, control bool
		wantDone      bool
	}{
		{"kept, control issue", true, true, true},
		{"kept, unit issue", true, false, false},
		{"not kept, control issue", false, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var fanouts []string
			g := &Gates{Kept: tampered{kept: tt.kept}, Log: slog.New(slog.DiscardHandler),
				Fanout: func(_ context.Context, owner, repo string) error {
					fanouts = append(fanouts, owner+"/"+repo)
					return nil
				}}
			done, err := g.SourceChanged(context.Background(), pull.Input{Owner: "acme", Repo: "widgets"}, Change{ID: 5, Change: "edited", By: "mallory", Control: tt.control})
			if err != nil {
				t.Fatal(err)
			}
			if done != tt.wantDone || (len(fanouts) == 1) != tt.wantDone {
				t.Errorf("done = %v, fanouts %q; want done %v with one fanout", done, fanouts, tt.wantDone)
			}
		})
	}
}

var _ Kept = (*store.DB)(nil)
