package heldwork_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/heldwork"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// heldWorld: olivia owns the repository and has put a project HOLD
// ("release freeze") on its control issue; work unit #unit has bob's open
// attempt pr; the config lists agentBot among agents.
type heldWorld struct {
	*appkit.Live
	unit *ghfake.Issue
	pr   *ghfake.PR
}

func newHeldWorld(t *testing.T, rules *heldwork.Rules) *heldWorld {
	t.Helper()
	w := newUnheldWorld(t, rules)
	ctl := w.Repo.OpenIssue("olivia", "control", "", ghfake.WithLabels("aepgate:control"))
	ctl.Comment("olivia", "/aep hold release freeze")
	appkit.WaitFor(t, 10*time.Second, "the HOLD kept", func() bool {
		return appkit.ConclusionOf(w.Repo, w.pr.Head(), "aepgate/gates") == "action_required"
	})
	w.Quiet(t)
	return w
}

// newUnheldWorld is heldWorld before the HOLD.
func newUnheldWorld(t *testing.T, rules *heldwork.Rules) *heldWorld {
	t.Helper()
	w := appkit.NewLiveOpts(t, true, func(o *app.Options) { o.Seams.HeldWorkRules = rules })
	w.Repo.Grant("olivia", "admin")
	w.Repo.Grant("bob", "write")
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [olivia]\n" + appkit.AgentsLine})
	ms := w.Repo.CreateMilestone("Exports", "```yaml\nrisk: medium\n```\n")
	unit := w.Repo.OpenIssue("olivia", "Export reports", appkit.Contract("medium", "product"), ghfake.InMilestone(ms))
	w.Repo.Branch("feature", "main")
	w.Repo.Commit("feature", "export", map[string]string{"export.go": "package x\n"})
	pr := w.Repo.OpenPR("bob", "feature", "main", "Export", "Work-unit: #"+strconv.Itoa(unit.Number()))
	w.Quiet(t)
	return &heldWorld{Live: w, unit: unit, pr: pr}
}

// heldReplies are the App's held-work replies on is.
func heldReplies(is *ghfake.Issue) []string {
	var out []string
	for _, c := range is.Comments() {
		if strings.HasPrefix(c.Body, heldwork.Marker) {
			out = append(out, c.Body)
		}
	}
	return out
}

// TestHeldPushAnswered: craft-rules §3.4, HOLD blocks implementation. A
// push to the held unit's pull request is answered with one reply on the
// pull request (a redelivery adds none), one ledger row and an item in
// the owner's board inbox, and the merge stays blocked. The negative control removes the rule: the push passes
// without a word.
func TestHeldPushAnswered(t *testing.T) {
	w := newHeldWorld(t, nil)
	head := w.pr.Commit("more export", map[string]string{"export.go": "package x\n\nvar V = 1\n"})
	appkit.WaitFor(t, 10*time.Second, "the held-push reply", func() bool { return len(heldReplies(w.pr.Issue)) == 1 })
	w.Redeliver(t, "pull_request", "synchronize")
	w.Quiet(t)
	got := heldReplies(w.pr.Issue)
	if len(got) != 1 {
		t.Fatalf("%d held-work replies after a redelivery, want 1", len(got))
	}
	for _, want := range []string{"@bob pushed `" + head[:12] + "`", "release freeze", "/aep resume"} {
		if !strings.Contains(got[0], want) {
			t.Errorf("the reply lacks %q:\n%s", want, got[0])
		}
	}
	subject := "acme/widgets#" + strconv.Itoa(w.pr.Number()) + " held_work push " + head
	if ok, err := w.App.Store().LedgerHasSubject(t.Context(), subject); err != nil || !ok {
		t.Errorf("no ledger row %q (err %v)", subject, err)
	}
	appkit.WaitFor(t, 10*time.Second, "the owner's board to list the held push", func() bool {
		facts, err := w.App.Store().BoardFacts(t.Context(), "acme/widgets")
		return err == nil && strings.Contains(string(facts[w.pr.Number()]), `"kind":"held-work"`) &&
			strings.Contains(string(facts[w.pr.Number()]), "under HOLD: @bob pushed")
	})
	if c := appkit.ConclusionOf(w.Repo, head, "aepgate/gates"); c != "action_required" {
		t.Errorf("aepgate/gates at the pushed head = %q, want action_required (the merge stays blocked)", c)
	}

	t.Run("negative control: the push rule removed", func(t *testing.T) {
		w := newHeldWorld(t, &heldwork.Rules{Push: false, Assignment: true})
		w.pr.Commit("more export", map[string]string{"export.go": "package x\n\nvar V = 1\n"})
		w.Quiet(t)
		if n := len(heldReplies(w.pr.Issue)); n != 0 {
			t.Errorf("%d held-work replies without the rule, want 0", n)
		}
	})
}

// TestHeldAssignmentAnswered: an agent (config agents) assigned to the
// held unit is answered once on the issue (a redelivery adds none); a
// person's assignment is not implementation by an agent and is not
// answered. The negative control removes the rule: the agent's
// assignment passes without a word.
func TestHeldAssignmentAnswered(t *testing.T) {
	w := newHeldWorld(t, nil)
	w.unit.Assign("olivia", appkit.AgentBot)
	appkit.WaitFor(t, 10*time.Second, "the held-assignment reply", func() bool { return len(heldReplies(w.unit)) == 1 })
	w.Redeliver(t, "issues", "assigned")
	w.unit.Assign("olivia", "bob")
	w.Quiet(t)
	got := heldReplies(w.unit)
	if len(got) != 1 {
		t.Fatalf("%d held-work replies, want 1 (the agent's, once)", len(got))
	}
	if want := "@olivia assigned the agent @" + appkit.AgentBot; !strings.Contains(got[0], want) {
		t.Errorf("the reply lacks %q:\n%s", want, got[0])
	}
	subject := "acme/widgets#" + strconv.Itoa(w.unit.Number()) + " held_work assignment " + appkit.AgentBot
	if ok, err := w.App.Store().LedgerHasSubject(t.Context(), subject); err != nil || !ok {
		t.Errorf("no ledger row %q (err %v)", subject, err)
	}

	t.Run("no HOLD: no reply", func(t *testing.T) {
		w := newUnheldWorld(t, nil)
		w.unit.Assign("olivia", appkit.AgentBot)
		w.pr.Commit("more export", map[string]string{"export.go": "package x\n\nvar V = 1\n"})
		w.Quiet(t)
		if n := len(heldReplies(w.unit)) + len(heldReplies(w.pr.Issue)); n != 0 {
			t.Errorf("%d held-work replies without a HOLD, want 0", n)
		}
	})
	t.Run("negative control: the assignment rule removed", func(t *testing.T) {
		w := newHeldWorld(t, &heldwork.Rules{Push: true, Assignment: false})
		w.unit.Assign("olivia", appkit.AgentBot)
		w.Quiet(t)
		if n := len(heldReplies(w.unit)); n != 0 {
			t.Errorf("%d held-work replies without the rule, want 0", n)
		}
	})
}
