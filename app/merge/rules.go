package merge

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/login"
)

// Rules decide what the App merges; each nil rule is the package's own. A
// negative-control test replaces one to watch what it stops get through.
type Rules struct {
	// Head is the head a merge is bound to, given the head the checks
	// judged and the head GitHub holds now (nil: Judged, the judged head).
	Head func(judged, now string) string
	// May says why the asker may not ask for a merge, "" when they may
	// (nil: May).
	May func(a Asker, cfg *config.Config) string
	// Green says why the checks shown on head do not let it merge, ""
	// when they do (nil: Green).
	Green func(head string, shown []verdict.Shown) string
	// Moved reports that a merge bound to bound no longer holds for the
	// pull request's head (nil: Moved).
	Moved func(bound, head string) bool
}

// Asker is who wrote a merge command: login, account type and live role
// on the repository.
type Asker struct {
	Login, Type, Role string
}

// or fills r's nil rules with the package's own.
func (r Rules) or() Rules {
	if r.Head == nil {
		r.Head = Judged
	}
	if r.May == nil {
		r.May = May
	}
	if r.Green == nil {
		r.Green = Green
	}
	if r.Moved == nil {
		r.Moved = Moved
	}
	return r
}

// Judged binds a merge to the head the checks judged, whatever GitHub's
// head is now: GitHub then refuses the call when the head moved.
func Judged(judged, _ string) string { return judged }

// writeRoles are the live roles that may ask for a merge.
var writeRoles = map[string]bool{"write": true, "maintain": true, "admin": true}

// May is who may ask for a merge (craft-rules §4.1: who may merge): a
// person (a User account) listed among the owners or named in
// merge.authority (a coordinator the owners granted merge authority),
// whose live role is write or above.
func May(a Asker, cfg *config.Config) string {
	switch {
	case a.Type != "User":
		return fmt.Sprintf("@%s is a %s account; only a person asks for a merge", a.Login, orUnknown(a.Type))
	case !login.In(cfg.Owners, a.Login) && !login.In(cfg.Merge.Coordinators(), a.Login):
		return fmt.Sprintf("@%s is neither an owner (%s) nor named in merge.authority (%s); ask an owner", a.Login,
			listOr(cfg.Owners), listOr(cfg.Merge.Coordinators()))
	case !writeRoles[a.Role]:
		return fmt.Sprintf("@%s's live role on the repository is %s; asking for a merge needs write, maintain or admin", a.Login, orUnknown(a.Role))
	}
	return ""
}

// Green says why the checks shown on head do not let it merge: each must
// be completed with success (aepgate/config may also be neutral: a valid
// config with warnings), and aepgate/merge, which sums them up, must be
// among them. A neutral check elsewhere (advisory mode's "would fail") is
// not green.
func Green(head string, shown []verdict.Shown) string {
	summed := false
	for _, s := range shown {
		r := s.Run
		if !strings.EqualFold(r.HeadSHA, head) {
			return fmt.Sprintf("%s was judged on %s, not on the head %s", r.Name, Short(r.HeadSHA), Short(head))
		}
		summed = summed || r.Name == checks.NameMerge
		if !passed(r) {
			return fmt.Sprintf("%s is %s on %s: %s", r.Name, stateOf(r), Short(head), r.Title)
		}
	}
	if !summed {
		return fmt.Sprintf("%s was not judged on %s", checks.NameMerge, Short(head))
	}
	return ""
}

// passed reports a completed run with success, or aepgate/config's
// neutral warning.
func passed(r checks.Run) bool {
	if r.EffectiveStatus() != checks.StatusCompleted {
		return false
	}
	return r.Conclusion == checks.ConclusionSuccess || r.Name == checks.NameConfig && r.Conclusion == checks.ConclusionNeutral
}

// Moved reports a head other than the bound one.
func Moved(bound, head string) bool { return !strings.EqualFold(bound, head) }

// stateOf is a run's conclusion, or its status while it has none.
func stateOf(r checks.Run) string {
	if r.Conclusion != "" {
		return string(r.Conclusion)
	}
	return string(r.EffectiveStatus())
}

// Short is a commit's first 12 hex digits, in a code span.
func Short(sha string) string {
	if len(sha) > 12 {
		sha = sha[:12]
	}
	return "`" + sha + "`"
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

func listOr(l []string) string {
	if len(l) == 0 {
		return "none"
	}
	return strings.Join(l, ", ")
}
