package checks

import (
	"fmt"

	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// stageIcons mark an increment's stage on the board.
var stageIcons = map[incrementrules.Stage]string{
	incrementrules.Building: "🏗️", incrementrules.Integrating: "🔗", incrementrules.Accepting: "🙋", incrementrules.Complete: "🏁",
}

// stageText is an increment's stage for its heading line, e.g. "🏁 stage
// **complete** (medium risk)"; "" when the board holds none.
func stageText(inc boardview.Increment) string {
	if inc.Stage == "" {
		return ""
	}
	out := stageIcons[inc.Stage] + " stage **" + string(inc.Stage) + "**"
	if inc.Tier != "" {
		out += " (" + inline(inc.Tier) + " risk)"
	}
	return out
}

// stage writes what an increment's stage waits for, the owner's command
// that accepts it, and once complete its certificate: the check run's
// link with the certificate's short SHA-256, the integrated commit and the
// exact command that reads it back and validates it.
func (w boardWriter) stage(inc boardview.Increment) {
	if len(inc.Waiting) > 0 {
		w.b.WriteString("\nMissing:\n\n")
		for _, m := range inc.Waiting {
			fmt.Fprintf(w.b, "- %s\n", w.text(m))
		}
	}
	if inc.AcceptCommand != "" {
		fmt.Fprintf(w.b, "\nThe owner accepts with %s in a new comment on the control issue.\n", boardCode(inc.AcceptCommand))
	}
	c := inc.Certificate
	if c == nil {
		return
	}
	fmt.Fprintf(w.b, "\nIncrement certificate %s on %s. Read it back and validate it:\n\n%s\n",
		boardLink(code("sha256:"+gitsha.Short(c.SHA256)), c.URL), boardLink(code(gitsha.Short(c.Integrated)), w.repoURL+"/commit/"+c.Integrated), code(c.Fetch))
}
