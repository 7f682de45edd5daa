package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/google/go-github/v62/github"
)

// permissionLevel is the body of GET collaborators/{user}/permission:
// go-github v62 decodes permission only, not role_name.
type permissionLevel struct {
	Permission string `json:"permission"`
	RoleName   string `json:"role_name"`
}

// baseRoles are the repository roles GitHub defines; a custom role's name
// is none of them.
var baseRoles = map[string]bool{"admin": true, "maintain": true, "write": true, "triage": true, "read": true, "none": true}

// Role is a user's role on a repository as GitHub reports it right now:
// admin, maintain, write, triage, read or none. A custom repository role
// reads as its base permission (admin, write, read or none), the part of
// it GitHub states. A user who is no collaborator (GitHub answers 404) is
// none; any other error is returned, and the caller must never read it
// as a role.
//
// https://docs.github.com/rest/collaborators/collaborators#get-repository-permissions-for-a-user
func (in *Installation) Role(ctx context.Context, owner, repo, login string) (string, error) {
	what := fmt.Sprintf("role of %s on %s/%s", login, owner, repo)
	req, err := in.rest.NewRequest(http.MethodGet, fmt.Sprintf("repos/%s/%s/collaborators/%s/permission",
		url.PathEscape(owner), url.PathEscape(repo), url.PathEscape(login)), nil)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	var p permissionLevel
	if _, err := in.rest.Do(ctx, req, &p); err != nil {
		var ge *github.ErrorResponse
		if errors.As(err, &ge) && ge.Response != nil && ge.Response.StatusCode == http.StatusNotFound {
			return "none", nil
		}
		return "", classify(what, err)
	}
	if baseRoles[p.RoleName] {
		return p.RoleName, nil
	}
	if p.Permission == "" {
		return "", fmt.Errorf("%s: GitHub answered with no permission", what)
	}
	return p.Permission, nil
}
