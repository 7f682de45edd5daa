package deployrules

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gitsha"
)

// Commit is one commit of a comparison: its SHA and its parents' SHAs,
// first parent first.
type Commit struct {
	SHA     string
	Parents []string
}

// Comparison is GitHub's comparison base...head ("Compare two commits":
// the commits reachable from head and not from base, in chronological
// order): its status (ahead, identical, behind, diverged), how many
// commits it counts and those it returned.
type Comparison struct {
	Status  string
	Total   int
	Commits []Commit
}

// Lineage is what the commits since the environment's last approved
// deployment are judged on under require: certified.
type Lineage struct {
	// Base is the commit of the environment's last deployment this App
	// approved; empty when it approved none yet (nothing to compare with).
	Base string
	// Since is the comparison Base...the commit being deployed.
	Since Comparison
	// Certified holds the merge commits of the units this App certified
	// (it records each certificate it writes).
	Certified map[string]bool
}

// Descends rejects, under require: certified, a commit whose first-parent
// line since the environment's last approved deployment holds a commit
// that is not a certified unit's merge commit: deploying a certified merge
// commit also ships every commit before it, so an uncertified commit
// pushed in between would reach the environment on another unit's
// certificate. The commit itself is Required's to judge. A first
// deployment (no Base) and a commit the last deployment already contains
// (identical, behind) have nothing new to judge.
func Descends(req Request, f Facts) (Answer, bool) {
	l := f.Lineage
	if f.Config.Deploy.Environments[req.Environment].Require != config.RequireCertified || l == nil || l.Base == "" {
		return Answer{}, false
	}
	switch l.Since.Status {
	case "identical", "behind":
		return Answer{}, false
	case "ahead":
	default:
		return reject("%s does not descend from %s, the last commit aepgate approved for %s (GitHub compares them as %q)",
			gitsha.Short(req.SHA), gitsha.Short(l.Base), req.Environment, l.Since.Status)
	}
	if l.Since.Total > len(l.Since.Commits) {
		return reject("%d commits lead from %s, the last commit aepgate approved for %s, to %s; aepgate judges at most %d",
			l.Since.Total, gitsha.Short(l.Base), req.Environment, gitsha.Short(req.SHA), len(l.Since.Commits))
	}
	line, ok := firstParents(l.Since.Commits, l.Base, req.SHA)
	if !ok {
		return reject("%s's first-parent line does not reach %s, the last commit aepgate approved for %s", gitsha.Short(req.SHA), gitsha.Short(l.Base), req.Environment)
	}
	var bad []string
	for _, c := range line[1:] { // line[0] is the commit deployed
		if !l.Certified[c] {
			bad = append(bad, gitsha.Short(c))
		}
	}
	if len(bad) > 0 {
		return reject("since %s, the last commit aepgate approved for %s, %s reached the branch without being a certified unit's merge commit; deploying %s would ship it uncertified",
			gitsha.Short(l.Base), req.Environment, strings.Join(bad, ", "), gitsha.Short(req.SHA))
	}
	return Answer{}, false
}

// firstParents walks head's first parents through commits until base and
// returns the line, head first and base excluded; false when the line
// leaves commits before reaching base.
func firstParents(commits []Commit, base, head string) ([]string, bool) {
	by := make(map[string]Commit, len(commits))
	for _, c := range commits {
		by[c.SHA] = c
	}
	var line []string
	for cur := head; cur != base; {
		c, ok := by[cur]
		if !ok || len(c.Parents) == 0 || len(line) > len(commits) {
			return nil, false
		}
		line = append(line, cur)
		cur = c.Parents[0]
	}
	return line, len(line) > 0
}

// describe says what the lineage rule found, for an approval's reason.
func (l *Lineage) describe(sha string) string {
	if l == nil || l.Base == "" || l.Base == sha {
		return ""
	}
	return fmt.Sprintf("; every commit since %s, the last commit approved, is a certified unit's merge commit", gitsha.Short(l.Base))
}
