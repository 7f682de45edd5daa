package increment

import (
	"context"
	"slices"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// nameIncrement is the check run this package writes.
const nameIncrement = checks.NameIncrement

// integrate finds the integrated candidate, the readback runs at it and
// the demonstration evidence, once every story counts as done: before
// that nothing past the stories can decide, and nothing is read.
func (j *Judge) integrate(ctx context.Context, in Input, f *incrementrules.Facts) error {
	for _, s := range f.Stories {
		if !s.Closure.Counts() {
			return nil
		}
	}
	if err := j.addMerges(ctx, in, f); err != nil {
		return err
	}
	merges := incrementrules.Merges(f.Stories)
	if len(merges) == 0 {
		return nil
	}
	order, err := j.Src.BranchCommits(ctx, in.Owner, in.Repo, f.DefaultBranch)
	if err != nil {
		return err
	}
	c := incrementrules.Candidate{SHA: incrementrules.Choose(merges, order, incrementrules.Named(*f, j.rules())), Contains: map[string]bool{}}
	for _, m := range merges {
		if c.Contains[m], err = j.contains(ctx, in, m, c.SHA); err != nil {
			return err
		}
	}
	if c.OnDefault = slices.Contains(order, c.SHA); !c.OnDefault {
		if c.OnDefault, err = j.contains(ctx, in, c.SHA, f.DefaultBranch); err != nil {
			return err
		}
	}
	f.Candidate = c
	if f.Runs, err = j.Src.MainRuns(ctx, in.Owner, in.Repo, c.SHA, f.DefaultBranch); err != nil {
		return err
	}
	return j.evidence(ctx, in, f)
}

// addMerges adds to each story the merged attempts GitHub shows on the
// default branch that the App holds no evidence of yet (an attempt whose
// readback has not finished, a story an owner closed): the candidate must
// contain them too.
func (j *Judge) addMerges(ctx context.Context, in Input, f *incrementrules.Facts) error {
	merges, err := j.Src.StoryMerges(ctx, in.Owner, in.Repo, f.Milestone)
	if err != nil {
		return err
	}
	for i := range f.Stories {
		s := &f.Stories[i]
		for _, m := range merges[s.Number] {
			known := slices.ContainsFunc(s.Attempts, func(a closurerules.Attempt) bool { return a.PR == m.PR })
			if m.Base == f.DefaultBranch && !known {
				s.Attempts = append(s.Attempts, closurerules.Attempt{PR: m.PR, MergeSHA: m.MergeSHA})
			}
		}
	}
	return nil
}

func (j *Judge) contains(ctx context.Context, in Input, base, head string) (bool, error) {
	if base == head {
		return true, nil
	}
	return j.Src.ContainsCommit(ctx, in.Owner, in.Repo, base, head)
}

// evidence reads back what the counted demonstrations name.
func (j *Judge) evidence(ctx context.Context, in Input, f *incrementrules.Facts) error {
	if f.Criterion == "" {
		return nil
	}
	f.Evidence = map[string]string{}
	for _, e := range incrementrules.Evidences(*f, j.rules()) {
		var why string
		var err error
		switch e.Kind {
		case incrementrules.EvidenceRun:
			why, err = j.Src.RunEvidence(ctx, in.Owner, in.Repo, e.ID)
		case incrementrules.EvidenceDeployment:
			why, err = j.Src.DeploymentEvidence(ctx, in.Owner, in.Repo, e.ID)
		case incrementrules.EvidenceRelease:
			why, err = j.Src.ReleaseEvidence(ctx, in.Owner, in.Repo, e.Tag)
		}
		if err != nil {
			return err
		}
		f.Evidence[e.Key()] = why
	}
	return nil
}
