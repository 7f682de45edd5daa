package owners

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// teams is a Teams over fixed members, or refusing with status.
type teams struct {
	members map[string][]string
	status  int
	err     error
	reads   int
}

func (t *teams) TeamMembers(_ context.Context, org, slug string) ([]string, error) {
	t.reads++
	switch {
	case t.err != nil:
		return nil, t.err
	case t.status != 0:
		return nil, &gh.TeamUnreadable{Org: org, Slug: slug, Status: t.status}
	}
	return t.members[org+"/"+slug], nil
}

// parse is the config yaml, resolved over base when it extends one, as
// the App parses it (app/verdict.Config).
func parse(t *testing.T, yaml, base string) *config.Config {
	t.Helper()
	f := snapshot.ConfigFile{Found: true, Text: yaml, CommitSHA: "abc"}
	if base != "" {
		f.Base = &snapshot.BaseFile{Ref: "acme/.github:aepgate.yml", Text: base}
	}
	c, err := verdict.Config(f)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPeople: every source names the same people — dana owns, cody
// coordinates, ann audits — and an unreadable source fails closed, naming
// the permission or file missing, with nobody left in Resolved's config.
// Negative control: a resolver that reads nothing (the old literal owners)
// counts nobody through a team or CODEOWNERS.
func TestPeople(t *testing.T) {
	leads := map[string][]string{"acme/leads": {"dana"}, "acme/coord": {"cody"}, "acme/audit": {"ann"}}
	tests := []struct {
		name, yaml, base string
		files            map[string]string
		status           int
		wantWhy          string
	}{
		{name: "flat list", yaml: "version: 1\nowners: [dana]\ncoordinators: [cody]\nauditors: [ann]\n"},
		{name: "teams", yaml: "version: 1\nowners: [\"@acme/leads\"]\ncoordinators: [\"@acme/coord\"]\nauditors: [\"@acme/audit\"]\n"},
		{name: "CODEOWNERS", yaml: "version: 1\nowners: {from: CODEOWNERS}\ncoordinators: [cody]\nauditors: [ann]\n", files: map[string]string{".github/CODEOWNERS": "* @dana\n"}},
		{name: "CODEOWNERS naming a team", yaml: "version: 1\nowners: {from: CODEOWNERS}\ncoordinators: [cody]\nauditors: [ann]\n", files: map[string]string{"CODEOWNERS": "* @acme/leads\n"}},
		{name: "extends", yaml: "version: 1\nextends: acme/.github:aepgate.yml\n", base: "version: 1\nowners: [dana]\ncoordinators: [\"@acme/coord\"]\nauditors: [ann]\n"},
		{name: "team refused (403)", yaml: "version: 1\nowners: [\"@acme/leads\"]\n", status: http.StatusForbidden, wantWhy: "`members: read`"},
		{name: "team not shown (404)", yaml: "version: 1\nowners: [\"@acme/leads\"]\n", status: http.StatusNotFound, wantWhy: "no such team"},
		{name: "CODEOWNERS missing", yaml: "version: 1\nowners: {from: CODEOWNERS}\n", wantWhy: "CODEOWNERS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := parse(t, tt.yaml, tt.base)
			r := Reader{Files: &files{at: tt.files}, Teams: &teams{members: leads, status: tt.status}}
			got, problem, err := r.Resolved(context.Background(), "acme", "widgets", "abc", cfg)
			if err != nil {
				t.Fatal(err)
			}
			if tt.wantWhy != "" {
				if !strings.Contains(problem, tt.wantWhy) {
					t.Errorf("problem %q, want it to name %s", problem, tt.wantWhy)
				}
				if len(got.AllOwners())+len(got.Coordinators)+len(got.Auditors) != 0 {
					t.Errorf("an unreadable source left people: %v %v %v", got.AllOwners(), got.Coordinators, got.Auditors)
				}
				return
			}
			if problem != "" {
				t.Fatalf("problem %q", problem)
			}
			want := []bool{true, true, true, false}
			if diff := cmp.Diff(want, []bool{got.IsOwner("dana"), got.IsCoordinator("cody"), got.MayAudit("ann"), got.IsOwner("mallory")}); diff != "" {
				t.Errorf("dana owner, cody coordinator, ann auditor, mallory owner (-want +got):\n%s", diff)
			}
			lit := Reader{Files: r.Files, Teams: r.Teams, Resolve: literal}
			old, _, err := lit.Resolved(context.Background(), "acme", "widgets", "abc", cfg)
			if err != nil {
				t.Fatal(err)
			}
			viaSource := strings.Contains(tt.yaml+tt.base, "@acme/leads") || tt.files != nil
			if old.IsOwner("dana") == viaSource {
				t.Errorf("negative control: literal owners count dana %v, want %v", old.IsOwner("dana"), !viaSource)
			}
		})
	}
}

// literal resolves nothing: the negative control of People.
func literal(_ context.Context, _ Source, _, _, _ string, cfg *config.Config) (*config.Config, error) {
	return cfg, nil
}

// TestPeopleReadErrors: a failed read that is no refusal is an error to
// retry, never membership; a team is read once however many lists name
// it; a reader missing fails the read.
func TestPeopleReadErrors(t *testing.T) {
	cfg := parse(t, "version: 1\nowners: [\"@acme/leads\"]\ncoordinators: [\"@acme/leads\"]\n", "")
	tm := &teams{err: errors.New("boom")}
	if _, _, err := (Reader{Files: &files{}, Teams: tm}).Resolved(context.Background(), "acme", "w", "abc", cfg); err == nil || !strings.Contains(err.Error(), "@acme/leads") {
		t.Errorf("a failed read gave %v, want an error naming the team", err)
	}
	ok := &teams{members: map[string][]string{"acme/leads": {"dana"}}}
	if _, _, err := (Reader{Files: &files{}, Teams: ok}).Resolved(context.Background(), "acme", "w", "abc", cfg); err != nil || ok.reads != 1 {
		t.Errorf("err %v, %d reads; want one read", err, ok.reads)
	}
	if _, _, err := (Reader{}).Resolved(context.Background(), "acme", "w", "abc", cfg); !errors.Is(err, errNoReader) {
		t.Errorf("no reader: %v", err)
	}
}
