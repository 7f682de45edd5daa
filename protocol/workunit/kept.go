package workunit

import (
	"fmt"
	"slices"
	"strings"
)

// A unit's contract and a milestone's increment definition are inputs a
// decision rests on (the audit's tier, closure's low-risk path, the
// increment's tier), and GitHub lets every writer edit an issue body or a
// milestone description. So the App keeps each as first judged, and a later
// change counts whole only when someone entitled made it (an owner; for a
// unit, also a coordinator). Any other change counts only where it asks at
// least as much as the kept value: the kept and the new contract are
// combined at the stricter of the two (StricterContract), and every part of
// the change that asked less is listed, to be shown as tampering.

// Raises reports whether risk a ranks above risk b (an unknown or empty
// risk ranks below low).
func (r Risk) Raises(b Risk) bool { return r.rank() > b.rank() }

// StricterContract combines the kept contract with a changed one made by
// someone not entitled to change it: the higher risk, every acceptance
// criterion and every dependency of both, and the kept goal, non-goals and
// class (a different class or scope is a change only an owner makes). It
// returns the contract that counts and what of next did not count, one line
// per part; none when next asks at least as much as kept in every part.
func StricterContract(kept, next Contract) (Contract, []string) {
	out := kept
	var ignored []string
	if next.Risk.Raises(kept.Risk) {
		out.Risk = next.Risk
	} else if next.Risk != kept.Risk {
		ignored = append(ignored, fmt.Sprintf("risk lowered from %s to %s", kept.Risk, orNone(string(next.Risk))))
	}
	if next.Class != kept.Class {
		ignored = append(ignored, fmt.Sprintf("class changed from %s to %s", kept.Class, orNone(string(next.Class))))
	}
	if next.Goal != kept.Goal {
		ignored = append(ignored, "goal changed")
	}
	if !slices.Equal(next.NonGoals, kept.NonGoals) {
		ignored = append(ignored, "non_goals changed")
	}
	var dropped []string
	out.Acceptance, dropped = union(kept.Acceptance, next.Acceptance)
	for _, a := range dropped {
		ignored = append(ignored, fmt.Sprintf("acceptance criterion %q removed", a))
	}
	var deps []int
	out.DependsOn, deps = union(kept.DependsOn, next.DependsOn)
	for _, d := range deps {
		ignored = append(ignored, fmt.Sprintf("dependency #%d removed", d))
	}
	return out, ignored
}

// StricterIncrement combines a milestone's kept increment definition with a
// changed one whose change is not an owner's: the higher risk tier, and the
// kept demonstration and non-goals. It returns the definition that counts
// and what of next did not count; none when next asks at least as much.
func StricterIncrement(kept, next IncrementSpec) (IncrementSpec, []string) {
	out := kept
	var ignored []string
	if next.Risk.Raises(kept.Risk) {
		out.Risk = next.Risk
	} else if next.Risk != kept.Risk {
		ignored = append(ignored, fmt.Sprintf("risk lowered from %s to %s", orNone(string(kept.Risk)), orNone(string(next.Risk))))
	}
	if next.Demonstration != kept.Demonstration {
		ignored = append(ignored, "demonstration changed")
	}
	if !slices.Equal(next.NonGoals, kept.NonGoals) {
		ignored = append(ignored, "non_goals changed")
	}
	return out, ignored
}

// union is kept followed by what next adds, and what of kept next lacks.
func union[T comparable](kept, next []T) (all, dropped []T) {
	all = slices.Clone(kept)
	for _, v := range next {
		if !slices.Contains(all, v) {
			all = append(all, v)
		}
	}
	for _, v := range kept {
		if !slices.Contains(next, v) {
			dropped = append(dropped, v)
		}
	}
	return all, dropped
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// Kept is a contract as the App keeps it: the contract that counts and,
// when the body now says something else that did not count, what and who.
type Kept struct {
	Contract Contract
	// Ignored lists the parts of the body's contract that did not count
	// (StricterContract); EditedBy is who last edited the body ("" when
	// GitHub does not say).
	Ignored  []string
	EditedBy string
}

// Tampered reports whether the body says something that did not count.
func (k *Kept) Tampered() bool { return k != nil && len(k.Ignored) > 0 }

// Tamper is one line saying what of the body did not count and who changed
// it, for the check runs and the board; "" when nothing.
func (k *Kept) Tamper() string {
	if !k.Tampered() {
		return ""
	}
	by := "someone GitHub does not name"
	if k.EditedBy != "" {
		by = "`" + k.EditedBy + "`"
	}
	return fmt.Sprintf("the contract was changed by %s, who may not change it, so the kept contract counts (%s); an owner or coordinator edits the issue to make a change count",
		by, strings.Join(k.Ignored, "; "))
}

// KeepContract decides what counts when the body's contract is next and
// the kept one is kept (nil: none kept yet). A change counts whole when
// entitled (an owner or coordinator made it) or when it asks at least as
// much as kept; otherwise the stricter of the two counts
// (StricterContract). It returns the contract to keep from now on and what
// of next did not count.
func KeepContract(kept *Contract, next Contract, entitled bool) (Contract, []string) {
	if kept == nil || entitled {
		return next, nil
	}
	return StricterContract(*kept, next)
}

// KeepIncrement is KeepContract for a milestone's increment definition.
func KeepIncrement(kept *IncrementSpec, next IncrementSpec, entitled bool) (IncrementSpec, []string) {
	if kept == nil || entitled {
		return next, nil
	}
	return StricterIncrement(*kept, next)
}

// Effective is the unit's contract that counts, with the problems of the
// body's own contract: the kept contract when the App keeps one, else the
// body's.
func (u *Issue) Effective() (Contract, []Problem) {
	c, probs := ParseContract(u.Body)
	if u.Kept != nil {
		c = u.Kept.Contract
	}
	return c, probs
}

// Effective is the story's contract that counts (Issue.Effective).
func (s *Story) Effective() (Contract, []Problem) {
	c, probs := ParseContract(s.Body)
	if s.Kept != nil {
		c = s.Kept.Contract
	}
	return c, probs
}
