package increment

import (
	"context"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// holds are the kept decisions that may HOLD an increment: the control
// issue's and its stories' (store reads only).
type holds struct {
	kept   []gatelog.Kept
	prefix string
}

// readHolds reads the kept decisions of the control issue and of stories.
func (j *Judge) readHolds(ctx context.Context, in Input, stories []int, prefix string) (holds, error) {
	rows, err := j.Store.KeptDecisions(ctx, in.Owner+"/"+in.Repo)
	if err != nil {
		return holds{}, err
	}
	kept, err := verdict.KeptHolds(rows, in.Owner+"/"+in.Repo, stories...)
	return holds{prefix: prefix, kept: kept}, err
}

// at is the reason of the HOLD that applied when comment c was posted:
// the kept holds and resumes made before it, replayed in order (the same
// second: the lower ID first); "" when none did.
func (h holds) at(c incrementrules.Comment) string {
	var before []gatelog.Kept
	for _, k := range h.kept {
		if k.Item.Created.Before(c.Created) || k.Item.Created.Equal(c.Created) && k.Item.ID < c.ID {
			before = append(before, k)
		}
	}
	return verdict.HoldOn(before, 0, h.prefix)
}
