package incrementrules

import (
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/protocol/command"
)

// NotEdited: nothing in a comment edited after it was posted counts.
func NotEdited(c Comment) string {
	if c.Updated.After(c.Created) {
		return fmt.Sprintf("comment %d was edited after it was posted", c.ID)
	}
	return ""
}

// NotUnderHold: nothing said while a HOLD applied counts (craft §3.4: a
// HOLD blocks closure; the owner's `resume` lifts it, then a new comment
// counts).
func NotUnderHold(c Comment) string {
	if c.Hold != "" {
		return fmt.Sprintf("a HOLD applied when comment %d was posted (%s); once an owner's `resume` lifts it, a new comment counts", c.ID, c.Hold)
	}
	return ""
}

// AcceptSameMilestone: an acceptance names this increment's milestone.
func AcceptSameMilestone(f Facts, c command.Command) string {
	if c.Milestone == f.Milestone {
		return ""
	}
	return fmt.Sprintf("it accepts milestone %d, not %d", c.Milestone, f.Milestone)
}

// BoundToCandidate: an acceptance names the integrated candidate; one of
// an earlier candidate does not carry over (craft §5.5).
func BoundToCandidate(f Facts, c command.Command) string {
	if c.SHA != "" && c.SHA == f.Candidate.SHA {
		return ""
	}
	if f.Candidate.SHA == "" {
		return fmt.Sprintf("it accepts %s, and milestone %d has no integrated candidate yet", c.SHA, f.Milestone)
	}
	return fmt.Sprintf("it accepts %s, the candidate is %s", c.SHA, f.Candidate.SHA)
}

// DemoSameMilestone: a demonstration names this increment's milestone.
func DemoSameMilestone(f Facts, d Demo) string {
	if d.Milestone == f.Milestone {
		return ""
	}
	return fmt.Sprintf("it demonstrates milestone %d, not %d", d.Milestone, f.Milestone)
}

// ExactCriterion: a demonstration repeats the declared criterion exactly,
// case and every character (craft §5.4 "exact (case-sensitive)").
func ExactCriterion(f Facts, d Demo) string {
	if d.Criterion == f.Criterion {
		return ""
	}
	return fmt.Sprintf("its criterion %q is not the milestone's %q", d.Criterion, f.Criterion)
}

// EvidenceReadBack: the App read the named evidence back from GitHub.
func EvidenceReadBack(f Facts, d Demo) string {
	why, read := f.Evidence[d.Evidence.Key()]
	switch {
	case !read:
		return fmt.Sprintf("its evidence %s was not read back", d.Evidence.Key())
	case why != "":
		return fmt.Sprintf("its evidence %s: %s", d.Evidence.Key(), why)
	}
	return ""
}

// counted reports whether a comment counts and its author has authority
// by rules against the listed logins.
func counted(r Rules, c Comment, listed []string) bool {
	return refusedComment(r, c, listed) == ""
}

func acceptRefused(f Facts, r Rules, cmd command.Command) string {
	for _, a := range r.Accept {
		if why := a.Check(f, cmd); why != "" {
			return why
		}
	}
	return ""
}

// demonstrated is the newest demonstration that counts (nil: none).
func demonstrated(f Facts, r Rules) *Demonstrated {
	var out *Demonstrated
	listed := slices.Concat(f.Owners, f.Coordinators)
	for _, c := range f.Comments {
		if !counted(r, c, listed) {
			continue
		}
		for _, d := range ParseDemos(c.Body) {
			if d.Err == nil && demoRefused(f, r, d) == "" {
				out = &Demonstrated{CommentID: c.ID, Author: c.Author.Login, Criterion: d.Criterion, Evidence: d.Evidence}
			}
		}
	}
	return out
}

func demoRefused(f Facts, r Rules, d Demo) string {
	for _, dr := range r.Demo {
		if why := dr.Check(f, d); why != "" {
			return why
		}
	}
	return ""
}

// Named are the commits owners named in counted, well-formed acceptances
// of this milestone (any SHA), oldest first: an owner may name a later
// default-branch commit as the integrated candidate (Choose).
func Named(f Facts, r Rules) []string {
	var out []string
	for _, c := range f.Comments {
		if !counted(r, c, f.Owners) {
			continue
		}
		for _, cmd := range command.Parse(c.Body, f.Prefix) {
			if cmd.Verb == command.VerbAccept && cmd.Err == nil && cmd.Milestone == f.Milestone {
				out = append(out, cmd.SHA)
			}
		}
	}
	return out
}

// Evidences are the evidences that well-formed demo blocks of this
// milestone name in comments that count, for the App to read back.
func Evidences(f Facts, r Rules) []Evidence {
	var out []Evidence
	listed := slices.Concat(f.Owners, f.Coordinators)
	for _, c := range f.Comments {
		if !counted(r, c, listed) {
			continue
		}
		for _, d := range ParseDemos(c.Body) {
			if d.Err == nil && d.Milestone == f.Milestone && !slices.Contains(out, d.Evidence) {
				out = append(out, d.Evidence)
			}
		}
	}
	return out
}
