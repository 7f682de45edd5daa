package demo

import (
	"fmt"
	"strings"
)

// contractChange pushes a change to a contract path: the owner must
// approve it before the merge.
func (st *story) contractChange() beat {
	files := map[string]string{"docs/contract/report-api.yaml": "openapi: 3.1.0\npaths:\n  /reports/{id}.csv: {get: {summary: CSV export}}\n"}
	return beat{title: "bob pushes a change to docs/contract/report-api.yaml, a contract path: the owner must approve it",
		act: func() error { st.push("PR head 2", "report API contract", files); return nil },
		until: func() bool {
			return st.w.is(st.s.pr.Head(), "aepgate/gates", "action_required")()
		},
		what: "aepgate/gates action_required on the new head"}
}

// ownerApproves approves the pull request's head as the owner.
func (st *story) ownerApproves(title string) beat {
	return beat{title: title,
		act:   func() error { st.s.pr.SubmitReview(owner, "APPROVED", "The contract change is fine."); return nil },
		until: func() bool { return st.w.is(st.s.pr.Head(), "aepgate/gates", "success")() },
		what:  "aepgate/gates success"}
}

// hold is the owner's HOLD on the unit.
func (st *story) hold() beat {
	var id int64
	return beat{title: "olivia comments '/aep hold waiting for legal' on story #1",
		act: func() error {
			id = st.s.unit.Comment(owner, "Legal has not signed off yet.\n\n/aep hold waiting for legal").ID()
			return nil
		},
		until: func() bool {
			return st.w.reacted(id, "+1")() && st.w.is(st.s.pr.Head(), "aepgate/gates", "action_required")()
		},
		what:   "a 👍 and aepgate/gates action_required",
		detail: accepted}
}

// accepted is the detail of a command the App accepted.
func accepted() (string, error) { return "aepgate reacted 👍", nil }

// commandRefused is a command by login on issue n that the App must refuse
// with a 👎 and a reply saying why.
func (st *story) commandRefused(title, login string, n int, body string) beat {
	var id int64
	gates := ""
	return beat{title: title, refused: true,
		act: func() error {
			gates = st.gatesState()
			id = st.commentOn(n, login, body)
			return nil
		},
		until: func() bool { return st.w.reacted(id, "-1")() && st.w.replied(n, id)() },
		what:  "a 👎 and the App's reply",
		detail: func() (string, error) {
			if now := st.gatesState(); now != gates {
				return "", fmt.Errorf("a refused command moved aepgate/gates from %s to %s", gates, now)
			}
			return st.w.reply(n, id)
		}}
}

// commentOn posts body as login on issue or pull request n.
func (st *story) commentOn(n int, login, body string) int64 {
	if st.s.pr != nil && n == st.s.pr.Number() {
		return st.s.pr.Comment(login, body).ID()
	}
	return st.w.repo.Issue(n).Comment(login, body).ID()
}

// gatesState is the head's aepgate/gates conclusion.
func (st *story) gatesState() string {
	if r := st.w.newest(st.s.pr.Head(), "aepgate/gates"); r != nil {
		return r.Conclusion
	}
	return ""
}

// resume is the owner's RESUME.
func (st *story) resume() beat {
	var id int64
	return beat{title: "olivia comments '/aep resume': the owner lifts her HOLD",
		act: func() error { id = st.s.unit.Comment(owner, "/aep resume").ID(); return nil },
		until: func() bool {
			return st.w.reacted(id, "+1")() && st.w.is(st.s.pr.Head(), "aepgate/gates", "success")()
		},
		what: "a 👍 and aepgate/gates success", detail: accepted}
}

// annotations lists the newest run's annotations on the head, one a line.
func (st *story) annotations(name string) string {
	r := st.w.newest(st.s.pr.Head(), name)
	if r == nil {
		return ""
	}
	var out []string
	for _, a := range r.Annotations {
		out = append(out, fmt.Sprintf("%s:%d %s: %s", a.Path, a.StartLine, a.Level, a.Message))
	}
	return strings.Join(out, "\n")
}
