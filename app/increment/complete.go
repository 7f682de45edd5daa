package increment

import (
	"context"

	"github.com/aepgate/aepgate/checks"
)

// Deployable answers the deployment judge's require: increment
// (deploy.Increments): a commit is the integrated candidate of a complete
// increment when it carries an aepgate/increment run by this App (GitHub
// filters by the App's ID) whose increment certificate verifies and names
// the commit as its integratedSha.
type Deployable struct{ Checks Checks }

// Complete reports whether sha is a complete increment's integrated
// commit.
func (d Deployable) Complete(ctx context.Context, owner, repo, sha string) (bool, error) {
	runs, err := d.Checks.AppCheckRuns(ctx, owner, repo, sha, checks.NameIncrement)
	if err != nil {
		return false, err
	}
	for _, r := range runs {
		if _, rs := checks.VerifyIncrementRun(runOf(r, sha)); len(rs) == 0 {
			return true, nil
		}
	}
	return false, nil
}
