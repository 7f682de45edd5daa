package gh

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/protocol/gitsha"
)

// BlameLine is the commit that introduced one line of a file, with its
// author's e-mail.
type BlameLine struct {
	Commit, AuthorMail string
}

const blameQuery = `query($owner: String!, $name: String!, $oid: GitObjectID!, $path: String!) {
  repository(owner: $owner, name: $name) {
    object(oid: $oid) {
      ... on Commit {
        blame(path: $path) {
          ranges { startingLine endingLine commit { oid author { email } } }
        }
      }
    }
  }
}`

// Blame returns, for each 1-based line of path at commit sha in
// owner/repo, the commit that introduced it: GitHub's blame, which needs
// no local history (a shallow clone has none to blame with).
//
// https://docs.github.com/graphql/reference/objects#blame
func (a *ActionClient) Blame(ctx context.Context, owner, repo, sha, path string) (map[int]BlameLine, error) {
	var data struct {
		Repository *struct {
			Object *struct {
				Blame *struct {
					Ranges []struct {
						StartingLine, EndingLine int
						Commit                   struct {
							Oid    string
							Author struct{ Email string }
						}
					}
				}
			}
		}
	}
	vars := map[string]any{"owner": owner, "name": repo, "oid": sha, "path": path}
	op := fmt.Sprintf("blame %s at %s", path, gitsha.Short(sha))
	if err := graphQL(ctx, a.client.Client(), GraphQLURL(a.client.BaseURL), blameQuery, vars, &data); err != nil {
		return nil, fmt.Errorf("%s (the token needs contents: read): %w", op, err)
	}
	if data.Repository == nil || data.Repository.Object == nil || data.Repository.Object.Blame == nil {
		return nil, fmt.Errorf("%s: GitHub returned no commit %s in %s/%s", op, sha, owner, repo)
	}
	out := map[int]BlameLine{}
	for _, r := range data.Repository.Object.Blame.Ranges {
		if r.StartingLine < 1 || r.EndingLine < r.StartingLine {
			return nil, fmt.Errorf("%s: GitHub returned the range %d-%d", op, r.StartingLine, r.EndingLine)
		}
		l := BlameLine{Commit: r.Commit.Oid, AuthorMail: r.Commit.Author.Email}
		for n := r.StartingLine; n <= r.EndingLine; n++ {
			out[n] = l
		}
	}
	return out, nil
}
