package instructed

import (
	"context"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/aepgate/aepgate/protocol/login"
	"github.com/aepgate/aepgate/review"
)

// committedTimes is the broken variant of PushTimes: a head's time is the
// commit's committed date, taken as known.
func committedTimes(h gh.Head, _ []store.Pusher) (time.Time, bool) { return h.At, true }

// TestPerPushBackdatedOnFake: on the fake GitHub the agent pushes a commit
// dated an hour before the pull request, after dave commanded it; the App
// recorded the push (GitHub's time of its delivery). Read with
// PushTimes, dave instructed that push and the audit's not-instructor
// rule refuses his PASS. Negative control (committedTimes): the commit's
// date puts the push before dave's command, dave instructed nothing and
// his PASS counts.
func TestPerPushBackdatedOnFake(t *testing.T) {
	const agent = "copilot-swe-agent[bot]"
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	key := ghfake.NewAppKey()
	inst := f.App(31, key).Install("acme", ghfake.Permissions{"metadata": "read", "issues": "read", "pull_requests": "read", "contents": "read"}, repo)
	clients := gh.NewClients(gh.NewAppAuth(31, key, f.URL(), nil), f.URL())
	in, err := clients.Installation(inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	repo.Grant("dave", "write")
	repo.Branch("f", "main")
	repo.CommitBy(agent, "f", "export", map[string]string{"x.go": "package x\n"})
	opened := f.Now()
	pr := repo.OpenPR(agent, "f", "main", "Export", "")
	rec := recorded{pushers: []store.Pusher{{SHA: pr.Head(), Login: agent, At: opened}}}
	f.Advance(time.Minute)
	pr.Comment("dave", "@copilot also write the CSV header")
	f.Advance(time.Minute)
	sig := ghfake.Signature{Name: agent, Email: agent + "@users.noreply.github.com", Date: opened.Add(-time.Hour)}
	head := repo.PushAs(agent, "f", "csv", sig, map[string]string{"y.go": "package x\n"})
	rec.pushers = append(rec.pushers, store.Pusher{SHA: head, Login: agent, At: f.Now()})

	isAgent := func(s string) bool { return login.Equal(s, agent) }
	p := Pull{Owner: "acme", Repo: "widgets", Number: pr.Number(), Head: head}
	for _, tt := range []struct {
		name       string
		times      Times
		instructed bool
	}{
		{"recorded times", nil, true},
		{"negative control: committed dates", committedTimes, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Reader{Channels: in, Recorded: rec, Times: tt.times}
			pushes, err := r.PerPush(context.Background(), p, instructor.TriggersFor([]string{agent}, nil), isAgent, nil)
			if err != nil {
				t.Fatal(err)
			}
			f := (&instructor.Finding{Agents: []string{agent}}).WithPushes(pushes, isAgent)
			why := review.NotInstructor(review.Review{Author: review.Actor{Login: "dave"}}, &review.Input{Instructed: f})
			if got := why != ""; got != tt.instructed {
				t.Errorf("dave refused as auditor = %v (%q), want %v; pushes %+v", got, why, tt.instructed, pushes)
			}
		})
	}
}
