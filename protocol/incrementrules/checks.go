package incrementrules

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// storiesListed: an increment has stories and its list was read whole.
func storiesListed(f Facts, _ Rules, _ string) []Missing {
	var out []Missing
	for _, p := range f.Problems {
		out = append(out, Missing{What: p, Action: true})
	}
	if len(f.Stories) == 0 {
		out = append(out, Missing{What: "the milestone has no stories", Action: true})
	}
	return out
}

// everyStoryDone: every story counts as done (protocol/closurerules; craft §5.4
// "every story accepted").
func everyStoryDone(f Facts, _ Rules, _ string) []Missing {
	var out []Missing
	for _, s := range f.Stories {
		v := s.Closure
		switch v.State {
		case closurerules.Done:
			continue
		case closurerules.Open, "":
			out = append(out, Missing{What: fmt.Sprintf("story #%d is not done yet (open, or its closure not judged)", s.Number)})
		default:
			out = append(out, Missing{What: fmt.Sprintf("story #%d %s", s.Number, strings.TrimPrefix(v.Blocking(), fmt.Sprintf("dependency #%d ", s.Number))), Action: true})
		}
	}
	return out
}

// candidateContains: the integrated candidate is a default-branch commit
// containing every story's merge commit (craft §5.4 integratedCandidateRef).
func candidateContains(f Facts, _ Rules, _ string) []Missing {
	c := f.Candidate
	if c.SHA == "" {
		return []Missing{{What: "no story has a merge commit on the default branch to integrate"}}
	}
	var out []Missing
	if !c.OnDefault {
		out = append(out, Missing{What: fmt.Sprintf("candidate %s is not on the default branch", gitsha.Short(c.SHA)), Action: true})
	}
	for _, m := range Merges(f.Stories) {
		if !c.Contains[m] {
			out = append(out, Missing{What: fmt.Sprintf("candidate %s does not contain merge commit %s", gitsha.Short(c.SHA), gitsha.Short(m))})
		}
	}
	return out
}

// readbackAtCandidate: each required readback workflow has runs on the
// default branch at exactly the candidate, every one completed with
// success (craft §5.4 releaseReadbackRef, §4.2).
func readbackAtCandidate(f Facts, _ Rules, _ string) []Missing {
	if len(f.Required) == 0 {
		return []Missing{{What: "no readback workflow is required (required_workflows.readback), so nothing can prove the candidate", Action: true}}
	}
	var out []Missing
	for _, wf := range f.Required {
		runs := runsOf(f, wf)
		if len(runs) == 0 {
			out = append(out, Missing{What: fmt.Sprintf("waiting for a run of %s at %s", wf, gitsha.Short(f.Candidate.SHA))})
		}
		for _, r := range runs {
			switch {
			case r.Status != "completed":
				out = append(out, Missing{What: fmt.Sprintf("run %d of %s at %s is %s", r.ID, wf, gitsha.Short(f.Candidate.SHA), r.Status)})
			case r.Conclusion != "success":
				out = append(out, Missing{What: fmt.Sprintf("run %d of %s at %s concluded %s", r.ID, wf, gitsha.Short(f.Candidate.SHA), r.Conclusion), Action: true})
			}
		}
	}
	return out
}

// storiesCertified: a medium or high increment needs every medium or high
// story certified (craft §5.5: audit, exact CI/readback, certificate).
func storiesCertified(f Facts, _ Rules, tier string) []Missing {
	if tier == "low" {
		return nil
	}
	var out []Missing
	for _, s := range f.Stories {
		if storyRisk(s) == "low" || certified(s) != nil {
			continue
		}
		out = append(out, Missing{What: fmt.Sprintf("story #%d (%s risk) has no merged attempt with an aepgate/certificate", s.Number, storyRisk(s)), Action: true})
	}
	return out
}

// ownerAcceptance: a high increment needs the owner's `/aep accept` bound
// to the candidate (craft §5.5 "genuine owner gates").
func ownerAcceptance(f Facts, r Rules, tier string) []Missing {
	if tier != "high" || acceptance(f, r) != 0 {
		return nil
	}
	return []Missing{{What: acceptMissing(f, r), Action: true}}
}

// demonstration: a declared criterion needs an aep-demo block repeating it
// exactly with evidence the App read back (craft §5.4 demonstrationRef).
func demonstration(f Facts, r Rules, _ string) []Missing {
	if f.Criterion == "" || demonstrated(f, r) != nil {
		return nil
	}
	return []Missing{{What: "the demonstration: an owner or coordinator posts the block below in a new comment on the control issue, the criterion exactly as the milestone declares it, the evidence a workflow run ID, a deployment ID or a release tag", Action: true}}
}

// DemoTemplate is the aep-demo block that demonstrates f's milestone,
// its evidence left for the author to name.
func DemoTemplate(f Facts) string {
	return fmt.Sprintf("```%s\nmilestone: %d\ncriterion: %s\nevidence: run <id> | deployment <id> | release <tag>\n```", DemoInfo, f.Milestone, f.Criterion)
}

func acceptCommand(f Facts) string {
	return fmt.Sprintf("%s accept %d %s", f.prefix(), f.Milestone, f.Candidate.SHA)
}

func runsOf(f Facts, wf string) []runView {
	var out []runView
	for _, r := range f.Runs {
		if r.Workflow == wf && r.HeadSHA == f.Candidate.SHA && r.Branch == f.DefaultBranch {
			out = append(out, runView{ID: r.ID, Status: r.Status, Conclusion: r.Conclusion, Workflow: r.Workflow})
		}
	}
	slices.SortFunc(out, func(a, b runView) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

type runView struct {
	ID                           int64
	Status, Conclusion, Workflow string
}

func (r runView) id() string { return strconv.FormatInt(r.ID, 10) }
