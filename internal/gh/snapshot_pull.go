package gh

import (
	"time"

	"github.com/aepgate/aepgate/protocol/snapshot"
)

// jsonPull is the pull request of the snapshot query.
type jsonPull struct {
	Number      int
	URL         string
	Body        string
	State       string
	HeadRefOid  string
	HeadRefName string
	BaseRefName string
	BaseRefOid  string
	Author      *jsonActor
	Commits     *struct {
		TotalCount int
		Nodes      []struct {
			Commit struct {
				Oid       string
				Author    jsonSignature
				Committer jsonSignature
			}
		}
	}
	Files *struct {
		TotalCount int
		Nodes      []struct{ Path, ChangeType string }
	}
	Comments       *jsonComments
	Reviews        *jsonReviews
	ReviewRequests *struct {
		Nodes []struct {
			RequestedReviewer *jsonActor
		}
	}
	Head struct {
		Nodes []struct {
			Commit struct {
				Oid           string
				CommittedDate time.Time
				CheckSuites   struct {
					Nodes []jsonSuite
				}
			}
		}
	}
}

type jsonSignature struct {
	Name, Email string
	User        *struct{ Login string }
}

func (s jsonSignature) login() string {
	if s.User == nil {
		return ""
	}
	return s.User.Login
}

type jsonSuite struct {
	App *struct {
		DatabaseID int64
		Slug       string
	}
	Status, Conclusion *string
	WorkflowRun        *struct {
		DatabaseID int64
		URL, Event string
		Workflow   struct{ Name string }
		UpdatedAt  time.Time
	}
	CheckRuns struct {
		Nodes []struct {
			DatabaseID                                                             int64
			Name, Status, Conclusion, Title, Summary, Text, ExternalID, DetailsURL *string
		}
	}
}

func (p *jsonPull) pull(plan queryPlan) *snapshot.Pull {
	out := &snapshot.Pull{Number: p.Number, URL: p.URL, Body: p.Body, State: p.State, HeadSHA: p.HeadRefOid, HeadRef: p.HeadRefName, BaseRef: p.BaseRefName, BaseSHA: p.BaseRefOid, Author: p.Author.actor()}
	p.headRuns(out, plan)
	if c := p.Commits; c != nil {
		for _, n := range c.Nodes {
			k := n.Commit
			out.Commits = append(out.Commits, snapshot.Commit{SHA: k.Oid,
				AuthorName: k.Author.Name, AuthorEmail: k.Author.Email, AuthorLogin: k.Author.login(),
				CommitterName: k.Committer.Name, CommitterEmail: k.Committer.Email, CommitterLogin: k.Committer.login()})
		}
		markCut(out, "commits", c.TotalCount > len(c.Nodes))
	}
	if f := p.Files; f != nil {
		for _, n := range f.Nodes {
			out.Files = append(out.Files, snapshot.File{Path: n.Path, ChangeType: n.ChangeType})
		}
		markCut(out, "files", f.TotalCount > len(f.Nodes))
	}
	if p.Comments != nil {
		out.Conversation = p.Comments.thread()
		markCut(out, "comments", out.Conversation.Truncated)
	}
	p.reviews(out)
	return out
}

func (p *jsonPull) reviews(out *snapshot.Pull) {
	if r := p.Reviews; r != nil {
		out.Reviews = r.reviews()
		markCut(out, "reviews", r.TotalCount > len(r.Nodes))
	}
	if rr := p.ReviewRequests; rr != nil {
		for _, n := range rr.Nodes {
			if a := n.RequestedReviewer; a != nil && a.Login != "" {
				out.ReviewRequests = append(out.ReviewRequests, a.Login)
			}
		}
	}
}

// headRuns fills the App's own runs (and, when asked, every run) at the
// head. GitHub may list no commit when the head moved meanwhile; then
// nothing is known about the runs.
func (p *jsonPull) headRuns(out *snapshot.Pull, plan queryPlan) {
	for _, c := range p.Head.Nodes {
		if c.Commit.Oid != p.HeadRefOid {
			continue
		}
		out.RunsKnown = true
		out.HeadAt = c.Commit.CommittedDate
		for _, suite := range c.Commit.CheckSuites.Nodes {
			if w := suite.WorkflowRun; w != nil {
				out.Workflows = append(out.Workflows, snapshot.WorkflowRun{ID: w.DatabaseID, Workflow: w.Workflow.Name, Event: w.Event, URL: w.URL,
					Status: lower(suite.Status), Conclusion: lower(suite.Conclusion), Updated: w.UpdatedAt})
			}
			own := !plan.needs.HeadChecks || plan.appID == 0 || (suite.App != nil && suite.App.DatabaseID == plan.appID)
			for _, r := range suite.CheckRuns.Nodes {
				run := snapshot.ExistingRun{ID: r.DatabaseID, Name: str(r.Name), Status: lower(r.Status), Conclusion: lower(r.Conclusion),
					Title: str(r.Title), Summary: str(r.Summary), Text: str(r.Text), ExternalID: str(r.ExternalID), DetailsURL: str(r.DetailsURL)}
				if own {
					out.Runs = append(out.Runs, run)
				}
				if plan.needs.HeadChecks {
					out.HeadChecks = append(out.HeadChecks, suite.headCheck(run))
				}
			}
		}
	}
}

func (s jsonSuite) headCheck(run snapshot.ExistingRun) snapshot.HeadCheck {
	h := snapshot.HeadCheck{ExistingRun: run}
	if s.App != nil {
		h.AppID, h.AppSlug = s.App.DatabaseID, s.App.Slug
	}
	if w := s.WorkflowRun; w != nil {
		h.WorkflowRunID, h.Workflow = w.DatabaseID, w.Workflow.Name
	}
	return h
}

// markCut records on out that its list called name was cut short.
func markCut(out *snapshot.Pull, name string, cut bool) {
	if cut {
		out.Truncated = append(out.Truncated, name)
	}
}

// jsonReviews is a connection of reviews.
type jsonReviews struct {
	TotalCount int
	Nodes      []struct {
		DatabaseID   int64
		URL          string
		Body         string
		State        string
		SubmittedAt  *time.Time
		LastEditedAt *time.Time
		Author       *jsonActor
		Commit       *struct{ Oid string }
	}
}

func (r *jsonReviews) reviews() []snapshot.Review {
	var out []snapshot.Review
	for _, n := range r.Nodes {
		rv := snapshot.Review{ID: n.DatabaseID, URL: n.URL, Body: n.Body, State: n.State, Author: n.Author.actor(), Edited: n.LastEditedAt != nil}
		if n.SubmittedAt != nil {
			rv.Submitted = *n.SubmittedAt
		}
		if n.Commit != nil {
			rv.CommitSHA = n.Commit.Oid
		}
		out = append(out, rv)
	}
	return out
}

// jsonAttempts is the cross-references on a unit's issue.
type jsonAttempts struct {
	TotalCount int
	Nodes      []struct {
		IsCrossRepository bool
		Source            *struct {
			Typename   string `json:"__typename"`
			Number     int
			State      string
			Body       string
			HeadRefOid string
			Comments   jsonComments
			Reviews    jsonReviews
		}
	}
}

func (a *jsonAttempts) attempts() snapshot.Attempts {
	out := snapshot.Attempts{Truncated: a.TotalCount > len(a.Nodes)}
	for _, n := range a.Nodes {
		s := n.Source
		if s == nil || s.Typename != "PullRequest" {
			continue
		}
		out.Pulls = append(out.Pulls, snapshot.Attempt{Number: s.Number, State: s.State, Body: s.Body, HeadSHA: s.HeadRefOid,
			CrossRepository: n.IsCrossRepository, Conversation: s.Comments.thread(), Reviews: s.Reviews.reviews(),
			ReviewsTruncated: s.Reviews.TotalCount > len(s.Reviews.Nodes)})
	}
	return out
}
