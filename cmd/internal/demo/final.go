package demo

import (
	"fmt"
	"sort"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// expect is one check run's conclusion a scenario must end with.
type expect struct {
	sha, label, name, conclusion string
}

// commitRuns lists every watched commit's check runs, newest per name.
func (w *world) commitRuns() []CommitRuns {
	var out []CommitRuns
	for _, c := range w.rec.commits {
		cr := CommitRuns{Label: c.label, SHA: c.sha, Runs: []RunView{}}
		count := map[string]int{}
		latest := map[string]ghfake.CheckRun{}
		var names []string
		for _, r := range w.repo.CheckRuns(c.sha) {
			if count[r.Name] == 0 {
				names = append(names, r.Name)
			}
			count[r.Name]++
			latest[r.Name] = r
		}
		sort.Strings(names)
		for _, n := range names {
			cr.Runs = append(cr.Runs, runView(latest[n], count[n]))
		}
		out = append(out, cr)
	}
	return out
}

func runView(r ghfake.CheckRun, versions int) RunView {
	v := RunView{ID: r.ID, Name: r.Name, By: "GitHub Actions", Status: r.Status, Conclusion: r.Conclusion,
		Title: r.Title, Summary: r.Summary, Versions: versions, Annotations: []Annotation{}}
	if r.AppID == appID {
		v.By = "aepgate App"
	}
	for _, a := range r.Annotations {
		v.Annotations = append(v.Annotations, Annotation{Path: a.Path, Line: a.StartLine, Level: a.Level, Title: a.Title, Message: a.Message})
	}
	return v
}

// problems compares the final state with what the scenario must end with:
// every expected conclusion, every delivery accepted, no run and no reply
// written twice, an intact ledger and, when the story reached it, a valid
// certificate (certErr: why verifyCertificate refused the merge's).
func (w *world) problems(res *Result, certErr error) []string {
	var out []string
	if w.story == nil {
		return []string{"no story was played"}
	}
	for _, e := range w.story.expects {
		r := w.newest(e.sha, e.name)
		switch {
		case r == nil:
			out = append(out, fmt.Sprintf("%s: no %s run", e.label, e.name))
		case r.Conclusion != e.conclusion:
			out = append(out, fmt.Sprintf("%s: %s is %s/%s, want %s", e.label, e.name, r.Status, r.Conclusion, e.conclusion))
		}
	}
	if f := res.Figures; f.Accepted != f.Deliveries {
		out = append(out, fmt.Sprintf("the App refused %d of %d webhook deliveries", f.Deliveries-f.Accepted, f.Deliveries))
	}
	out = append(out, w.duplicateRuns()...)
	out = append(out, w.duplicateReplies()...)
	if !res.Ledger.Intact {
		out = append(out, "ledger: "+res.Ledger.Verdict)
	}
	if w.story.merge != "" {
		if certErr != nil {
			out = append(out, certErr.Error())
		}
		if p := boardProblem(res.Board, w.story.s.unit.Number(), w.story.merge); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// duplicateRuns lists the App's check runs written twice: two runs on one commit
// with the same name and the same content. A run whose annotations changed
// is replaced by a new one on purpose (GitHub cannot remove annotations),
// so only identical runs count.
func (w *world) duplicateRuns() []string {
	var out []string
	for _, c := range w.rec.commits {
		seen := map[[5]string]int{}
		for _, r := range w.repo.CheckRuns(c.sha) {
			if r.AppID != appID {
				continue
			}
			k := [5]string{r.Name, r.Conclusion, r.Title, r.Summary, r.ExternalID}
			if seen[k]++; seen[k] == 2 {
				out = append(out, fmt.Sprintf("duplicate write: %s holds %s twice with the same content", c.label, r.Name))
			}
		}
	}
	return out
}
