package instructed

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/google/go-cmp/cmp"
)

const bot = "copilot-swe-agent[bot]"

// timelines is a hand-written Timelines: its events, or its error, and
// the issues asked for.
type timelines struct {
	tl    instructor.Timeline
	ins   *gh.Instructions
	err   error
	asked []int
	pulls []int
}

func (f *timelines) Assignments(_ context.Context, _, _ string, n int) (instructor.Timeline, error) {
	f.asked = append(f.asked, n)
	return f.tl, f.err
}

// Instructions answers ins (none when nil) and records the pull request
// asked for.
func (f *timelines) Instructions(_ context.Context, _, _ string, number, _ int) (*gh.Instructions, error) {
	f.pulls = append(f.pulls, number)
	if f.ins == nil {
		return &gh.Instructions{}, nil
	}
	return f.ins, nil
}

func evaluation(agents []string, unit int, author string, commits ...snapshot.Commit) *verdict.Evaluation {
	cfg := config.Default()
	cfg.Agents = agents
	return &verdict.Evaluation{Cfg: cfg, Unit: unit, Snap: &snapshot.PR{Pull: &snapshot.Pull{Number: 8, Author: snapshot.Actor{Login: author}, Commits: commits}}}
}

func TestRead(t *testing.T) {
	tl := instructor.Timeline{Events: []instructor.Event{{Kind: instructor.KindAssigned, Actor: "alice", Assignee: bot}}}
	alice := []instructor.Instructor{{Login: "alice", Agent: bot, Roles: []instructor.Role{instructor.RoleAssigner}}}
	tests := []struct {
		name      string
		ev        *verdict.Evaluation
		want      *instructor.Finding
		wantAsked []int
	}{
		{"no agents listed", evaluation(nil, 7, bot), nil, nil},
		{"a person's pull request", evaluation([]string{bot}, 7, "bob", snapshot.Commit{AuthorLogin: "bob"}), nil, nil},
		{"the agent's", evaluation([]string{bot}, 7, bot), &instructor.Finding{Agents: []string{bot}, Unit: 7, Instructors: alice}, []int{7}},
		{"the agent committed", evaluation([]string{bot}, 7, "bob", snapshot.Commit{AuthorLogin: "bob", CommitterLogin: bot}),
			&instructor.Finding{Agents: []string{bot}, Unit: 7, Instructors: alice}, []int{7}},
		{"no unit", evaluation([]string{bot}, 0, bot), &instructor.Finding{Agents: []string{bot}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := &timelines{tl: tl}
			if err := Read(context.Background(), src, recorded{}, "acme", "widgets", tt.ev); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, tt.ev.Instructed); diff != "" {
				t.Errorf("Instructed (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantAsked, src.asked); diff != "" {
				t.Errorf("timelines read (-want +got):\n%s", diff)
			}
			if tt.want == nil && len(src.pulls) > 0 {
				t.Errorf("instructions of %v read for a pull request no agent made; want none (no API call)", src.pulls)
			}
		})
	}
}

// TestReadFails: a failed read fails the evaluation; it never counts as
// nobody having instructed the agent.
func TestReadFails(t *testing.T) {
	ev := evaluation([]string{bot}, 7, bot)
	err := Read(context.Background(), &timelines{err: errors.New("502")}, recorded{}, "acme", "widgets", ev)
	if err == nil || ev.Instructed != nil {
		t.Errorf("Read = %v, Instructed %+v; want the error and nothing known", err, ev.Instructed)
	}
}

// TestReadPerPush: a comment commanding the agent before its push makes
// its author an instructor of that push, besides the unit issue's
// assigner; the pull request's timeline is read once. The agent's commit
// is known from the snapshot (GraphQL names no Bot as a commit's user);
// its push's time is the App's record of it.
func TestReadPerPush(t *testing.T) {
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	ev := evaluation([]string{bot}, 7, "bob", snapshot.Commit{SHA: "c1", AuthorLogin: bot})
	src := &timelines{
		tl: instructor.Timeline{Events: []instructor.Event{{Kind: instructor.KindAssigned, Actor: "alice", Assignee: bot}}},
		ins: &gh.Instructions{
			Items: []instructor.Item{{Channel: instructor.ChannelComment, Author: "carol", At: at, Body: "@copilot please add the export"}},
			Heads: []gh.Head{{SHA: "c1", At: at.Add(time.Minute)}},
		},
	}
	rec := recorded{pushers: []store.Pusher{{SHA: "c1", Login: bot, At: at.Add(time.Minute)}}}
	if err := Read(context.Background(), src, rec, "acme", "widgets", ev); err != nil {
		t.Fatal(err)
	}
	var who []string
	for _, i := range ev.Instructed.Instructors {
		who = append(who, i.Login+": "+string(i.Roles[0]))
	}
	want := []string{"alice: assigned it", "carol: instructed push 1 (commanded it in a comment)"}
	if diff := cmp.Diff(want, who); diff != "" {
		t.Errorf("instructors (-want +got):\n%s", diff)
	}
	if len(ev.AgentPushes) != 1 || ev.AgentPushes[0].Agent != bot {
		t.Errorf("AgentPushes = %+v; want the one push, the agent's", ev.AgentPushes)
	}
	if !cmp.Equal(src.pulls, []int{8}) {
		t.Errorf("pull requests whose instructions were read = %v; want [8]", src.pulls)
	}
}
