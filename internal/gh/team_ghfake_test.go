package gh_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestTeamMembers: with members: read a team's members are listed; without
// it GitHub's 403 is a *gh.TeamUnreadable, not a check-run error, and so is
// a team GitHub does not show (404): neither is membership, nor a team
// without members.
func TestTeamMembers(t *testing.T) {
	for _, tt := range []struct {
		name       string
		members    bool
		slug       string
		want       []string
		wantStatus int
	}{
		{"granted", true, "leads", []string{"dana", "erin"}, 0},
		{"not granted", false, "leads", nil, http.StatusForbidden},
		{"no such team", true, "ghosts", nil, http.StatusNotFound},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := ghfake.New(t)
			f.CreateRepo("acme/widgets")
			f.SetTeam("acme", "leads", "dana", "erin")
			perms := ghfake.Permissions{"metadata": "read", "contents": "read"}
			if tt.members {
				perms["members"] = "read"
			}
			key := ghfake.NewAppKey()
			inst := f.App(32, key).Install("acme", perms)
			in, err := gh.NewClients(gh.NewAppAuth(32, key, f.URL(), nil), f.URL()).Installation(inst.ID)
			if err != nil {
				t.Fatal(err)
			}
			got, err := in.TeamMembers(context.Background(), "acme", tt.slug)
			var refused *gh.TeamUnreadable
			switch {
			case tt.wantStatus == 0 && err != nil:
				t.Fatal(err)
			case tt.wantStatus != 0 && (!errors.As(err, &refused) || refused.Status != tt.wantStatus):
				t.Fatalf("error %v, want a TeamUnreadable with status %d", err, tt.wantStatus)
			case errors.Is(err, gh.ErrCheckForbidden):
				t.Fatalf("error %v names check runs", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("members (-want +got):\n%s", diff)
			}
		})
	}
}
