package verdict

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/merge"
	"github.com/aepgate/aepgate/protocol/report"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// MergeNeeds: the merge check reads every workflow run at the head besides
// what the checks it sums up read.
var MergeNeeds = snapshot.Needs{HeadChecks: true}

// evalMerge sums up, at the head, the worker report, the work unit, the
// owner gates and contract-path approvals, the audit and the required
// workflows (docs/app.md). It runs after the checks it sums up, and fails
// closed on whatever they could not judge.
func evalMerge(ev *Evaluation) Outcome {
	p := ev.Snap.Pull
	d := ev.MergeDecision(p.HeadSHA, p.Workflows, p.WorkflowsUnreadable)
	return Outcome{Run: checks.Merge(p.HeadSHA, p.Number, d), Facts: map[string]any{"ready": d.Ready, "run_ids": d.RunIDs, "unit": ev.Unit}}
}

// MergeDecision judges the pull request's merge with the required
// workflows' runs at sha: its head, or a merge queue's group commit.
func (ev *Evaluation) MergeDecision(sha string, runs []snapshot.WorkflowRun, unreadable string) merge.Decision {
	p := ev.Snap.Pull
	in := merge.Input{Head: sha, WorkUnit: ev.overriddenInput(checks.NameWorkUnit, ev.workUnitVerdict()),
		Audit: ev.overriddenInput(checks.NameAudit, ev.auditVerdict()), RunsUnreadable: unreadable}
	if f := ev.reportFacts(); ev.reportRequired(f) {
		for _, pr := range report.Check(report.Parse(p.Body), f) {
			in.Report = append(in.Report, pr.Message)
		}
	}
	if _, over := ev.Overrides()[checks.NameGates]; !over {
		in.Gates, in.Contract = ev.gateBlockers() // an override is never in force under a HOLD
	}
	if ev.Cfg != nil {
		in.Required = ev.Cfg.RequiredWorkflows.PullRequest
	} else {
		in.Report = append(in.Report, "the repository config is invalid or unreadable; see "+checks.NameConfig)
	}
	for _, w := range runs {
		in.Runs = append(in.Runs, merge.Run{ID: w.ID, Workflow: w.Workflow, Status: w.Status, Conclusion: w.Conclusion, URL: w.URL})
	}
	return merge.Decide(in)
}

// reportFacts are what the snapshot says about the pull request for its
// worker report: head, number and branch, the units its body names and,
// when the snapshot holds them in full, the files it changes (else FILES is
// not compared).
func (ev *Evaluation) reportFacts() report.Facts {
	p := ev.Snap.Pull
	f := report.Facts{HeadSHA: p.HeadSHA, Number: p.Number, HeadBranch: p.HeadRef,
		Repo: ev.Snap.Repo, Units: workunit.ParseRefs(p.Body, ev.Snap.Repo)}
	if ev.Snap.Has.Files && !p.IsTruncated("files") {
		for _, file := range p.Files {
			f.Files = append(f.Files, file.Path)
		}
		f.FilesKnown = true
	}
	return f
}

// workUnitVerdict is what aepgate/work-unit decided, for the merge check.
func (ev *Evaluation) workUnitVerdict() merge.Verdict {
	v := ev.UnitVerdict()
	if !v.OK {
		return merge.Verdict{Reasons: v.Reasons}
	}
	return merge.Verdict{OK: true, Evidence: fmt.Sprintf("work unit #%d: contract valid, dependencies closed", v.Unit)}
}

// gateBlockers splits what the gates replay says blocks the merge into
// HOLDs and owner gates, and unapproved contract-path changes; when the
// gates could not be replayed, that is the reason.
func (ev *Evaluation) gateBlockers() (gates, contract []string) {
	g := ev.GateLog()
	if g == nil {
		return []string{"the owner gates could not be judged; see " + checks.NameGates}, nil
	}
	for _, b := range g.Blockers {
		line := b.Reason
		if b.GateID != "" {
			line = fmt.Sprintf("%s (gate %s)", strings.TrimSuffix(b.Reason, "."), b.GateID)
		}
		if strings.HasPrefix(b.GateID, gatelog.ContractPrefix) {
			contract = append(contract, line)
		} else {
			gates = append(gates, line)
		}
	}
	return gates, contract
}

// reportRequired is whether the pull request needs a worker report, by the
// rule the Action's aep/report applies (report.Applies): always when it
// names a work unit; otherwise as the config's report keys say (the
// snapshot holds no labels, so label rules neither exempt nor require
// here). Without a valid config a report is required.
func (ev *Evaluation) reportRequired(f report.Facts) bool {
	if ev.Cfg == nil {
		return true
	}
	p := ev.Snap.Pull
	return report.Applies(ev.Cfg.Report, report.Subject{Body: p.Body, Repo: ev.Snap.Repo, Author: p.Author.Login,
		AuthorType: p.Author.Type, Files: f.Files, FilesKnown: f.FilesKnown}).Required
}
