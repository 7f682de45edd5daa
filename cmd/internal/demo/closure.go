package demo

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/verdict"
)

// closureComment is the App's comment on issue n saying it was closed
// without evidence, without its marker ("" when there is none).
func (w *world) closureComment(n int) string {
	for _, c := range w.conversation(n) {
		if body, ok := strings.CutPrefix(c.Body, verdict.ClosureMarker); ok {
			first, _, _ := strings.Cut(strings.TrimSpace(body), "\n")
			return first
		}
	}
	return ""
}

// boardLists holds once the owner's board the App keeps lists issue n in
// its inbox as closed without evidence.
func (w *world) boardLists(n int) func() bool {
	return func() bool {
		b, ok, err := w.a.Board(w.ctx, repoName)
		if err != nil || !ok {
			return false
		}
		for _, it := range b.Inbox {
			if it.Kind == "closure" && strings.HasSuffix(it.URL, fmt.Sprintf("/issues/%d", n)) {
				return true
			}
		}
		return false
	}
}

// closedWithoutEvidence is the coordinator closing story #2, on which
// story #1 depends, with no pull request, audit or certificate: the App
// does not count it done, so #1's attempt stays blocked naming him, it
// comments once on #2 and the owner's board lists it.
func (st *story) closedWithoutEvidence() beat {
	blocked := "dependency #2 was closed without evidence by " + coord
	return beat{title: "cody (coordinator) closes story #2, which #1 depends on, with no pull request, audit or certificate: not counted as done", refused: true,
		act: func() error { st.s.api.Close(coord); return nil },
		until: func() bool {
			r := st.w.newest(st.s.pr.Head(), "aepgate/work-unit")
			return r != nil && r.Conclusion == "failure" && strings.Contains(r.Summary, blocked) &&
				st.w.closureComment(st.s.api.Number()) != "" && st.w.boardLists(st.s.api.Number())()
		},
		what: "aepgate/work-unit failure naming cody, the App's comment on #2 and the board's inbox",
		detail: func() (string, error) {
			return fmt.Sprintf("aepgate/work-unit is still failure: %s\naepgate commented on #2: %s\nthe owner's board lists #2 in its inbox (closed without evidence)",
				blocked, st.w.closureComment(st.s.api.Number())), nil
		}}
}

// ownerCloses is the owner's `/aep close <reason>` on story #2: it counts,
// the App reacts 👍, and #1's attempt is no longer blocked by it.
func (st *story) ownerCloses() beat {
	var id int64
	return beat{title: "olivia comments '/aep close the report API is documented in the release notes' on story #2: the owner's word counts",
		act: func() error {
			id = st.s.api.Comment(owner, "/aep close the report API is documented in the release notes").ID()
			return nil
		},
		until: func() bool {
			return st.w.reacted(id, "+1")() && st.w.is(st.s.pr.Head(), "aepgate/work-unit", "success")()
		},
		what: "a 👍 and aepgate/work-unit success",
		detail: func() (string, error) {
			for _, c := range st.w.conversation(st.s.api.Number()) {
				if strings.HasPrefix(c.Body, closure.ReplyMarker(id)) {
					return "", fmt.Errorf("the owner's /aep close was refused: %s", c.Body)
				}
			}
			return "aepgate reacted 👍; story #2 counts as done, so #1's attempt is no longer blocked by it", nil
		}}
}
