package demo

import (
	"context"
	"fmt"
	"maps"
	"strings"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// story is one scenario being played: the world, the scene it built and
// the commits it named.
type story struct {
	ctx  context.Context
	w    *world
	s    *scene
	tree map[string]string // the pull request head's files
	// certificate is the canonical certificate the story fetched;
	// fetchLog what `certificate fetch` said.
	certificate []byte
	fetchLog    string
	merge       string
	tagged      string
	finding     string // the FAIL's finding, by ledger ID
	// expects are the conclusions the scenario must end with.
	expects []expect
	// dependsOnAPI makes story #1 depend on story #2 (the attacks).
	dependsOnAPI bool
	// deployRun is the deploy workflow run waiting on production.
	deployRun *ghfake.WorkflowRun
	// integrated is increment M1's integrated commit once every story is
	// done; demoRun the workflow run its demonstration names; incCert
	// the increment certificate fetched there.
	integrated string
	demoRun    *ghfake.WorkflowRun
	incCert    *IncrementView
}

// conversations are the issues and pull requests commands were posted on.
func (st *story) conversations() []int {
	var out []int
	for _, is := range []*ghfake.Issue{st.s.unit, st.s.api} {
		if is != nil {
			out = append(out, is.Number())
		}
	}
	if st.s.pr != nil {
		out = append(out, st.s.pr.Number())
	}
	return out
}

// headExpects are the checks a mergeable head ends with.
func (st *story) headExpects(label string) []expect {
	if st.s.pr == nil {
		return nil
	}
	var out []expect
	for _, n := range []string{"aepgate/work-unit", "aepgate/gates", "aepgate/audit", "aepgate/merge", "aep/lint", "aep/report", "ci"} {
		out = append(out, expect{st.s.pr.Head(), label, n, "success"})
	}
	return append(out, expect{st.s.pr.Head(), label, "aep/status", "neutral"})
}

// deliveredExpects are the merge commit's and the release's checks.
func (st *story) deliveredExpects() []expect {
	var out []expect
	if st.merge != "" {
		out = append(out, expect{st.merge, "merge commit", "aepgate/readback", "success"}, expect{st.merge, "merge commit", "aepgate/certificate", "success"})
	}
	if st.tagged != "" {
		out = append(out, expect{st.tagged, "v1.0.0", "aepgate/release", "success"})
	}
	return out
}

// newStory starts the story w plays.
func newStory(ctx context.Context, w *world) *story {
	w.story = &story{ctx: ctx, w: w, s: &scene{branch: "export", files: map[string]bool{}}, tree: map[string]string{}}
	return w.story
}

// setup commits the policy to main (the App reads it from the default
// branch only) with the run documents the auditor wrote (their plan and
// guide are the auditor's: a pull request changing them needs an
// auditor's approval), and grants the cast their access.
func (st *story) setup() beat {
	return beat{title: "acme/widgets has the App installed; .github/aepgate.yml on main names olivia owner, cody coordinator, carol auditor, ci required; carol's run documents are on main",
		act: func() error {
			files := runDocs()
			files[".github/aepgate.yml"] = policy
			st.w.repo.Commit("main", "aepgate policy and the run documents", files)
			maps.Copy(st.tree, runDocs())
			st.w.repo.Grant(owner, "admin")
			for _, u := range []string{coord, auditor, worker, intruder} {
				st.w.repo.Grant(u, "write")
			}
			st.tree[".github/aepgate.yml"] = policy
			st.tree["README.md"], _ = st.w.repo.File("main", "README.md")
			return nil
		}}
}

// increment opens milestone M1 with two stories.
func (st *story) increment() beat {
	return beat{title: "olivia opens increment M1 (milestone) with story #1 'Export reports as CSV' (product) and #2 'Document the report API' (contract)",
		act: func() error {
			ms := st.w.repo.CreateMilestone("M1 — CSV export", milestoneDescription)
			st.s.milestone = ms
			body := contractBody("Export reports as CSV", "medium", "product")
			if st.dependsOnAPI {
				body = strings.Replace(body, "\n```\n", "\ndepends_on: [2]\n```\n", 1)
			}
			st.s.unit = st.w.repo.OpenIssue(owner, "Export reports as CSV", body, ghfake.InMilestone(ms))
			st.s.api = st.w.repo.OpenIssue(owner, "Document the report API", contractBody("Document the report API", "low", "contract"), ghfake.InMilestone(ms))
			if st.s.unit.Number() != 1 || st.s.api.Number() != 2 {
				return fmt.Errorf("stories are #%d and #%d, want #1 and #2", st.s.unit.Number(), st.s.api.Number())
			}
			return nil
		}}
}

// openPR opens bob's pull request naming unit #1, with its CI run.
func (st *story) openPR() beat {
	files := map[string]string{"export/export.go": exportV1}
	return beat{title: "bob opens PR #3 'Work-unit: #1' (export/export.go) with his worker report; ci passes on the head",
		act: func() error {
			st.w.repo.Branch(st.s.branch, "main")
			head := st.w.repo.CommitBy(worker, st.s.branch, "CSV export", files)
			st.addFiles(files)
			st.s.heads = append(st.s.heads, head)
			st.w.rec.watch("PR head 1", head)
			st.s.pr = st.w.repo.OpenPR(worker, st.s.branch, "main", "Export reports as CSV", "")
			if n := st.s.pr.Number(); n != 3 {
				return fmt.Errorf("the pull request is #%d, want #3 (the App's board issue came first: its reconcile sweep ran before the pull request)", n)
			}
			st.s.pr.Edit(worker, st.s.workerReport(head))
			st.ci(head)
			return nil
		},
		until: st.headJudged("failure", "failure"), what: "the App's four checks on the head"}
}

// headJudged holds once the App's checks on the head conclude: work-unit
// success (failure while story #1 waits for its dependency), audit audit
// and merge merge.
func (st *story) headJudged(audit, merge string) func() bool {
	return func() bool {
		unit := "success"
		if st.dependsOnAPI && st.s.api.View().State == "open" {
			unit = "failure" // story #1 waits for story #2
		}
		h := st.s.pr.Head()
		return all(st.w.is(h, "aepgate/work-unit", unit), st.w.is(h, "aepgate/audit", audit), st.w.is(h, "aepgate/merge", merge))()
	}
}

func (st *story) addFiles(files map[string]string) {
	maps.Copy(st.tree, files)
	for p := range files {
		st.s.files[p] = true
	}
}

// ci completes a ci workflow run on the pull request's head.
func (st *story) ci(head string) {
	st.w.repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: head, Branch: st.s.branch, Event: "pull_request"})
}

// action runs the Action's own code on the head: aep/lint, aep/status and
// aep/report.
func (st *story) action() beat {
	return beat{title: "the Action (aepgate action, in-process, Actions token) reports on the head (aep/status is neutral: the scaffolded run still has open items)",
		act: func() error {
			code, log, err := st.w.runAction(st.ctx, st.s, st.tree)
			if err != nil {
				return err
			}
			if code != 0 {
				return fmt.Errorf("the Action exited %d:\n%s", code, log)
			}
			return nil
		},
		until: func() bool {
			h := st.s.pr.Head()
			return all(st.w.is(h, "aep/lint", "success"), st.w.is(h, "aep/status", "neutral"), st.w.is(h, "aep/report", "success"))()
		},
		what: "aep/lint, aep/status and aep/report"}
}

// push commits files on the pull request as bob, updates his report to
// the new head and runs ci there, as a push to a real pull request would.
func (st *story) push(label, message string, files map[string]string) string {
	head := st.s.pr.Commit(message, files)
	st.addFiles(files)
	st.s.heads = append(st.s.heads, head)
	st.w.rec.watch(label, head)
	st.s.pr.Edit(worker, st.s.workerReport(head))
	st.ci(head)
	return head
}
