package compliance

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const sha = "abc1234000000000000000000000000000000000"

// TestSignedAuthor: only a valid signature GitHub verified for an account,
// not made with GitHub's own key, proves an author; an e-mail never does.
func TestSignedAuthor(t *testing.T) {
	valid := Signature{State: "VALID", Valid: true, Signer: "ann"}
	tests := []struct {
		name      string
		c         Commit
		wantLogin string
		wantWhy   string // a part of why
	}{
		{"signed and verified for ann", Commit{SHA: sha, Known: true, Signature: valid}, "ann", ""},
		{"unsigned, ann's noreply e-mail claimed", Commit{SHA: sha, Known: true, Claimed: []string{"ann"}}, "", "carries no signature GitHub verified for an auditor; sign the commit"},
		{"state UNSIGNED", Commit{SHA: sha, Known: true, Signature: Signature{State: "UNSIGNED"}}, "", "carries no signature"},
		{"web-flow", Commit{SHA: sha, Known: true, Signature: Signature{State: "VALID", Valid: true, Signer: "ann", ByGitHub: true}}, "", "GitHub signed with its own key"},
		{"unknown key", Commit{SHA: sha, Known: true, Signature: Signature{State: "UNKNOWN_KEY", Signer: "ann"}}, "", "did not verify (UNKNOWN_KEY)"},
		{"valid state but isValid false", Commit{SHA: sha, Known: true, Signature: Signature{State: "VALID", Signer: "ann"}}, "", "did not verify (VALID)"},
		{"verified for no account", Commit{SHA: sha, Known: true, Signature: Signature{State: "VALID", Valid: true}}, "", "verified for no account"},
		{"not on GitHub", Commit{SHA: sha, Signature: valid}, "", "GitHub does not know"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			login, why := SignedAuthor(tt.c)
			if login != tt.wantLogin || !strings.Contains(why, tt.wantWhy) || (login == "") == (why == "") {
				t.Errorf("SignedAuthor = %q, %q; want %q and a why holding %q", login, why, tt.wantLogin, tt.wantWhy)
			}
		})
	}
}

// TestAttributeRefusal: an unsigned verdict commit under the auditor's
// noreply e-mail is refused saying what is missing; the e-mail still
// makes its author an executor of the tasks it reports.
func TestAttributeRefusal(t *testing.T) {
	in := honest()
	in.Blame[9] = Attribute(Commit{SHA: sha, Known: true, Claimed: []string{"ann"}}, SignedAuthor)
	_, got, _ := Check(in, DefaultRules())
	want := []Finding{{"known-author", 9, "P0-T1 APPROVED introduced by commit abc123400000, which carries no signature GitHub verified for an auditor; " + SignHint}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}

	in = honest()
	in.Auditors = []string{"ann", "exec"}
	in.Blame[7] = Attribute(Commit{SHA: sha, Known: true, Claimed: []string{"exec"}}, SignedAuthor)
	in.Blame[9] = Author{Login: "exec", Commit: sha}
	_, got, _ = Check(in, DefaultRules())
	if len(got) != 1 || got[0].Rule != "not-executor" {
		t.Errorf("an executor known by e-mail only approves: %+v, want not-executor", got)
	}
}

// TestListedAuditorTeams: a member of a listed team counts; when the
// team's members could not be read the verdict is refused with why; a
// login listed directly counts whatever the teams.
func TestListedAuditorTeams(t *testing.T) {
	const unreadWhy = "the job's token cannot read the members of @acme/auditors (needs members: read)"
	tests := []struct {
		name     string
		by       string
		members  map[string][]string
		unread   map[string]string
		wantRule string
		wantMsg  string // a part of the message
	}{
		{"a team member", "carol", map[string][]string{"@acme/auditors": {"Carol"}}, nil, "", ""},
		{"not a member", "mallory", map[string][]string{"@acme/auditors": {"carol"}}, nil, "listed-auditor", "verdicts belong to the auditor alone"},
		{"team read, no members", "mallory", map[string][]string{"@acme/auditors": nil}, nil, "listed-auditor", "verdicts belong to the auditor alone"},
		{"members unread", "carol", nil, map[string]string{"@acme/auditors": unreadWhy}, "listed-auditor", "cannot be told: " + unreadWhy},
		{"members never read", "carol", nil, nil, "listed-auditor", "the members of @ACME/auditors were not read"},
		{"listed by login, team unread", "ann", nil, map[string]string{"@acme/auditors": unreadWhy}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := honest()
			in.Auditors = []string{"ann", "@ACME/auditors"}
			in.Members, in.Unread = tt.members, tt.unread
			in.Blame[9] = Author{Login: tt.by, Commit: sha}
			_, got, _ := Check(in, DefaultRules())
			if tt.wantRule == "" {
				if len(got) != 0 {
					t.Errorf("findings %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].Rule != tt.wantRule || !strings.Contains(got[0].Message, tt.wantMsg) {
				t.Errorf("findings %+v, want one %s holding %q", got, tt.wantRule, tt.wantMsg)
			}
		})
	}
}
