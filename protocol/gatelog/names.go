package gatelog

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/login"
)

// listed reports whether name is in logins (login.Equal: ASCII case only).
func listed(logins []string, name string) bool { return listedBy(logins, name, login.Equal) }

// listedBy is listed with the login comparison given (tests pass a looser
// one to show what the ASCII-only fold stops).
func listedBy(logins []string, name string, same func(a, b string) bool) bool {
	for _, l := range logins {
		if same(l, name) {
			return true
		}
	}
	return false
}

// permission looks name up: the key the App filled, or else one equal to
// it under login.Equal (ASCII case only); "" when unknown.
func permission(p Permissions, name string) string {
	return permissionBy(p, name, login.Equal)
}

// permissionBy is permission with the login comparison given (tests pass
// a looser one to show what the ASCII-only fold stops).
func permissionBy(p Permissions, name string, same func(a, b string) bool) string {
	if v, ok := p[name]; ok {
		return v
	}
	for k, v := range p {
		if same(k, name) {
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
