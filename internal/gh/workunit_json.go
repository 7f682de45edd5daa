package gh

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/workunit"
)

// jsonRepo is the repository object of the snapshot query; unit aliases
// (u<N>) are kept raw and decoded one by one.
type jsonRepo struct {
	NameWithOwner    string
	DefaultBranchRef *struct {
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
	PullRequest *struct {
		Number     int
		Body       string
		State      string
		HeadRefOid string
		Commits    struct {
			Nodes []struct {
				Commit struct {
					Oid         string
					CheckSuites struct {
						Nodes []struct {
							CheckRuns struct {
								Nodes []struct {
									DatabaseID                                                 int64
									Name, Status, Conclusion, Title, Summary, Text, ExternalID *string
								}
							}
						}
					}
				}
			}
		}
	}
	units map[string]json.RawMessage
}

func (r *jsonRepo) UnmarshalJSON(data []byte) error {
	type plain jsonRepo
	if err := json.Unmarshal(data, (*plain)(r)); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	r.units = map[string]json.RawMessage{}
	for k, v := range all {
		if strings.HasPrefix(k, "u") {
			r.units[k] = v
		}
	}
	return nil
}

type jsonDeps struct {
	BlockedBy *struct {
		TotalCount int
		Nodes      []struct {
			Number     int
			State      string
			Repository struct{ NameWithOwner string }
		}
	}
}

type jsonIssue struct {
	Typename  string `json:"__typename"`
	Number    int
	Title     string
	Body      string
	State     string
	Milestone *struct {
		Number      int
		Title       string
		State       string
		Description *string
		Issues      struct {
			TotalCount int
			Nodes      []struct {
				Number int
				State  string
				Body   string
				jsonDeps
			}
		}
	}
	jsonDeps
}

func (r *jsonRepo) snapshot(guesses []int, blockers bool) *WorkUnitSnapshot {
	s := &WorkUnitSnapshot{Units: map[int]*workunit.Issue{}, NativeBlockers: blockers}
	if d := r.DefaultBranchRef; d != nil {
		s.DefaultBranch = d.Name
		s.Config.CommitSHA = d.Target.Oid
		if f := d.Target.File; f != nil && f.Object != nil && f.Object.Text != nil {
			s.Config = ConfigFile{Found: true, Text: *f.Object.Text, Truncated: f.Object.IsTruncated, CommitSHA: d.Target.Oid}
		}
	}
	if p := r.PullRequest; p != nil {
		s.PR = &PullRequest{Number: p.Number, Body: p.Body, State: p.State, HeadSHA: p.HeadRefOid}
		for _, c := range p.Commits.Nodes {
			if c.Commit.Oid != p.HeadRefOid {
				continue
			}
			s.PR.RunsKnown = true
			for _, suite := range c.Commit.CheckSuites.Nodes {
				for _, r := range suite.CheckRuns.Nodes {
					s.PR.Runs = append(s.PR.Runs, ExistingRun{ID: r.DatabaseID, Name: str(r.Name), Status: lower(r.Status), Conclusion: lower(r.Conclusion),
						Title: str(r.Title), Summary: str(r.Summary), Text: str(r.Text), ExternalID: str(r.ExternalID)})
				}
			}
		}
	}
	for _, n := range guesses {
		s.Units[n] = r.unit(n)
	}
	return s
}

func (r *jsonRepo) unit(n int) *workunit.Issue {
	raw, ok := r.units["u"+strconv.Itoa(n)]
	if !ok {
		return nil
	}
	var ji *jsonIssue
	if err := json.Unmarshal(raw, &ji); err != nil || ji == nil {
		return nil
	}
	if ji.Typename == "PullRequest" {
		return &workunit.Issue{Number: n, IsPullRequest: true}
	}
	u := &workunit.Issue{Number: ji.Number, Title: ji.Title, Open: ji.State == "OPEN", Body: ji.Body, BlockedBy: ji.deps(r.NameWithOwner)}
	if b := ji.BlockedBy; b != nil && b.TotalCount > len(b.Nodes) {
		u.BlockersUnlisted = b.TotalCount - len(b.Nodes)
	}
	if m := ji.Milestone; m != nil {
		wm := &workunit.Milestone{Number: m.Number, Title: m.Title, Open: m.State == "OPEN", Truncated: m.Issues.TotalCount > len(m.Issues.Nodes)}
		if m.Description != nil {
			wm.Description = *m.Description
		}
		for _, s := range m.Issues.Nodes {
			wm.Stories = append(wm.Stories, workunit.Story{Number: s.Number, Open: s.State == "OPEN", Body: s.Body, BlockedBy: s.deps(r.NameWithOwner)})
		}
		u.Milestone = wm
	}
	return u
}

func (d jsonDeps) deps(self string) []workunit.Dep {
	if d.BlockedBy == nil {
		return nil
	}
	var out []workunit.Dep
	for _, b := range d.BlockedBy.Nodes {
		dep := workunit.Dep{Number: b.Number, Open: b.State == "OPEN"}
		if !strings.EqualFold(b.Repository.NameWithOwner, self) {
			dep.Repo = b.Repository.NameWithOwner
		}
		out = append(out, dep)
	}
	return out
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func lower(p *string) string { return strings.ToLower(str(p)) }
