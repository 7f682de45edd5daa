package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/checks"
)

// CreateBoardIssue opens the repository's board issue with body, labelled
// checks.BoardLabel (the label is created first when missing).
//
// https://docs.github.com/rest/issues/issues#create-an-issue
func (in *Installation) CreateBoardIssue(ctx context.Context, owner, repo, body string) (*BoardIssue, error) {
	_, _, err := in.rest.Issues.CreateLabel(ctx, owner, repo, &github.Label{Name: github.String(checks.BoardLabel), Color: github.String("0e8a16"),
		Description: github.String("aepgate: the owner's board, kept by the App")})
	var ge *github.ErrorResponse
	if err != nil && !(errors.As(err, &ge) && ge.Response != nil && ge.Response.StatusCode == http.StatusUnprocessableEntity) {
		return nil, classify("create the board label", err) // 422: it exists already
	}
	is, _, err := in.rest.Issues.Create(ctx, owner, repo, &github.IssueRequest{Title: github.String(checks.BoardTitle), Body: github.String(body),
		Labels: &[]string{checks.BoardLabel}})
	if err != nil {
		return nil, classify(fmt.Sprintf("create the board issue of %s/%s", owner, repo), err)
	}
	return &BoardIssue{NodeID: is.GetNodeID(), Number: is.GetNumber(), URL: is.GetHTMLURL(), Body: is.GetBody()}, nil
}

// pinIssueMutation pins one issue by node ID.
const pinIssueMutation = `mutation($id: ID!) { pinIssue(input: {issueId: $id}) { issue { number } } }`

// PinIssue pins the issue with node ID id to its repository's issue list.
//
// https://docs.github.com/graphql/reference/mutations#pinissue
func (in *Installation) PinIssue(ctx context.Context, id string) error {
	var out struct {
		PinIssue *struct{ Issue *struct{ Number int } }
	}
	if err := graphQL(ctx, in.hc, in.graphqlURL, pinIssueMutation, map[string]any{"id": id}, &out); err != nil {
		return fmt.Errorf("pin issue %s: %w", id, err)
	}
	return nil
}

// EditIssueBody replaces the body of issue number.
//
// https://docs.github.com/rest/issues/issues#update-an-issue
func (in *Installation) EditIssueBody(ctx context.Context, owner, repo string, number int, body string) error {
	if _, _, err := in.rest.Issues.Edit(ctx, owner, repo, number, &github.IssueRequest{Body: github.String(body)}); err != nil {
		return classify(fmt.Sprintf("edit %s/%s#%d", owner, repo, number), err)
	}
	return nil
}
