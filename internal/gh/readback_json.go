package gh

import (
	"time"

	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// jsonMergedRepo is the repository of the readback query.
type jsonMergedRepo struct {
	DefaultBranchRef *jsonBranchRef
	PullRequest      *struct {
		Number      int
		URL         string
		Body        string
		State       string
		Merged      bool
		MergedAt    *time.Time
		HeadRefOid  string
		BaseRefName string
		MergedBy    *jsonActor
		Comments    jsonComments
		MergeCommit *struct {
			Oid     string
			Tree    struct{ Oid string }
			Parents struct {
				Nodes []struct{ Oid string }
			}
			Own jsonOwnSuites
		}
		Head struct {
			Nodes []struct {
				Commit struct {
					Oid  string
					Tree struct{ Oid string }
					CI   struct {
						Nodes []jsonSuite
					}
					Own jsonOwnSuites
				}
			}
		}
	}
}

// jsonBranchRef is the default branch with the config file on it.
type jsonBranchRef struct {
	Name   string
	Target struct {
		Oid  string
		File *struct {
			Object *struct {
				Text        *string
				IsTruncated bool
			}
		}
	}
}

// jsonOwnSuites is the App's own check suites on a commit.
type jsonOwnSuites struct {
	Nodes []jsonSuite
}

// runs lists the check runs of the suites.
func (s jsonOwnSuites) runs() []snapshot.ExistingRun {
	var out []snapshot.ExistingRun
	for _, suite := range s.Nodes {
		for _, r := range suite.CheckRuns.Nodes {
			out = append(out, snapshot.ExistingRun{ID: r.DatabaseID, Name: str(r.Name), Status: lower(r.Status), Conclusion: lower(r.Conclusion),
				Title: str(r.Title), Summary: str(r.Summary), Text: str(r.Text), ExternalID: str(r.ExternalID), DetailsURL: str(r.DetailsURL)})
		}
	}
	return out
}

// merged is the observation, nil when the pull request does not exist.
func (r *jsonMergedRepo) merged() *MergedPull {
	p := r.PullRequest
	if p == nil {
		return nil
	}
	m := &MergedPull{Number: p.Number, URL: p.URL, Body: p.Body, State: p.State, Merged: p.Merged,
		HeadSHA: p.HeadRefOid, BaseRef: p.BaseRefName, MergedBy: p.MergedBy.actor(), Comments: p.Comments.thread()}
	if p.MergedAt != nil {
		m.MergedAt = *p.MergedAt
	}
	m.DefaultBranch, m.Config = r.DefaultBranchRef.branch()
	if c := p.MergeCommit; c != nil {
		m.MergeSHA, m.MergeTree, m.MergeRuns = c.Oid, c.Tree.Oid, c.Own.runs()
		for _, n := range c.Parents.Nodes {
			m.MergeParents = append(m.MergeParents, n.Oid)
		}
	}
	for _, n := range p.Head.Nodes {
		c := n.Commit
		if c.Oid != p.HeadRefOid {
			continue
		}
		m.HeadKnown, m.HeadTree, m.HeadRuns = true, c.Tree.Oid, c.Own.runs()
		for _, s := range c.CI.Nodes {
			if w := s.WorkflowRun; w != nil {
				m.PRRuns = append(m.PRRuns, readbackrules.Run{ID: w.DatabaseID, Workflow: w.Workflow.Name, HeadSHA: c.Oid,
					Event: w.Event, Status: lower(s.Status), Conclusion: lower(s.Conclusion)})
			}
		}
	}
	return m
}
