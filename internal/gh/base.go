package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// AttachBase reads the base policy f extends, when it is a readable,
// valid file with "extends", into f.Base (ReadBase): one read for each
// config file read, so one per evaluation. A file that extends nothing, or
// cannot be parsed (its checks fail on that), reads nothing.
func (in *Installation) AttachBase(ctx context.Context, f *snapshot.ConfigFile) error {
	if !f.Found || f.Truncated || f.Unreadable != "" {
		return nil
	}
	file, err := config.ParseFile(config.DefaultPath, []byte(f.Text))
	if err != nil || file.Config.Extends == "" {
		return nil
	}
	b, err := in.ReadBase(ctx, file.Config.Extends)
	if err != nil {
		return err
	}
	f.Base = &b
	return nil
}

// ReadBase reads the base policy ref names ("OWNER/REPO:PATH") from its
// repository's default branch through the Contents API, conditionally: the
// installation's transport sends the ETag of the last answer as
// If-None-Match, and GitHub's 304, which does not count against the primary
// rate limit, replays that answer. Every failure to read it is the
// BaseFile's Unreadable reason (not found, no access, not a file, too large,
// an API error), which refuses the policy; only a rate limit or a cancelled
// context is an error, so the evaluation is retried later.
//
// https://docs.github.com/rest/repos/contents#get-repository-content
// https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate
func (in *Installation) ReadBase(ctx context.Context, ref string) (snapshot.BaseFile, error) {
	out := snapshot.BaseFile{Ref: ref}
	r, err := config.ParseRef(ref)
	if err != nil {
		out.Unreadable = err.Error()
		return out, nil
	}
	file, dir, _, err := in.rest.Repositories.GetContents(ctx, r.Owner, r.Repo, r.Path, nil)
	if err != nil {
		out.Unanswered = Unreachable(err)
		out.Unreadable, err = baseError(ctx, r, err)
		return out, err
	}
	out.Text, out.Unreadable = baseText(r, file, dir)
	return out, nil
}

// baseError is why a failed read leaves the base unreadable, or the error
// that is retried instead (a rate limit, a cancelled context).
func baseError(ctx context.Context, r config.Ref, err error) (string, error) {
	if ctx.Err() != nil || asRateLimit(err) != nil {
		return "", fmt.Errorf("read base policy %s: %w", r, err)
	}
	var er *github.ErrorResponse
	if errors.As(err, &er) && er.Response != nil {
		switch er.Response.StatusCode {
		case http.StatusNotFound:
			return fmt.Sprintf("%s is not on the default branch of %s/%s, or the App may not see that repository", r.Path, r.Owner, r.Repo), nil
		case http.StatusForbidden:
			return fmt.Sprintf("the App may not read %s/%s (grant it Contents: read there): %s", r.Owner, r.Repo, er.Message), nil
		}
	}
	return fmt.Sprintf("GitHub did not answer the read of %s: %v", r, err), nil
}

// baseText is the content of the file the Contents API answered, or why
// it is not a usable file.
func baseText(r config.Ref, file *github.RepositoryContent, dir []*github.RepositoryContent) (string, string) {
	switch {
	case file == nil && dir != nil:
		return "", fmt.Sprintf("%s is a directory in %s/%s, not a file", r.Path, r.Owner, r.Repo)
	case file == nil || file.GetType() != "file":
		return "", fmt.Sprintf("%s in %s/%s is not a regular file", r.Path, r.Owner, r.Repo)
	case file.GetEncoding() == "none" || file.GetSize() > config.MaxSize:
		return "", fmt.Sprintf("%s in %s/%s is larger than a config file may be (%d bytes)", r.Path, r.Owner, r.Repo, config.MaxSize)
	}
	text, err := file.GetContent()
	if err != nil {
		return "", fmt.Sprintf("%s in %s/%s: %v", r.Path, r.Owner, r.Repo, err)
	}
	return text, ""
}
