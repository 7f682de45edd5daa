package demo

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// criterion is the demonstration increment M1's description declares.
const criterion = "a report is exported as CSV and opened in a spreadsheet"

// milestoneDescription is increment M1's description: medium risk, with
// the demonstration its completion needs.
const milestoneDescription = "```yaml\nrisk: medium\ndemonstration: " + criterion + "\n```\n"

// closeCertified is the coordinator closing story #1 once its certificate
// is on the merge commit: a certified unit counts as done whoever closes
// it, so the App says nothing on the issue. The App judges the closure
// when it is quiet again; the next step shows the increment counting it.
func (st *story) closeCertified() beat {
	return beat{title: "cody (coordinator) closes story #1 as completed: it counts as done, its merged attempt carries aepgate/certificate",
		act: func() error {
			st.s.unit.Close(coord)
			return st.w.awaitQuiet(st.ctx)
		},
		detail: func() (string, error) {
			if c := st.w.closureComment(st.s.unit.Number()); c != "" {
				return "", fmt.Errorf("the App flagged the certified story's closure: %s", c)
			}
			return "aepgate judged the closure and left no comment on #1: a certified unit's closure is evidence (the next step shows it counted as done)", nil
		}}
}

// ownerClosesStory is the owner closing story #2 herself (its contract,
// docs/contract/report-api.yaml, came with PR #3): the owner's closure
// counts, every story is done, and the App writes aepgate/increment on the
// integrated commit, waiting for the demonstration the milestone declares.
func (st *story) ownerClosesStory() beat {
	return beat{title: "olivia (owner) closes story #2 herself (the report API contract came with PR #3): every story is done, aepgate/increment asks for the demonstration",
		act: func() error {
			st.integrated = st.merge
			st.w.rec.watch("integrated commit", st.integrated)
			st.s.api.Close(owner)
			return nil
		},
		until: func() bool { return st.w.is(st.integrated, checks.NameIncrement, "action_required")() },
		what:  "aepgate/increment action_required on the integrated commit",
		detail: func() (string, error) {
			if c := st.w.closureComment(st.s.api.Number()); c != "" {
				return "", fmt.Errorf("the App flagged the owner's closure: %s", c)
			}
			r := st.w.newest(st.integrated, checks.NameIncrement)
			return fmt.Sprintf("the integrated commit is the merge commit %s (the newest story merge); aepgate/increment: %s\n%s",
				gitsha.Short(st.integrated), r.Title, missingLines(r.Summary)), nil
		}}
}

// demonstrated runs the csv-demo workflow at the integrated commit and has
// the coordinator post the aep-demo block naming that run on the control
// issue, which olivia opens (the App opens one only when it has something
// to ask there): the App reads the run back and the increment completes.
func (st *story) demonstrated() beat {
	return beat{title: "the csv-demo workflow (export a report as CSV, open it in a spreadsheet) succeeds at the integrated commit; cody (coordinator) posts the aep-demo block naming that run on the control issue",
		act: func() error {
			st.demoRun = st.w.repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "csv-demo", SHA: st.integrated, Branch: "main", Event: "workflow_dispatch"})
			if st.w.control() == 0 {
				st.w.repo.OpenIssue(owner, "aepgate control", "Project-wide decisions for acme/widgets.", ghfake.WithLabels(controlLabel))
			}
			st.w.repo.Issue(st.w.control()).Comment(coord, demoBlock(st.s.milestone.Number(), st.demoRun.ID()))
			return nil
		},
		until: func() bool { return st.w.is(st.integrated, checks.NameIncrement, "success")() },
		what:  "aepgate/increment success on the integrated commit",
		detail: func() (string, error) {
			return fmt.Sprintf("control issue #%d: milestone %d, criterion %q, evidence run %d; aepgate/increment: %s",
				st.w.control(), st.s.milestone.Number(), criterion, st.demoRun.ID(), st.w.newest(st.integrated, checks.NameIncrement).Title), nil
		}}
}

// demoBlock is a comment holding the aep-demo block that demonstrates
// milestone with workflow run.
func demoBlock(milestone int, run int64) string {
	return fmt.Sprintf("Shown in the csv-demo run.\n\n```aep-demo\nmilestone: %d\ncriterion: %s\nevidence: run %d\n```\n", milestone, criterion, run)
}

// incrementExpects is the integrated commit's check once the story
// reached it.
func (st *story) incrementExpects() []expect {
	if st.integrated == "" {
		return nil
	}
	return []expect{{st.integrated, st.w.rec.label(st.integrated), checks.NameIncrement, "success"}}
}

// describeIncrement says what the increment certificate binds.
func describeIncrement(v IncrementView) string {
	c := v.Bound
	var stories []string
	for _, s := range c.Stories {
		switch {
		case s.MergeSha == "":
			stories = append(stories, fmt.Sprintf("#%d (%s, done by the owner's closure, no merge)", s.Unit, s.Risk))
		case s.CertificateSha256 == "":
			stories = append(stories, fmt.Sprintf("#%d (%s, merge %s, read back)", s.Unit, s.Risk, gitsha.Short(s.MergeSha)))
		default:
			stories = append(stories, fmt.Sprintf("#%d (%s, merge %s, certificate sha256:%s)", s.Unit, s.Risk, gitsha.Short(s.MergeSha), gitsha.Short(s.CertificateSha256)))
		}
	}
	d := fmt.Sprintf("increment certificate sha256:%s (%d bytes of canonical JSON): milestone %d %q, %s risk, integrated commit %s\nstories %s; readback runs %s",
		v.SHA256, len(v.Certificate), c.Milestone, c.Title, c.RiskTier, gitsha.Short(c.IntegratedSha), strings.Join(stories, ", "), strings.Join(c.ReadbackRunIds, ", "))
	if c.Demonstration != nil {
		d += fmt.Sprintf("; demonstration %s (comment %d)", c.Demonstration.Evidence, c.Demonstration.CommentID)
	}
	return d
}

// missingLines are the "Missing:" items of an aepgate/increment progress
// run's summary, one a line.
func missingLines(summary string) string {
	var out []string
	for l := range strings.Lines(summary) {
		if item, ok := strings.CutPrefix(strings.TrimSpace(l), "- "); ok {
			out = append(out, "missing: "+item)
		}
	}
	return strings.Join(out, "\n")
}
