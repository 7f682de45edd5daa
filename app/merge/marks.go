package merge

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/protocol/login"
)

// The states a reply of the App records (its mark's state).
const (
	// stateBound: the App enqueued the head (or enabled auto-merge on it,
	// or merged it).
	stateBound = "bound"
	// stateReleased: the App took a bound merge back.
	stateReleased = "released"
	// stateRefused: GitHub refused to merge the head.
	stateRefused = "refused"
	// stateDeclined: the App declined a command; nothing changed.
	stateDeclined = "declined"
)

// markPrefix starts the first line of every merge reply of the App.
const markPrefix = "<!-- aepgate:merge "

// mark is what one reply of the App records: its state, the head it is
// about, and the command it answers (0: none, merge.auto or a release).
type mark struct {
	State, Head string
	Answer      int64
}

// String is the mark as the reply's hidden first line.
func (m mark) String() string {
	return fmt.Sprintf("%sstate=%s head=%s answer=%d -->", markPrefix, m.State, m.Head, m.Answer)
}

// marks are the marks of the App's own replies on the pull request, in
// conversation order; a comment by anyone else never counts.
func marks(ev *verdict.Evaluation) []mark {
	var out []mark
	for _, c := range ev.Snap.Pull.Conversation.Comments {
		if !login.Equal(c.Author.Login, ev.AppLogin) || !strings.HasPrefix(c.Body, markPrefix) {
			continue
		}
		if m, ok := parseMark(c.Body); ok {
			out = append(out, m)
		}
	}
	return out
}

// parseMark reads the mark on body's first line.
func parseMark(body string) (mark, bool) {
	line, _, _ := strings.Cut(body, "\n")
	line = strings.TrimSuffix(strings.TrimPrefix(line, markPrefix), " -->")
	var m mark
	for f := range strings.FieldsSeq(line) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "state":
			m.State = v
		case "head":
			m.Head = v
		case "answer":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return mark{}, false
			}
			m.Answer = n
		}
	}
	return m, m.State != ""
}

// bound is the head of the App's merge still in force: the newest bound,
// released or refused mark's head when it is bound, "" otherwise.
func bound(ms []mark) string {
	for i := len(ms) - 1; i >= 0; i-- {
		switch ms[i].State {
		case stateBound:
			return ms[i].Head
		case stateReleased, stateRefused:
			return ""
		}
	}
	return ""
}

// settled reports whether the newest bound, released or refused mark is
// about head and not a release: merge.auto then leaves head alone.
func settled(ms []mark, head string) bool {
	for i := len(ms) - 1; i >= 0; i-- {
		switch ms[i].State {
		case stateBound, stateRefused:
			return strings.EqualFold(ms[i].Head, head)
		case stateReleased:
			return false
		}
	}
	return false
}

// answered reports whether command id has a reply.
func answered(ms []mark, id int64) bool {
	for _, m := range ms {
		if m.Answer == id {
			return true
		}
	}
	return false
}
