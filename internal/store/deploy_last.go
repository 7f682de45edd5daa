package store

import (
	"context"
	"fmt"
)

// DeployApproved is the state of a request the App approved.
const DeployApproved = "approved"

// LastApprovedDeploy is the newest request to environment in repo that the
// App approved (by the time it was first seen), and false when it approved
// none: the commit the environment last received through aepgate.
func (db *DB) LastApprovedDeploy(ctx context.Context, repo, environment string) (Deploy, bool, error) {
	got, err := db.deploys(ctx, `WHERE repo = $1 AND environment = $2 AND state = $3`, repo, environment, DeployApproved)
	if err != nil {
		return Deploy{}, false, fmt.Errorf("last approved deploy %s %s: %w", repo, environment, err)
	}
	if len(got) == 0 {
		return Deploy{}, false, nil
	}
	return got[len(got)-1], true, nil
}
