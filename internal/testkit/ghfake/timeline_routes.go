package ghfake

import (
	"net/http"
	"sort"
)

// listTimeline serves GET /issues/{issue_number}/timeline with the events
// the fake records: commented (each comment), assigned and unassigned
// (assign.go) and cross-referenced (each cross-reference whose source the
// caller can see), oldest first.
func listTimeline(c *call) (int, any) {
	is := c.issueParam()
	if is == nil {
		return notFound()
	}
	type event struct {
		seq  int64 // 2×comment ID, or 2×xref.seq+1: creation order
		body obj
	}
	var evs []event
	for _, cm := range is.comments {
		body := c.f.commentJSON(c.repo, cm)
		body["event"], body["actor"] = "commented", c.f.userJSON(cm.author)
		evs = append(evs, event{2 * cm.id, body})
	}
	for _, a := range is.assignments {
		evs = append(evs, event{2 * a.id, c.f.assignmentJSON(c.repo, a)})
	}
	for _, x := range is.xrefs {
		if c.canSee(x.src) {
			evs = append(evs, event{2*x.seq + 1, c.f.xrefJSON(x)})
		}
	}
	sort.SliceStable(evs, func(a, b int) bool { return evs[a].seq < evs[b].seq })
	out := make([]any, 0, len(evs))
	for _, ev := range evs {
		out = append(out, ev.body)
	}
	return http.StatusOK, c.page(out)
}

// xrefJSON is a cross-referenced timeline event: its source issue (or pull
// request) carries its repository, as on GitHub.
func (f *Fake) xrefJSON(x *xref) obj {
	src := f.issueJSON(x.src, x.source())
	src["repository"] = f.repoJSON(x.src)
	return obj{"event": "cross-referenced", "actor": f.userJSON(x.actor), "created_at": ts(x.at), "updated_at": ts(x.at),
		"source": obj{"type": "issue", "issue": src}}
}
