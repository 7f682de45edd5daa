package gatelog

import (
	"fmt"
	"github.com/aepgate/aepgate/protocol/command"
	"strings"
)

// listed reports whether login is in logins, ignoring case.
func listed(logins []string, login string) bool {
	for _, l := range logins {
		if login != "" && strings.EqualFold(l, login) {
			return true
		}
	}
	return false
}

// permission looks login up, ignoring case; "" when unknown.
func permission(p Permissions, login string) string {
	if v, ok := p[login]; ok {
		return v
	}
	for k, v := range p {
		if strings.EqualFold(k, login) {
			return v
		}
	}
	return ""
}

func logins(l []string) string {
	if len(l) == 0 {
		return "none listed"
	}
	return strings.Join(l, ", ")
}

func verb(action string) string {
	switch action {
	case ActionOpenGate:
		return "open a gate"
	case ActionApprove:
		return "answer a gate by approving"
	case ActionStatus, ActionRecheck:
		return "ask for " + action
	}
	return action
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func short(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}

func reviewSHA(it Item) string {
	if it.Review == nil {
		return ""
	}
	return it.Review.CommitSHA
}

func headOf(in *Input, pr int) string {
	for _, p := range in.PullRequests {
		if p.Number == pr {
			return p.Head
		}
	}
	return ""
}

func controlIssue(in *Input) string {
	if in.ControlIssue > 0 {
		return fmt.Sprintf("the control issue #%d", in.ControlIssue)
	}
	return "the control issue (the issue labelled aepgate:control)"
}

func prefixOr(p string) string {
	if p == "" {
		return command.DefaultPrefix
	}
	return p
}
