package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v62/github"
)

// React adds a reaction (e.g. "+1", "-1") to an issue or pull-request
// comment; GitHub answers 200 when the App had already added it.
//
// https://docs.github.com/rest/reactions/reactions#create-reaction-for-an-issue-comment
func (in *Installation) React(ctx context.Context, owner, repo string, commentID int64, content string) error {
	if _, _, err := in.rest.Reactions.CreateIssueCommentReaction(ctx, owner, repo, commentID, content); err != nil {
		return classify(fmt.Sprintf("react %s to comment %d", content, commentID), err)
	}
	return nil
}

// Comment adds a comment to issue or pull request number and returns its ID.
//
// https://docs.github.com/rest/issues/comments#create-an-issue-comment
func (in *Installation) Comment(ctx context.Context, owner, repo string, number int, body string) (int64, error) {
	c, _, err := in.rest.Issues.CreateComment(ctx, owner, repo, number, &github.IssueComment{Body: github.String(body)})
	if err != nil {
		return 0, classify(fmt.Sprintf("comment on %s/%s#%d", owner, repo, number), err)
	}
	return c.GetID(), nil
}

// EditComment replaces the body of comment id.
//
// https://docs.github.com/rest/issues/comments#update-an-issue-comment
func (in *Installation) EditComment(ctx context.Context, owner, repo string, id int64, body string) error {
	if _, _, err := in.rest.Issues.EditComment(ctx, owner, repo, id, &github.IssueComment{Body: github.String(body)}); err != nil {
		return classify(fmt.Sprintf("edit comment %d", id), err)
	}
	return nil
}

// RequestReviews asks logins to review pull request number.
//
// https://docs.github.com/rest/pulls/review-requests#request-reviewers-for-a-pull-request
func (in *Installation) RequestReviews(ctx context.Context, owner, repo string, number int, logins []string) error {
	if _, _, err := in.rest.PullRequests.RequestReviewers(ctx, owner, repo, number, github.ReviewersRequest{Reviewers: logins}); err != nil {
		return classify(fmt.Sprintf("request reviews on %s/%s#%d", owner, repo, number), err)
	}
	return nil
}

// CreateControlIssue opens the repository's control issue, labelled
// ControlLabel (the label is created first when missing), and returns its
// number and web address.
//
// https://docs.github.com/rest/issues/issues#create-an-issue
func (in *Installation) CreateControlIssue(ctx context.Context, owner, repo, title, body string) (int, string, error) {
	_, _, err := in.rest.Issues.CreateLabel(ctx, owner, repo, &github.Label{Name: github.String(ControlLabel), Color: github.String("5319e7"),
		Description: github.String("aepgate: project-wide HOLD and project gates")})
	var ge *github.ErrorResponse
	if err != nil && !(errors.As(err, &ge) && ge.Response != nil && ge.Response.StatusCode == http.StatusUnprocessableEntity) {
		return 0, "", classify("create the control label", err) // 422: it exists already
	}
	is, _, err := in.rest.Issues.Create(ctx, owner, repo, &github.IssueRequest{Title: github.String(title), Body: github.String(body), Labels: &[]string{ControlLabel}})
	if err != nil {
		return 0, "", classify(fmt.Sprintf("create the control issue of %s/%s", owner, repo), err)
	}
	return is.GetNumber(), is.GetHTMLURL(), nil
}
