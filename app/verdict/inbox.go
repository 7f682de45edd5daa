package verdict

import (
	"fmt"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/report"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// FindGate returns the gate called id in st.
func FindGate(st gate.State, id string) (gate.Gate, bool) {
	for _, g := range st.Gates {
		if g.GateID == id {
			return g, true
		}
	}
	return gate.Gate{}, false
}

// Inbox lists the gates and HOLDs of res that block an attempt, each with
// its question, choices, the exact reply (commands start with prefix, or
// the default prefix when it is empty) and where it was opened (url, the
// pull request's, unless the gate names its evidence), then the kept
// decisions whose source was changed.
func Inbox(res gatelog.Result, prefix, url string) []boardview.InboxItem {
	if prefix == "" {
		prefix = command.DefaultPrefix
	}
	var out []boardview.InboxItem
	for _, b := range res.Blockers {
		g, ok := FindGate(res.State, b.GateID)
		if !ok {
			continue
		}
		it := boardview.InboxItem{Kind: "gate", Subject: "project", Question: g.Question, Choices: g.Choices, URL: url,
			Since: time.UnixMilli(g.CreatedAt).UTC()}
		if g.WorkUnit != nil {
			it.Subject = "work unit #" + *g.WorkUnit
		}
		if strings.HasPrefix(g.GateID, gate.HoldID) || strings.HasPrefix(g.GateID, gatelog.UnitHoldPrefix) {
			it.Kind, it.Choices, it.Reply = "hold", nil, prefix+" "+command.VerbResume
		} else {
			it.Reply = fmt.Sprintf("%s %s %s %s", prefix, command.VerbResolve, g.GateID, choiceOf(g.Choices))
		}
		if strings.HasPrefix(g.Evidence, "https://") {
			it.URL = g.Evidence
		}
		out = append(out, it)
	}
	return append(out, tamperInbox(res.Tampered)...)
}

// tamperInbox lists the kept decisions whose source was edited or deleted:
// the owner sees who changed what, and that the decision stays in force.
func tamperInbox(ts []gatelog.Tamper) []boardview.InboxItem {
	var out []boardview.InboxItem
	for _, t := range ts {
		by := "an account GitHub did not name"
		if t.By != "" {
			by = t.By
		}
		out = append(out, boardview.InboxItem{Kind: "tampering", Subject: fmt.Sprintf("comment by %s", t.Author),
			Question: fmt.Sprintf("%s by %s after aepgate accepted it; what it blocked stays in force as accepted", t.Change, by),
			URL:      t.URL, Since: t.Created.UTC()})
	}
	return out
}

// choiceOf is the one choice, or a placeholder for one of several.
func choiceOf(choices []string) string {
	if len(choices) == 1 {
		return choices[0]
	}
	return "<choice>"
}

// LastEvidence is the newest sign of work on the attempt p: its head
// commit's date, a workflow run at the head, or a structured report
// comment (a worker report, as aep/report reads it: report.Parse).
func LastEvidence(p *snapshot.Pull) time.Time {
	last := p.HeadAt
	for _, w := range p.Workflows {
		if w.Updated.After(last) {
			last = w.Updated
		}
	}
	for _, c := range p.Conversation.Comments {
		if c.Created.After(last) && report.Parse(c.Body).Found {
			last = c.Created
		}
	}
	return last.UTC()
}
