package readback_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/review"
)

// agentMerge is a medium-risk unit whose pull request the agent opened
// on bob's branch (bob's own is closed); dave commands the agent in a comment, the agent
// pushes the head, and
// auditor's PASS (with the worker report and CI) makes it mergeable: it is
// merged and read back. It returns the world, the merge SHA and the
// head. editApp changes the App's options (nil: none).
func agentMerge(t *testing.T, auditor string, editApp func(*app.Options)) (*appkit.ReadbackWorld, string, string) {
	t.Helper()
	yaml := appkit.LifecycleYAML + "agents:\n  accounts:\n    \"" + appkit.AgentBot + "\": {}\n"
	w := appkit.NewReadbackWorldWith(t, yaml, func(o *app.ReadbackSeams) { o.Audited = nil }, editApp)
	for _, u := range []string{"carol", "dave"} {
		w.Repo.Grant(u, "write")
	}
	w.Unit.Edit("alice", appkit.Contract("medium", "product"))
	w.PR.ClosePR("bob")
	w.Unit.Assign("alice", appkit.AgentBot)
	w.Repo.CommitBy(appkit.AgentBot, "work", "export", map[string]string{"export/export.go": appkit.AuditSource})
	w.PR = w.Repo.OpenPR(appkit.AgentBot, "work", "main", "Export", "Work-unit: #"+strconv.Itoa(w.Unit.Number()))
	w.Quiet(t)
	w.F.Advance(time.Minute)
	w.PR.Comment("dave", "@copilot export the orders as CSV too")
	w.F.Advance(time.Minute)
	head := w.Repo.CommitBy(appkit.AgentBot, "work", "csv", map[string]string{"export/csv.go": "package export\n"})
	w.PR.Edit(appkit.AgentBot, "Work-unit: #"+strconv.Itoa(w.Unit.Number())+"\n\n"+appkit.WorkerReport(w.Unit.Number(), w.PR.Number(), head))
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: head, Branch: "work", Event: "pull_request"})
	w.PR.SubmitReview(auditor, "COMMENTED", appkit.AuditBody(w.Unit.Number(), "PASS", appkit.GoodQuote))
	w.Quiet(t)
	if r := w.Latest(head, checks.NameMerge); r == nil || r.Conclusion != "success" {
		t.Fatalf("not ready to merge: %+v", r)
	}
	sha := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(sha, "success")
	w.WaitReadback(t, sha, "success")
	return w, sha, head
}

// TestCertificateSaysWhoDidWhat: the certificate of an agent's pull
// request records each push (who pushed it, its agent, who instructed the
// agent and how: the branch's first commit, acme's push and no agent's, the
// agent's first push alice's assignment instructed, its second dave
// commanded), who
// assigned the agent on the unit issue (alice) and the approvals that
// counted (carol's audit), and validates.
func TestCertificateSaysWhoDidWhat(t *testing.T) {
	w, sha, head := agentMerge(t, "carol", nil)
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(sha, checks.NameCertificate) != nil })
	cr := w.Latest(sha, checks.NameCertificate)
	raw, refused := checks.VerifyCertificateRun(checks.Run{Name: cr.Name, HeadSHA: cr.HeadSHA, ExternalID: cr.ExternalID,
		Status: checks.Status(cr.Status), Conclusion: checks.Conclusion(cr.Conclusion), Title: cr.Title, Summary: cr.Summary})
	if len(refused) > 0 {
		t.Fatalf("certificate run refused: %v", refused)
	}
	v := certificate.Validate(raw)
	if !v.Valid {
		t.Fatalf("certificate invalid: %v\n%s", v.Errors, raw)
	}
	ind, ok := v.Certificate["independence"].(map[string]any)
	if !ok {
		t.Fatalf("certificate lacks independence: %s", raw)
	}
	pushes, _ := ind["pushes"].([]any)
	var got []map[string]any
	for _, p := range pushes {
		m := stringify(p.(map[string]any))
		if len(got) == len(pushes)-1 && m["head"] != head {
			t.Errorf("the last push is %v, want the head %s", m["head"], head)
		}
		delete(m, "head")
		got = append(got, m)
	}
	instructed := map[string]any{"login": "dave", "channel": certificate.ChannelComment}
	want := []map[string]any{{"n": "1", "author": "acme"}, {"n": "2", "author": appkit.AgentBot, "agent": appkit.AgentBot,
		"instructor": map[string]any{"login": "alice", "channel": certificate.ChannelIssueAssignment}},
		{"n": "3", "author": appkit.AgentBot, "agent": appkit.AgentBot, "instructor": instructed}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pushes (-want +got):\n%s\n%s", diff, raw)
	}
	assigners := []any{map[string]any{"login": "alice", "agent": appkit.AgentBot, "role": certificate.RoleAssigned}}
	if diff := cmp.Diff(assigners, ind["assigners"]); diff != "" {
		t.Errorf("assigners (-want +got):\n%s", diff)
	}
	counted := []any{map[string]any{"login": "carol", "kind": certificate.ApprovalAudit, "head": head}}
	if diff := cmp.Diff(counted, ind["counted"]); diff != "" || stringify(ind)["needed"] != "1" {
		t.Errorf("counted (-want +got):\n%s\n%s", diff, raw)
	}
}

// TestCertificateRefusesInstructorAsAuditor: with not-instructor removed
// from the audit's rules (the negative control of the audit's protection),
// dave, who instructed the agent's head, passes the audit and the pull
// request merges; the certificate, which names him both instructor and
// counted, is still refused (invalid:independence) and none is written.
func TestCertificateRefusesInstructorAsAuditor(t *testing.T) {
	w, sha, _ := agentMerge(t, "dave", func(o *app.Options) {
		o.Seams.AuditRules = slices.DeleteFunc(review.DefaultRules(), func(r review.Rule) bool { return r.Name == "not-instructor" })
	})
	appkit.WaitFor(t, 10*time.Second, "the readback to refuse the certificate", func() bool {
		r := w.Latest(sha, checks.NameReadback)
		return r != nil && strings.Contains(r.Summary, "invalid:independence")
	})
	w.Quiet(t)
	if n := w.Count(sha, checks.NameCertificate); n != 0 {
		t.Errorf("%d certificates naming the instructor as counted", n)
	}
}

// stringify writes m's numbers as their decimal text, as Validate's
// parsed certificate holds them (json.Number).
func stringify(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		switch x := v.(type) {
		case interface{ String() string }:
			out[k] = x.String()
		default:
			out[k] = v
		}
	}
	return out
}
