package deploy_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/deployrules"
)

const (
	certifiedYAML = "version: 1\nowners: [olivia]\nrequired_workflows:\n  readback: [ci]\ndeploy:\n  environments:\n    production:\n      require: certified\n"
	gatedYAML     = "version: 1\nowners: [olivia]\ndeploy:\n  environments:\n    production:\n      require: none\n      owner_gate: true\n"
	openYAML      = "version: 1\nowners: [olivia]\ndeploy:\n  environments:\n    production:\n      require: none\n"
)

// TestDeployCertified: a deploy of the certified merge commit is approved
// at once, and one of an uncertified commit rejected saying why; each
// costs at most 3 reads and 1 write. Negative control: without the
// requirement rule the uncertified commit is approved.
func TestDeployCertified(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name      string
		rules     []deployrules.Rule
		certified bool
		// forged adds an aepgate/certificate run by another App.
		forged bool
		want   string
	}{
		{"certified", nil, true, false, deployrules.Approved},
		{"uncertified", nil, false, false, deployrules.Rejected},
		{"a certificate by another App", nil, false, true, deployrules.Rejected},
		{"uncertified without the requirement rule", withoutDeployRule("requirement"), false, false, deployrules.Approved},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w := newDeployWorld(t, certifiedYAML, tt.rules)
			sha := w.Repo.Head("main")
			if tt.certified {
				sha = w.CertifiedMerge(t)
			}
			if tt.forged {
				w.Repo.AddCheckRun(ghfake.ActionsAppID, sha, checks.NameCertificate, "completed", "success")
			}
			run := w.DeployCounted(t, sha)
			got := appkit.Answered(t, run)
			w.Quiet(t)
			if got.State != tt.want {
				t.Fatalf("answer %s (%s), want %s", got.State, got.Comment, tt.want)
			}
			if tt.want == deployrules.Rejected && !strings.Contains(got.Comment, "not the merge commit of a certified unit") {
				t.Errorf("the rejection does not say why: %q", got.Comment)
			}
			reads, writes := deployCost(w.F.Stats())
			t.Logf("%s: %d reads, %d writes %v", tt.name, reads, writes, w.F.Stats().ByRoute)
			if reads > 3 || writes != 1 {
				t.Errorf("a deployment answered at once cost %d reads and %d writes (want ≤ 3 and 1)", reads, writes)
			}
		})
	}
}

// TestDeployOwnerGate: behind an owner gate the deployment waits with a
// question on the control issue, survives an App restart, is not answered
// by a non-owner's resolve, and is approved exactly once when the owner
// resolves — redelivery and the sweep change nothing. Negative control:
// without the owner-gate rule it is approved at once, with nobody asked.
func TestDeployOwnerGate(t *testing.T) {
	t.Parallel()
	w := newDeployWorld(t, gatedYAML, nil)
	ctl := w.ControlIssue()
	run := w.Deploy(w.Repo.Head("main"))
	appkit.WaitFor(t, 10*time.Second, "the gate's question", func() bool { return appkit.AppComments(ctl, run) == 1 })
	if len(run.DeploymentReviews()) != 0 {
		t.Fatalf("answered before the owner: %+v", run.DeploymentReviews())
	}
	w.Restart(t)
	id := deployrules.GateID("production", run.ID())
	ctl.Comment("mallory", "/aep resolve "+id+" approve")
	w.Settle(t)
	if len(run.DeploymentReviews()) != 0 {
		t.Fatalf("a non-owner's resolve answered it: %+v", run.DeploymentReviews())
	}
	ctl.Comment("olivia", "/aep resolve "+id+" approve")
	if got := appkit.Answered(t, run); got.State != deployrules.Approved || !strings.Contains(got.Comment, id) {
		t.Fatalf("answer %+v", got)
	}
	run.Redeliver("production")
	w.RedeliverControl(t)
	if err := w.App.Sweep(t.Context()); err != nil {
		t.Fatal(err)
	}
	w.Settle(t)
	if n := len(run.DeploymentReviews()); n != 1 || appkit.AppComments(ctl, run) != 1 {
		t.Errorf("%d answers and %d questions, want 1 and 1", n, appkit.AppComments(ctl, run))
	}

	nc := newDeployWorld(t, gatedYAML, withoutDeployRule("owner-gate"))
	ncRun := nc.Deploy(nc.Repo.Head("main"))
	if got := appkit.Answered(t, ncRun); got.State != deployrules.Approved {
		t.Errorf("negative control: without the owner-gate rule the answer is %+v, want approved at once", got)
	}
}

// TestDeployHold: a HOLD on the control issue rejects a deployment behind
// the owner gate while it waits, and one without a gate at once, each
// saying why. Negative control: without the hold rule the ungated
// deployment under HOLD is approved.
func TestDeployHold(t *testing.T) {
	t.Parallel()
	w := newDeployWorld(t, gatedYAML, nil)
	ctl := w.ControlIssue()
	run := w.Deploy(w.Repo.Head("main"))
	appkit.WaitFor(t, 10*time.Second, "the gate's question", func() bool { return appkit.AppComments(ctl, run) == 1 })
	ctl.Comment("olivia", "/aep hold payments are down")
	if got := appkit.Answered(t, run); got.State != deployrules.Rejected || !strings.Contains(got.Comment, "project-hold") {
		t.Errorf("gated deployment under HOLD: %+v", got)
	}
	for _, tt := range []struct {
		name  string
		rules []deployrules.Rule
		want  string
	}{
		{"ungated under HOLD", nil, deployrules.Rejected},
		{"ungated under HOLD without the hold rule", withoutDeployRule("hold"), deployrules.Approved},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newDeployWorld(t, openYAML, tt.rules)
			w.ControlIssue().Comment("olivia", "/aep hold payments are down")
			w.Settle(t)
			if got := appkit.Answered(t, w.Deploy(w.Repo.Head("main"))); got.State != tt.want {
				t.Errorf("answer %+v, want %s", got, tt.want)
			}
		})
	}
}

// TestDeployAnswerLost: the answer reaches GitHub but its response is
// lost; the App sees GitHub no longer waits and keeps its answer — one
// answer, no retry loop. An answer GitHub refuses while it still waits is
// tried again and lands once.
func TestDeployAnswerLost(t *testing.T) {
	t.Parallel()
	for _, kind := range []ghfake.FaultKind{ghfake.FaultLostResponse, ghfake.FaultStatus} {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			w := newDeployWorld(t, openYAML, nil)
			w.F.InjectFault("POST /repos/{owner}/{repo}/actions/runs/{run_id}/deployment_protection_rule", ghfake.Fault{Kind: kind, Times: 1})
			run := w.Deploy(w.Repo.Head("main"))
			if got := appkit.Answered(t, run); got.State != deployrules.Approved {
				t.Fatalf("answer %+v", got)
			}
			w.Settle(t)
			if n := len(run.DeploymentReviews()); n != 1 {
				t.Errorf("%d answers, want 1", n)
			}
			if p, err := w.App.Store().PendingDeploys(t.Context(), "acme/widgets"); err != nil || len(p) != 0 {
				t.Errorf("still pending: %v, %v", p, err)
			}
		})
	}
}
