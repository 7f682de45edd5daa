package demo

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// editedCommand edits an old comment of the owner's into '/aep resume':
// GitHub sends issue_comment.edited, and an edited comment never counts.
func (st *story) editedCommand() beat {
	var c *ghfake.Comment
	const n = 1 // story #1 (increment checks its number)
	return beat{title: "mallory edits an old comment of olivia's into '/aep resume' (issue_comment.edited)", refused: true,
		act: func() error {
			c = st.s.unit.Comment(owner, "Thanks, looking at it.")
			c.Edit(intruder, "/aep resume")
			return nil
		},
		until: func() bool { return st.w.reacted(c.ID(), "-1")() && st.w.replied(n, c.ID())() },
		what:  "a 👎 and the App's reply",
		detail: func() (string, error) {
			reply, err := st.w.reply(n, c.ID())
			if err != nil {
				return "", err
			}
			return st.unchanged(reply, "action_required")
		}}
}

// passAt is carol's PASS on the current head.
func (st *story) passAt(title string) beat {
	return beat{title: title,
		act: func() error {
			st.s.pr.SubmitReview(auditor, "COMMENTED", auditBody(st.s.unit.Number(), "PASS"))
			return nil
		},
		until: st.headJudged("success", "success"), what: "aepgate/audit and aepgate/merge success"}
}

// staleAudit pushes after the PASS: the audit is for the old head.
func (st *story) staleAudit() beat {
	return beat{title: "bob pushes one more commit after the PASS, hoping the audit carries over", refused: true,
		act: func() error {
			st.push("PR head 2", "late change", map[string]string{"export/late.go": "package export\n"})
			return nil
		},
		until: st.headJudged("failure", "failure"), what: "aepgate/audit failure on the new head",
		detail: func() (string, error) {
			r := st.w.newest(st.s.pr.Head(), "aepgate/audit")
			if r == nil || !strings.Contains(r.Title, "Audit is for") {
				return "", fmt.Errorf("aepgate/audit on the new head does not say the audit is stale: %+v", r)
			}
			return "aepgate/audit: " + r.Title, nil
		}}
}

// prCIAsReadback offers a pull-request CI run at the merge SHA as the
// readback: it is not a run on main, so readback keeps waiting.
func (st *story) prCIAsReadback() beat {
	return beat{title: "a ci run of the pull_request event (branch export) at the merge commit is offered as the readback", refused: true,
		act: func() error {
			st.w.repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: st.merge, Branch: st.s.branch, Event: "pull_request"})
			return nil
		},
		detail: func() (string, error) {
			r := st.w.newest(st.merge, "aepgate/readback")
			if r == nil || r.Status != "in_progress" {
				return "", fmt.Errorf("aepgate/readback after a pull-request run: %+v", r)
			}
			return "not counted: readback needs ci on main at the merge commit; aepgate/readback still says " + fmt.Sprintf("%q", r.Title), nil
		}}
}
