package deploy

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/deployrules"
	"github.com/aepgate/aepgate/protocol/login"
)

// openGate asks the owner on the control issue, once: the App's comment
// naming the gate's id is the question, and a thread that already holds
// it gets no second one. A repository without a control issue gets one.
func (j *Judge) openGate(ctx context.Context, in Input, d store.Deploy, f facts) error {
	id := deployrules.GateID(d.Environment, d.RunID)
	number := 0
	if c := f.control; c != nil {
		number = c.Number
		for _, cm := range c.Thread.Comments {
			if login.Equal(cm.Author.Login, j.AppLogin) && strings.Contains(cm.Body, "`"+id+"`") {
				return nil
			}
		}
	}
	if number == 0 {
		n, _, err := j.Src.CreateControlIssue(ctx, in.Owner, in.Repo, verdict.ControlIssueTitle, verdict.ControlIssueBody)
		if err != nil {
			return fmt.Errorf("open the control issue for gate %s: %w", id, err)
		}
		number = n
	}
	if _, err := j.Src.Comment(ctx, in.Owner, in.Repo, number, gateComment(d, id, f.Config.CommandPrefix)); err != nil {
		return fmt.Errorf("open gate %s: %w", id, err)
	}
	return nil
}

// gateComment is the question the owner answers.
func gateComment(d store.Deploy, id, prefix string) string {
	if prefix == "" {
		prefix = command.DefaultPrefix
	}
	g := deployrules.Gate(request(d), "")
	return fmt.Sprintf("**Owner gate `%s`** (human product judgement, effect: deploy)\n\n%s\n\n"+
		"GitHub holds workflow run %d until you answer here, for at most %d days (then aepgate rejects it):\n\n"+
		"- `%s resolve %s approve` deploys `%s` to `%s`;\n- `%s resolve %s reject` rejects the deployment.\n\n"+
		"Only an owner listed in the repository config, with write access, answers; a HOLD rejects it.\n",
		id, g.Question, d.RunID, int(deployrules.MaxWait.Hours()/24), prefix, id, d.SHA, d.Environment, prefix, id)
}
