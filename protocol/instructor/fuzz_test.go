package instructor

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/login"
)

// FuzzFind replays timelines built from outside logins: Find never panics,
// never names an agent or a login that equals nothing (empty, non-ASCII),
// names each login once, and names the sender of every event assigning an
// agent.
func FuzzFind(f *testing.F) {
	f.Add("alice>Copilot;olivia>bob;olivia-bob", "Copilot")
	f.Add("x>y;-y;y>Copilot;>Copilot", "copilot,y")
	f.Fuzz(func(t *testing.T, script, agentList string) {
		agents := strings.Split(agentList, ",")
		isAgent := func(s string) bool { return s != "" && login.In(agents, s) }
		var events []Event
		for _, step := range strings.Split(script, ";") {
			if who, ok := strings.CutPrefix(step, "-"); ok {
				events = append(events, Event{Kind: KindUnassigned, Assignee: who})
				continue
			}
			actor, assignee, _ := strings.Cut(step, ">")
			events = append(events, Event{Kind: KindAssigned, Actor: actor, Assignee: assignee})
		}
		got := Find(events, isAgent)
		var seen []string
		for _, i := range got {
			if !login.Equal(i.Login, i.Login) || isAgent(i.Login) || login.In(seen, i.Login) || len(i.Roles) == 0 {
				t.Fatalf("Find named %+v (seen %v)", i, seen)
			}
			seen = append(seen, i.Login)
		}
		for _, e := range events {
			if e.Kind == KindAssigned && isAgent(e.Assignee) && login.Equal(e.Actor, e.Actor) && !isAgent(e.Actor) && !login.In(seen, e.Actor) {
				t.Fatalf("the sender %q of an agent's assignment is no instructor: %+v", e.Actor, got)
			}
		}
	})
}
