package board

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/boardview"
)

// Clients are the App's GitHub clients (gh.Clients).
type Clients interface {
	Installation(id int64) (*gh.Installation, error)
}

// Installations is Boards.GitHub on c.
func Installations(c Clients) func(id int64) (GitHub, error) {
	return func(id int64) (GitHub, error) {
		in, err := c.Installation(id)
		if err != nil {
			return nil, err
		}
		return in, nil
	}
}

// Repos is Web.Repos on c: the repositories installation id covers, as
// the App's installation token lists them.
func Repos(c Clients) func(ctx context.Context, id int64) ([]string, error) {
	return func(ctx context.Context, id int64) ([]string, error) {
		in, err := c.Installation(id)
		if err != nil {
			return nil, fmt.Errorf("installation %d: %w", id, err)
		}
		repos, err := in.Repositories(ctx)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(repos))
		for i, r := range repos {
			out[i] = r.FullName()
		}
		return out, nil
	}
}

// SaveFact keeps a pull request's board fact (Boards.SaveFact).
func (i Installation) SaveFact(ctx context.Context, repo string, f boardview.Fact) (bool, error) {
	return i.b.SaveFact(ctx, repo, f)
}

// Schedule asks for one update of owner/repo's board (Boards.Schedule).
func (i Installation) Schedule(ctx context.Context, owner, repo string) error {
	return i.b.Schedule(ctx, i.id, owner, repo)
}
