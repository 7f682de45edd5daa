package gh

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// IssueClosure is what the App reads when an issue is closed or reopened:
// the repository config on the default branch and the issue as GitHub
// holds it now (a redelivered or reordered event is judged on the state,
// not on the payload).
type IssueClosure struct {
	Config snapshot.ConfigFile
	// Found is false when the number is no issue (a pull request, or gone).
	Found bool
	Open  bool
	// StateReason is GitHub's state_reason in lower case (completed,
	// not_planned, duplicate, reopened; "" when none).
	StateReason string
	Body        string
	// Editor is who last edited the body ("" when never edited or GitHub
	// does not say).
	Editor string
	// ClosedAt is GitHub's closedAt (RFC 3339; "" while open): it names one
	// closure, so the App comments once on each.
	ClosedAt string
	// MergedAttempts are the merged same-repository pull requests that
	// mention the issue and name it as their sole unit: a closure by their
	// merge comes before the readback and certificate that may count it.
	MergedAttempts []int
}

// closureXrefsPage is how many of the newest cross-references are read.
const closureXrefsPage = 50

var closureQuery = `query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) {
  defaultBranchRef { target { ... on Commit { oid file(path: "` + ConfigPath + `") { object { ... on Blob { text isTruncated } } } } } }
  issue(number: $number) { state stateReason body editor { login } closedAt
    timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: ` + fmt.Sprint(closureXrefsPage) + `) { nodes { ... on CrossReferencedEvent { isCrossRepository
      source { __typename ... on PullRequest { number body mergedAt } } } } } }
} }`

type closureData struct {
	Repository *struct {
		DefaultBranchRef *struct {
			Target struct {
				Oid  string
				File *struct {
					Object *struct {
						Text        *string
						IsTruncated bool
					}
				}
			}
		}
		Issue *closureIssue
	}
}

// closureIssue is the issue of closureQuery.
type closureIssue struct {
	State, StateReason, Body string
	Editor                   *struct{ Login string }
	ClosedAt                 *string
	TimelineItems            struct {
		Nodes []struct {
			IsCrossRepository bool
			Source            *struct {
				Typename string `json:"__typename"`
				Number   int
				Body     string
				MergedAt *string
			}
		}
	}
}

// IssueClosure reads the config and one issue's state in one GraphQL query.
//
// https://docs.github.com/graphql/reference/objects#issue
func (in *Installation) IssueClosure(ctx context.Context, owner, repo string, number int) (*IssueClosure, error) {
	var data closureData
	vars := map[string]any{"owner": owner, "name": repo, "number": number}
	if err := graphQL(ctx, in.hc, in.graphqlURL, closureQuery, vars, &data); err != nil {
		return nil, fmt.Errorf("closure of %s/%s#%d: %w", owner, repo, number, err)
	}
	r := data.Repository
	if r == nil {
		return nil, fmt.Errorf("closure of %s/%s#%d: the repository is not visible to the App", owner, repo, number)
	}
	out := &IssueClosure{}
	if d := r.DefaultBranchRef; d != nil {
		out.Config.CommitSHA = d.Target.Oid
		if f := d.Target.File; f != nil && f.Object != nil && f.Object.Text != nil {
			out.Config.Found, out.Config.Text, out.Config.Truncated = true, *f.Object.Text, f.Object.IsTruncated
		}
	}
	if is := r.Issue; is != nil {
		out.Found, out.Open, out.Body = true, is.State == "OPEN", is.Body
		out.StateReason = strings.ToLower(is.StateReason)
		if is.Editor != nil {
			out.Editor = is.Editor.Login
		}
		if is.ClosedAt != nil {
			out.ClosedAt = *is.ClosedAt
		}
		out.MergedAttempts = mergedAttempts(is, owner+"/"+repo, number)
	}
	if err := in.AttachBase(ctx, &out.Config); err != nil {
		return nil, fmt.Errorf("closure of %s/%s#%d: %w", owner, repo, number, err)
	}
	return out, nil
}

// mergedAttempts are the merged same-repository pull requests among is's
// cross-references whose one work unit is issue number (workunit.SoleUnit).
func mergedAttempts(is *closureIssue, repo string, number int) []int {
	var out []int
	for _, n := range is.TimelineItems.Nodes {
		src := n.Source
		if n.IsCrossRepository || src == nil || src.Typename != "PullRequest" || src.MergedAt == nil {
			continue
		}
		if u, ok := workunit.SoleUnit(src.Body, repo); ok && u == number && !slices.Contains(out, src.Number) {
			out = append(out, src.Number)
		}
	}
	return out
}

// ReopenIssue reopens an issue.
//
// https://docs.github.com/rest/issues/issues#update-an-issue
func (in *Installation) ReopenIssue(ctx context.Context, owner, repo string, number int) error {
	if _, _, err := in.rest.Issues.Edit(ctx, owner, repo, number, &github.IssueRequest{State: github.String("open")}); err != nil {
		return classify(fmt.Sprintf("reopen %s/%s#%d", owner, repo, number), err)
	}
	return nil
}
