package demo

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/deployrules"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// controlLabel marks the control issue, where the App asks the owner
// about a deployment.
const controlLabel = "aepgate:control"

// control is the control issue's number, 0 while there is none.
func (w *world) control() int {
	for _, v := range w.repo.IssuesLabelled(controlLabel) {
		return v.Number
	}
	return 0
}

// gateAsked holds once the App's question about run's deploy gate is on
// the control issue.
func (w *world) gateAsked(run *ghfake.WorkflowRun) func() bool {
	return func() bool {
		n := w.control()
		for _, c := range w.conversation(n) {
			if strings.HasSuffix(c.Author, "[bot]") && strings.Contains(c.Body, deployrules.GateID("production", run.ID())) {
				return true
			}
		}
		return false
	}
}

// deployGated starts a deploy workflow run at increment M1's integrated
// commit, waiting on environment production: the environment requires a
// complete increment and the owner's gate, so the App asks the owner on
// the control issue and does not answer yet.
func (st *story) deployGated() beat {
	return beat{title: "a deploy workflow run at the integrated commit waits on environment production (require: increment, owner_gate: true)",
		act: func() error {
			st.deployRun = st.w.repo.StartWorkflowRun(ghfake.RunOptions{Name: "deploy", SHA: st.integrated})
			st.deployRun.RequestDeployment("production")
			return nil
		},
		until: func() bool { return st.deployRun != nil && st.w.gateAsked(st.deployRun)() },
		what:  "the App's owner gate on the control issue",
		detail: func() (string, error) {
			if n := len(st.deployRun.DeploymentReviews()); n != 0 {
				return "", fmt.Errorf("the deployment was answered %d times before the owner decided", n)
			}
			return fmt.Sprintf("aepgate opened gate %s on the control issue #%d and keeps the deployment waiting",
				deployrules.GateID("production", st.deployRun.ID()), st.w.control()), nil
		}}
}

// deployApproved is the owner's answer to the deploy gate: the App
// approves the deployment, once.
func (st *story) deployApproved() beat {
	id := func() string { return deployrules.GateID("production", st.deployRun.ID()) }
	return beat{title: "olivia comments '/aep resolve auto-deploy-production-run<id> approve' on the control issue: the deployment is approved",
		act: func() error {
			st.w.repo.Issue(st.w.control()).Comment(owner, "/aep resolve "+id()+" approve")
			return nil
		},
		until: func() bool { return len(st.deployRun.DeploymentReviews()) > 0 },
		what:  "the deployment's answer",
		titled: func() string {
			return "olivia comments '/aep resolve " + id() + " approve' on the control issue: the deployment is approved"
		},
		detail: func() (string, error) {
			rs := st.deployRun.DeploymentReviews()
			if len(rs) != 1 || rs[0].State != deployrules.Approved {
				return "", fmt.Errorf("the deployment got %d answers (%+v), want one approval", len(rs), rs)
			}
			return fmt.Sprintf("GitHub received one answer: %s, %q", rs[0].State, rs[0].Comment), nil
		}}
}

// uncertifiedDeploy starts a deploy workflow run at the pull request's
// head, a commit no certificate names (neither a unit's nor an
// increment's): the App rejects it at once, saying what is missing.
func (st *story) uncertifiedDeploy() beat {
	var run *ghfake.WorkflowRun
	return beat{title: "mallory starts a deploy of PR head 2 (no certificate names it) to production (require: increment): rejected at once", refused: true,
		act: func() error {
			run = st.w.repo.StartWorkflowRun(ghfake.RunOptions{Name: "deploy", SHA: st.s.pr.Head(), Branch: st.s.branch, Actor: intruder})
			run.RequestDeployment("production")
			return nil
		},
		until: func() bool { return run != nil && len(run.DeploymentReviews()) > 0 },
		what:  "the deployment's answer",
		detail: func() (string, error) {
			rs := run.DeploymentReviews()
			if len(rs) != 1 || rs[0].State != deployrules.Rejected {
				return "", fmt.Errorf("the uncertified deployment got %+v, want one rejection", rs)
			}
			return fmt.Sprintf("GitHub received one answer for %s: %s, %q", gitsha.Short(st.s.pr.Head()), rs[0].State, rs[0].Comment), nil
		}}
}
