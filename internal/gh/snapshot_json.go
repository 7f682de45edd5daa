package gh

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// jsonRepo is the repository object of the snapshot query; unit aliases
// (u<N>) are kept raw and decoded one by one.
type jsonRepo struct {
	NameWithOwner    string
	URL              string
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
	PullRequest *jsonPull
	Control     *struct {
		Nodes []struct {
			Number   int
			URL      string
			Comments jsonComments
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

// jsonActor is an author: GraphQL's __typename is the account type.
type jsonActor struct {
	Typename string `json:"__typename"`
	Login    string
}

// actor is the author in REST's terms: GraphQL names a Bot without the
// "[bot]" suffix that REST, webhooks and the config use, so it is added back.
func (a *jsonActor) actor() snapshot.Actor {
	if a == nil {
		return snapshot.Actor{} // a deleted account ("ghost")
	}
	login := a.Login
	if a.Typename == "Bot" && !strings.HasSuffix(login, "[bot]") {
		login += "[bot]"
	}
	return snapshot.Actor{Login: login, Type: a.Typename}
}

type jsonComments struct {
	TotalCount int
	Nodes      []struct {
		DatabaseID   int64
		URL          string
		Body         string
		CreatedAt    time.Time
		UpdatedAt    time.Time
		LastEditedAt *time.Time
		Author       *jsonActor
		Editor       *jsonActor
	}
}

func (c jsonComments) thread() snapshot.Thread {
	t := snapshot.Thread{Truncated: c.TotalCount > len(c.Nodes)}
	for _, n := range c.Nodes {
		t.Comments = append(t.Comments, snapshot.Comment{ID: n.DatabaseID, URL: n.URL, Body: n.Body, Author: n.Author.actor(),
			Created: n.CreatedAt, Updated: n.UpdatedAt, Edited: n.LastEditedAt != nil, EditedBy: n.Editor.actor().Login})
	}
	return t
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
	Typename      string `json:"__typename"`
	Number        int
	Title         string
	Body          string
	Editor        *struct{ Login string }
	State         string
	Comments      *jsonComments
	TimelineItems *jsonAttempts
	Milestone     *struct {
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
				Lanes  *jsonLanes
				jsonDeps
			}
		}
	}
	jsonDeps
}

// snapshot is the snapshot the query of plan p answered with r.
func (r *jsonRepo) snapshot(p queryPlan) *snapshot.PR {
	s := &snapshot.PR{Repo: r.NameWithOwner, Units: map[int]*workunit.Issue{}, UnitComments: map[int]snapshot.Thread{}, UnitAttempts: map[int]snapshot.Attempts{},
		NativeBlockers: p.blockers, Has: p.needs}
	r.defaultBranch(s)
	if r.PullRequest != nil {
		s.Pull = r.PullRequest.pull(p)
	}
	if c := r.Control; c != nil && len(c.Nodes) > 0 {
		n := c.Nodes[0]
		s.Control = &snapshot.ControlIssue{Number: n.Number, URL: n.URL, Thread: n.Comments.thread()}
	}
	for _, n := range sortedGuesses(p.guesses) {
		r.addUnit(s, p, n)
	}
	return s
}

// defaultBranch sets s's default branch and the config file read on it.
func (r *jsonRepo) defaultBranch(s *snapshot.PR) {
	d := r.DefaultBranchRef
	if d == nil {
		return
	}
	s.DefaultBranch = d.Name
	s.Config.CommitSHA = d.Target.Oid
	if f := d.Target.File; f != nil && f.Object != nil && f.Object.Text != nil {
		s.Config = snapshot.ConfigFile{Found: true, Text: *f.Object.Text, Truncated: f.Object.IsTruncated, CommitSHA: d.Target.Oid}
	}
}

// addUnit sets in s the guessed work unit n: the issue, its comments, its
// attempts and, when the plan needs them, its milestone's lanes.
func (r *jsonRepo) addUnit(s *snapshot.PR, p queryPlan, n int) {
	u, ji := r.unit(n)
	s.Units[n] = u
	if ji == nil {
		return
	}
	if ji.Comments != nil {
		s.UnitComments[n] = ji.Comments.thread()
	}
	if ji.TimelineItems != nil {
		s.UnitAttempts[n] = ji.TimelineItems.attempts()
	}
	if p.needs.Lanes && ji.Milestone != nil {
		s.Lanes = []workunit.Lane{}
		for _, st := range ji.Milestone.Issues.Nodes {
			s.Lanes = st.Lanes.lanes(r.NameWithOwner, st.Number, s.Lanes)
			if st.Lanes.cut() {
				s.LanesUnread = append(s.LanesUnread, st.Number)
			}
		}
	}
}

func (r *jsonRepo) unit(n int) (*workunit.Issue, *jsonIssue) {
	raw, ok := r.units["u"+strconv.Itoa(n)]
	if !ok {
		return nil, nil
	}
	var ji *jsonIssue
	if err := json.Unmarshal(raw, &ji); err != nil || ji == nil {
		return nil, nil
	}
	if ji.Typename == "PullRequest" {
		return &workunit.Issue{Number: n, IsPullRequest: true}, nil
	}
	u := &workunit.Issue{Number: ji.Number, Title: ji.Title, Open: ji.State == "OPEN", Body: ji.Body, BlockedBy: ji.deps(r.NameWithOwner)}
	if ji.Editor != nil {
		u.Editor = ji.Editor.Login
	}
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
	return u, ji
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
