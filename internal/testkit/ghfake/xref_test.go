package ghfake_test

import (
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
)

// xrefStart is the fixed clock of the cross-reference stories.
var xrefStart = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// xrefRepo is acme/widgets with issue #1 (the work unit), an installation
// token over acme's repositories, and the clock fixed at xrefStart.
func xrefRepo(t *testing.T) (*ghfake.Fake, *ghfake.Repo, string) {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f, repo, _, tok := installedToken(t)
	f.SetNow(xrefStart)
	repo.OpenIssue("acme", "Story", "```yaml\ngoal: g\n```")
	return f, repo, tok
}

// openPR pushes one commit by author to a new branch and opens a pull
// request from it into base.
func openPR(repo *ghfake.Repo, author, branch, base, body string) *ghfake.PR {
	repo.CommitBy(author, branch, "work on "+branch, map[string]string{branch + ".txt": branch + "\n"})
	return repo.OpenPR(author, branch, base, "PR "+branch, body)
}

// xrefSummary is what the rules tests compare of one CrossReferencedEvent.
type xrefSummary struct {
	Source    string // __typename
	Number    float64
	Actor     string
	WillClose bool
	Cross     bool
	At        string
}

const xrefRulesQuery = `query($n: Int!) { repository(owner: "acme", name: "widgets") { issueOrPullRequest(number: $n) {
  ... on Issue { timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: 50) { totalCount nodes { ...x } } }
  ... on PullRequest { timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: 50) { totalCount nodes { ...x } } } } } }
fragment x on CrossReferencedEvent { isCrossRepository willCloseTarget referencedAt actor { login }
  source { __typename ... on Issue { number } ... on PullRequest { number } } }`

// xrefsOf reads the last 50 cross-references of issue n of acme/widgets
// and their totalCount.
func xrefsOf(t *testing.T, f *ghfake.Fake, tok string, n int) ([]xrefSummary, float64) {
	t.Helper()
	got := post(t, f, tok, xrefRulesQuery, map[string]any{"n": n})
	if errs := got["errors"]; errs != nil {
		t.Fatalf("errors: %v", errs)
	}
	conn := dig(got, "data", "repository", "issueOrPullRequest", "timelineItems")
	nodes, _ := dig(conn, "nodes").([]any)
	var out []xrefSummary
	for _, n := range nodes {
		out = append(out, xrefSummary{Source: dig(n, "source", "__typename").(string), Number: dig(n, "source", "number").(float64),
			Actor: dig(n, "actor", "login").(string), WillClose: dig(n, "willCloseTarget").(bool),
			Cross: dig(n, "isCrossRepository").(bool), At: dig(n, "referencedAt").(string)})
	}
	total, _ := dig(conn, "totalCount").(float64)
	return out, total
}

func xrefAt(d time.Duration) string { return xrefStart.Add(d).Format(time.RFC3339) }

func TestCrossReferenceRules(t *testing.T) {
	tests := []struct {
		name  string
		story func(f *ghfake.Fake, repo *ghfake.Repo)
		want  []xrefSummary
	}{
		{"a PR body naming the unit", func(_ *ghfake.Fake, repo *ghfake.Repo) {
			openPR(repo, "alice", "b1", "main", "Work-unit: #1")
		}, []xrefSummary{{"PullRequest", 2, "alice", false, false, xrefAt(0)}}},
		{"a PR body edited to name it, by its editor at the edit", func(f *ghfake.Fake, repo *ghfake.Repo) {
			pr := openPR(repo, "alice", "b1", "main", "no unit yet")
			f.Advance(time.Hour)
			pr.Edit("bob", "Work-unit: #1")
		}, []xrefSummary{{"PullRequest", 2, "bob", false, false, xrefAt(time.Hour)}}},
		{"a comment on another issue", func(_ *ghfake.Fake, repo *ghfake.Repo) {
			repo.OpenIssue("bob", "Other", "").Comment("carol", "related to #1")
		}, []xrefSummary{{"Issue", 2, "carol", false, false, xrefAt(0)}}},
		{"an edited comment", func(f *ghfake.Fake, repo *ghfake.Repo) {
			c := repo.OpenIssue("bob", "Other", "").Comment("carol", "related")
			f.Advance(time.Minute)
			c.Edit("carol", "related to #1")
		}, []xrefSummary{{"Issue", 2, "carol", false, false, xrefAt(time.Minute)}}},
		{"a review body", func(_ *ghfake.Fake, repo *ghfake.Repo) {
			openPR(repo, "alice", "b1", "main", "").SubmitReview("bob", "COMMENTED", "belongs to #1")
		}, []xrefSummary{{"PullRequest", 2, "bob", false, false, xrefAt(0)}}},
		{"an issue mentioning itself", func(_ *ghfake.Fake, repo *ghfake.Repo) {
			repo.Issue(1).Comment("acme", "see #1")
			repo.Issue(1).Edit("acme", "this is #1")
		}, nil},
		{"a mention taken out again", func(_ *ghfake.Fake, repo *ghfake.Repo) {
			openPR(repo, "alice", "b1", "main", "Work-unit: #1").Edit("alice", "nothing")
		}, []xrefSummary{{"PullRequest", 2, "alice", false, false, xrefAt(0)}}},
		{"one event per source: the first mention", func(f *ghfake.Fake, repo *ghfake.Repo) {
			pr := openPR(repo, "alice", "b1", "main", "Work-unit: #1")
			f.Advance(time.Minute)
			pr.Comment("bob", "still #1, see https://github.com/acme/widgets/issues/1")
		}, []xrefSummary{{"PullRequest", 2, "alice", false, false, xrefAt(0)}}},
		{"two PRs, oldest first", func(f *ghfake.Fake, repo *ghfake.Repo) {
			openPR(repo, "alice", "b1", "main", "Work-unit: #1")
			f.Advance(time.Minute)
			openPR(repo, "bob", "b2", "main", "Work-unit: #1")
		}, []xrefSummary{{"PullRequest", 2, "alice", false, false, xrefAt(0)}, {"PullRequest", 3, "bob", false, false, xrefAt(time.Minute)}}},
		{"a closing keyword into the default branch", func(_ *ghfake.Fake, repo *ghfake.Repo) {
			openPR(repo, "alice", "b1", "main", "Fixes #1")
		}, []xrefSummary{{"PullRequest", 2, "alice", true, false, xrefAt(0)}}},
		{"a closing keyword into another branch", func(_ *ghfake.Fake, repo *ghfake.Repo) {
			repo.Branch("release", "main")
			openPR(repo, "alice", "b1", "release", "Fixes #1")
		}, []xrefSummary{{"PullRequest", 2, "alice", false, false, xrefAt(0)}}},
		{"a closing keyword in an issue", func(_ *ghfake.Fake, repo *ghfake.Repo) {
			repo.OpenIssue("alice", "Other", "Fixes #1")
		}, []xrefSummary{{"Issue", 2, "alice", false, false, xrefAt(0)}}},
		{"a mention in code", func(_ *ghfake.Fake, repo *ghfake.Repo) {
			openPR(repo, "alice", "b1", "main", "```\nWork-unit: #1\n```\nand `#1`")
		}, nil},
		{"another repository", func(f *ghfake.Fake, _ *ghfake.Repo) {
			f.CreateRepo("acme/gadgets").OpenIssue("alice", "Gadget", "needs acme/widgets#1")
		}, []xrefSummary{{"Issue", 1, "alice", false, true, xrefAt(0)}}},
		{"a repository the caller cannot see", func(f *ghfake.Fake, _ *ghfake.Repo) {
			other := f.CreateRepo("zed/secret")
			other.SetPrivate(true)
			other.OpenIssue("zed", "Hidden", "https://github.com/acme/widgets/issues/1")
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, repo, tok := xrefRepo(t)
			tt.story(f, repo)
			got, total := xrefsOf(t, f, tok, 1)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("cross-references of #1 (-want +got):\n%s", diff)
			}
			if total != float64(len(tt.want)) {
				t.Errorf("totalCount = %v, want %d", total, len(tt.want))
			}
		})
	}
}

// TestCrossReferenceToPullRequest: a pull request is a target too.
func TestCrossReferenceToPullRequest(t *testing.T) {
	f, repo, tok := xrefRepo(t)
	openPR(repo, "alice", "b1", "main", "")
	repo.OpenIssue("bob", "Follow-up", "after #2")
	want := []xrefSummary{{"Issue", 3, "bob", false, false, xrefAt(0)}}
	got, _ := xrefsOf(t, f, tok, 2)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("cross-references of #2 (-want +got):\n%s", diff)
	}
}

func TestCrossReferencePagination(t *testing.T) {
	f, repo, tok := xrefRepo(t)
	for i := 0; i < 55; i++ {
		repo.OpenIssue("alice", "Mention", "see #1")
	}
	got, total := xrefsOf(t, f, tok, 1)
	if total != 55 || len(got) != 50 || got[0].Number != 7 || got[49].Number != 56 {
		t.Fatalf("last: 50 = %d of %v events, #%v..#%v; want 50 of 55, #7..#56", len(got), total, got[0].Number, got[len(got)-1].Number)
	}
	page := post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { issue(number: 1) {
  timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: 50) { totalCount pageInfo { hasPreviousPage hasNextPage } }
  skipped: timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], first: 1, skip: 5) { nodes { ... on CrossReferencedEvent { source { ... on Issue { number } } } } } } } }`, nil)
	issue := dig(page, "data", "repository", "issue")
	for _, c := range []struct {
		path []any
		want any
	}{
		{[]any{"timelineItems", "totalCount"}, float64(55)},
		{[]any{"timelineItems", "pageInfo", "hasPreviousPage"}, true},
		{[]any{"timelineItems", "pageInfo", "hasNextPage"}, false},
		{[]any{"skipped", "nodes", 0, "source", "number"}, float64(7)},
	} {
		if v := dig(issue, c.path...); v != c.want {
			t.Errorf("%v = %v, want %v (errors %v)", c.path, v, c.want, page["errors"])
		}
	}
}

// TestCrossReferenceVisibility: an event whose source the caller cannot see
// is left out, not lost: a collaborator of its repository sees it.
func TestCrossReferenceVisibility(t *testing.T) {
	f, _, tok := xrefRepo(t)
	secret := f.CreateRepo("zed/secret")
	secret.SetPrivate(true)
	secret.Grant("carol", "read")
	secret.OpenIssue("zed", "Hidden", "https://github.com/acme/widgets/issues/1")
	if got, total := xrefsOf(t, f, tok, 1); len(got) != 0 || total != 0 {
		t.Errorf("the acme installation sees %v (total %v)", got, total)
	}
	want := []xrefSummary{{"Issue", 1, "zed", false, true, xrefAt(0)}}
	got, _ := xrefsOf(t, f, f.UserToken("carol"), 1)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("carol sees (-want +got):\n%s", diff)
	}
}
