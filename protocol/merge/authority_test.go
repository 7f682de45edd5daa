package merge

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAuthority(t *testing.T) {
	sha := "0123456789abcdef0123456789abcdef01234567"
	other := "fedcba9876543210fedcba9876543210fedcba98"
	user := func(l string) Actor { return Actor{Login: l, Type: "User"} }
	accept := func(id int64, by Actor, s string) Comment {
		return Comment{ID: id, Author: by, Body: "Looked at it.\n/aep accept-merge " + s + "\n"}
	}
	owners := []string{"olivia", "@acme/leads"}
	listed := []string{"owners", "merge-queue", "carol"}
	writers := map[string]bool{"olivia": true}
	type got struct {
		Held                 bool
		Authority, Accepted  string
		Acceptance           int64
		Token                string
		AcceptanceAuthorsLen int
	}
	tests := []struct {
		name string
		in   AuthorityInput
		want got
	}{
		{"unset: anyone, unchecked (the rule removed)", AuthorityInput{Owners: owners, MergedBy: user("mallory"), MergeSHA: sha},
			got{Held: true, Authority: AuthorityUnchecked}},
		{"an owner", AuthorityInput{Authority: listed, Owners: owners, MergedBy: user("Olivia"), MergeSHA: sha},
			got{Held: true, Authority: AuthorityOwner}},
		{"owners not listed: an owner holds none", AuthorityInput{Authority: []string{"carol"}, Owners: owners, MergedBy: user("olivia"), MergeSHA: sha},
			got{Token: "merge-authority-missing:olivia"}},
		{"a named coordinator", AuthorityInput{Authority: listed, Owners: owners, MergedBy: user("carol"), MergeSHA: sha},
			got{Held: true, Authority: AuthorityCoordinator}},
		{"the merge queue", AuthorityInput{Authority: listed, Owners: owners, MergedBy: Actor{"github-merge-queue", "Bot"}, MergeSHA: sha},
			got{Held: true, Authority: AuthorityQueue}},
		{"the merge queue, REST login", AuthorityInput{Authority: listed, Owners: owners, MergedBy: Actor{"github-merge-queue[bot]", "Bot"}, MergeSHA: sha},
			got{Held: true, Authority: AuthorityQueue}},
		{"a user named like the queue", AuthorityInput{Authority: listed, Owners: owners, MergedBy: user("github-merge-queue"), MergeSHA: sha},
			got{Token: "merge-authority-missing:github-merge-queue"}},
		{"the queue not listed", AuthorityInput{Authority: []string{"owners"}, Owners: owners, MergedBy: Actor{"github-merge-queue", "Bot"}, MergeSHA: sha},
			got{Token: "merge-authority-missing:github-merge-queue"}},
		{"a bot named like an owner", AuthorityInput{Authority: listed, Owners: owners, MergedBy: Actor{"olivia", "Bot"}, MergeSHA: sha},
			got{Token: "merge-authority-missing:olivia"}},
		{"anyone else", AuthorityInput{Authority: listed, Owners: owners, MergedBy: user("mallory"), MergeSHA: sha},
			got{Token: "merge-authority-missing:mallory"}},
		{"no merger", AuthorityInput{Authority: listed, Owners: owners, MergeSHA: sha},
			got{Token: "merge-authority-missing:"}},
		{"an owner's acceptance", AuthorityInput{Authority: listed, Owners: owners, MergedBy: user("mallory"), MergeSHA: sha, Writers: writers,
			Comments: []Comment{accept(7, user("mallory"), sha), accept(9, user("olivia"), sha)}},
			got{Held: true, Authority: AuthorityOwnerAccepted, Accepted: "olivia", Acceptance: 9, AcceptanceAuthorsLen: 1}},
		{"an acceptance of another merge", AuthorityInput{Authority: listed, Owners: owners, MergedBy: user("mallory"), MergeSHA: sha, Writers: writers,
			Comments: []Comment{accept(9, user("olivia"), other)}},
			got{Token: "merge-authority-missing:mallory"}},
		{"an edited acceptance", AuthorityInput{Authority: listed, Owners: owners, MergedBy: user("mallory"), MergeSHA: sha, Writers: writers,
			Comments: []Comment{func() Comment { c := accept(9, user("olivia"), sha); c.Edited = true; return c }()}},
			got{Token: "merge-authority-missing:mallory"}},
		{"an acceptance by a bot named like an owner", AuthorityInput{Authority: listed, Owners: owners, MergedBy: user("mallory"), MergeSHA: sha, Writers: writers,
			Comments: []Comment{accept(9, Actor{"olivia", "Bot"}, sha)}},
			got{Token: "merge-authority-missing:mallory"}},
		{"an acceptance by a coordinator", AuthorityInput{Authority: listed, Owners: owners, MergedBy: user("mallory"), MergeSHA: sha, Writers: map[string]bool{"carol": true},
			Comments: []Comment{accept(9, user("carol"), sha)}},
			got{Token: "merge-authority-missing:mallory"}},
		{"an owner without live write", AuthorityInput{Authority: listed, Owners: owners, MergedBy: user("mallory"), MergeSHA: sha,
			Comments: []Comment{accept(9, user("olivia"), sha)}},
			got{Token: "merge-authority-missing:mallory", AcceptanceAuthorsLen: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Authority(tt.in)
			g := got{Held: r.Held, Authority: r.Authority, Accepted: r.AcceptedBy, Acceptance: r.Acceptance, AcceptanceAuthorsLen: len(AcceptanceAuthors(tt.in))}
			if r.Refusal != nil {
				g.Token = r.Refusal.Token
			}
			if diff := cmp.Diff(tt.want, g); diff != "" {
				t.Errorf("Authority (-want +got):\n%s", diff)
			}
			if r.Held == (r.Refusal != nil) {
				t.Errorf("held %v with refusal %v", r.Held, r.Refusal)
			}
		})
	}
}

// TestAuthorityRefusalSaysHowToFixIt: the refusal names the merger, the
// listed authority and the exact command an owner answers.
func TestAuthorityRefusalSaysHowToFixIt(t *testing.T) {
	sha := "0123456789abcdef0123456789abcdef01234567"
	r := Authority(AuthorityInput{Authority: []string{"owners"}, MergedBy: Actor{"mallory", "User"}, MergeSHA: sha, Prefix: "/x"})
	want := "merge-authority-missing:mallory: expected a merge by one of merge.authority [owners], or an owner's `/x accept-merge " + sha +
		"` on the pull request, saw @mallory, who holds no merge authority"
	if r.Refusal == nil || r.Refusal.String() != want {
		t.Errorf("refusal = %v, want %s", r.Refusal, want)
	}
}
