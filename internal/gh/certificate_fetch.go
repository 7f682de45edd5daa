package gh

import (
	"context"
	"fmt"
	"net/http"

	"github.com/google/go-github/v62/github"
)

// maxCheckRunPages bounds the pages ListCheckRunsNamed reads (100 runs a
// page): more runs of one name on one commit than that is refused rather
// than read in part.
const maxCheckRunPages = 10

// CheckRunRecord is one check run as GitHub returned it, with the App that
// wrote it: GitHub sets app from the credential that created the run, so
// AppID and AppSlug say who wrote it, whatever its name claims.
type CheckRunRecord struct {
	ID         int64
	Name       string
	HeadSHA    string
	ExternalID string
	Status     string
	Conclusion string
	Title      string
	Summary    string
	// Text is the output text: a signed certificate's DSSE envelope.
	Text    string
	HTMLURL string
	// AppID and AppSlug identify the writing App (GitHub Actions is the
	// App "github-actions", ID 15368 on github.com); zero and empty when
	// GitHub sent no app.
	AppID   int64
	AppSlug string
}

// ListCheckRunsNamed returns every check run called name on commit sha in
// owner/repo, of every App and every attempt (filter=all), in GitHub's
// order (newest first). Runs whose name or head SHA GitHub answered
// differently are left out. It reads at most maxCheckRunPages pages and
// returns an error rather than a partial list. client may be anonymous:
// GitHub serves a public repository's check runs without a token.
//
// https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference
func ListCheckRunsNamed(ctx context.Context, client *github.Client, owner, repo, sha, name string) ([]CheckRunRecord, error) {
	opts := &github.ListCheckRunsOptions{
		CheckName:   github.String(name),
		Filter:      github.String("all"),
		ListOptions: github.ListOptions{PerPage: 100},
	}
	var out []CheckRunRecord
	for page := 1; ; page++ {
		res, resp, err := client.Checks.ListCheckRunsForRef(ctx, owner, repo, sha, opts)
		if err != nil {
			return nil, classify(fmt.Sprintf("list check runs %q on %s", name, sha), err)
		}
		for _, cr := range res.CheckRuns {
			if cr.GetName() == name && cr.GetHeadSHA() == sha {
				out = append(out, checkRunRecord(cr))
			}
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		if page == maxCheckRunPages {
			return nil, fmt.Errorf("list check runs %q on %s: more than %d runs", name, sha, maxCheckRunPages*100)
		}
		opts.Page = resp.NextPage
	}
}

// checkRunRecord copies what a reader of a check run needs out of go-github's type.
func checkRunRecord(cr *github.CheckRun) CheckRunRecord {
	return CheckRunRecord{
		ID: cr.GetID(), Name: cr.GetName(), HeadSHA: cr.GetHeadSHA(), ExternalID: cr.GetExternalID(),
		Status: cr.GetStatus(), Conclusion: cr.GetConclusion(), HTMLURL: cr.GetHTMLURL(),
		Title: cr.GetOutput().GetTitle(), Summary: cr.GetOutput().GetSummary(),
		Text: cr.GetOutput().GetText(), AppID: cr.GetApp().GetID(), AppSlug: cr.GetApp().GetSlug(),
	}
}

// NewReadClient is NewTokenClient for reads that may go without
// credentials: an empty token gives an anonymous client, which GitHub
// serves public repositories' reads (at a lower rate limit).
func NewReadClient(baseURL, token string, hc *http.Client) (*github.Client, error) {
	if token == "" {
		return NewClient(baseURL, hc)
	}
	return NewTokenClient(baseURL, token, hc)
}
