package action

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/negcontrol"
)

// persistedNote is the job summary's note when a command starts in a
// workspace whose git config holds extra HTTP headers.
const persistedNote = "The workspace's git config holds %s, where `actions/checkout` persists the job's token " +
	"unless `persist-credentials: false` is given. git in the commands aepgate starts sends no such header, " +
	"but a command can still read the file: set `persist-credentials: false` on `actions/checkout`."

// notePersisted says once, in the job summary and as a workflow warning,
// that the workspace's git config holds an extra HTTP header, when a
// command is about to start there.
func (r *runner) notePersisted(ctx context.Context, root string) {
	if r.persistedRead {
		return
	}
	r.persistedRead = true
	keys := isolate.HeaderKeys(ctx, root)
	if len(keys) == 0 {
		return
	}
	msg := fmt.Sprintf(persistedNote, "`"+strings.Join(keys, "`, `")+"`")
	r.notes = append(r.notes, msg)
	r.gha.Warningf("aepgate: %s", msg)
}

// noteBeforeStarting wraps the Options that start commands so that each
// first says whether the token persisted in the workspace (notePersisted).
func (r *runner) noteBeforeStarting() {
	controls, commands, verify := r.o.RunControls, r.o.RunCommands, r.o.RunVerify
	r.o.RunControls = func(ctx context.Context, root string, cs []config.NegativeControl) ([]negcontrol.Result, error) {
		r.notePersisted(ctx, root)
		return controls(ctx, root, cs)
	}
	r.o.RunCommands = func(ctx context.Context, root string, cmds []string) ([]isolate.Outcome, error) {
		r.notePersisted(ctx, root)
		return commands(ctx, root, cmds)
	}
	r.o.RunVerify = func(ctx context.Context, root string, cmds []string) ([]isolate.Outcome, error) {
		r.notePersisted(ctx, root)
		return verify(ctx, root, cmds)
	}
}
