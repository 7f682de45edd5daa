package workunit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/closurerules"
)

// Limits of an increment (craft-rules §5.2: 1…8 stories).
const (
	minStories = 1
	maxStories = 8
)

// Dep is an issue that blocks another (GitHub's native blocked-by).
type Dep struct {
	Repo   string // "owner/name" when in another repository, else empty
	Number int
	Open   bool
	// Closure is how the App judged the issue's closure (protocol/closurerules);
	// nil when it has no record of it. A closed dependency counts as met
	// only when its closure counts as done.
	Closure *closurerules.Verdict
}

// Story is one issue of a milestone as the increment rules see it.
type Story struct {
	Number    int
	Open      bool
	Body      string
	BlockedBy []Dep
	// Closure is how the App judged the story's closure; nil when it has
	// no record of it (see Dep.Closure).
	Closure *closurerules.Verdict
	// Kept is the contract the App keeps for the story; nil when it keeps
	// none (the body's counts).
	Kept *Kept
}

// Milestone is a milestone with every issue in it (its stories).
type Milestone struct {
	Number      int
	Title       string
	Open        bool
	Description string
	Stories     []Story
	// Truncated is set when GitHub holds more issues than were fetched.
	Truncated bool
}

// Issue is the issue a pull request names as its unit.
type Issue struct {
	Number        int
	Title         string
	Open          bool
	IsPullRequest bool
	Body          string
	BlockedBy     []Dep
	// BlockersUnlisted counts blocking issues GitHub holds beyond those in
	// BlockedBy (the list was cut short); their state is unknown.
	BlockersUnlisted int
	Milestone        *Milestone
	// Unreadable, when set, is why GitHub refused to show the issue (the App
	// may lack Issues: read); nothing else about it is known.
	Unreadable string
	// Editor is who last edited the body ("" when never edited or GitHub
	// does not say); Kept is the contract the App keeps for the unit (nil:
	// the body's counts), set by the App before the unit is judged.
	Editor string
	Kept   *Kept
}

// Input is everything a work-unit verdict depends on: the references parsed
// from the pull request body and, when exactly one same-repository unit is
// named, that unit as GitHub holds it now (nil when it does not exist).
type Input struct {
	Refs []Ref
	Unit *Issue
	// PR is the pull request judged. Lanes are the open attempts of the
	// unit's increment, it among them, judged against Limits (OverLimits);
	// nil Lanes are not judged.
	PR     int
	Lanes  []Lane
	Limits Limits
	// LanesUnread are the stories of the increment whose open attempts
	// could not all be read, so Lanes lacks some: a set WIP limit cannot
	// be judged and the pull request is refused (limitsUnknown).
	LanesUnread []int
}

// Verdict is the answer for one pull request: OK when it names exactly one
// open unit whose contract and increment are valid and whose dependencies
// are all closed. Reasons lists every failure, in a stable order.
type Verdict struct {
	OK       bool
	Unit     int // the named unit, 0 when none or several
	Contract Contract
	Reasons  []string
	// Tamper says what of the issue body's contract did not count and who
	// changed it (Kept.Tamper); "" when nothing.
	Tamper string
}

// Evaluate judges one pull request against its work unit.
func Evaluate(in Input) Verdict {
	var v Verdict
	switch len(in.Refs) {
	case 0:
		return fail("the pull request names no work unit: add a line `Work-unit: #N` (or a closing keyword such as `Fixes #N`) to its description")
	case 1:
	default:
		names := make([]string, len(in.Refs))
		for i, r := range in.Refs {
			names[i] = r.String()
		}
		return fail(fmt.Sprintf("the pull request names %d work units (%s); an attempt works on exactly one", len(in.Refs), strings.Join(names, ", ")))
	}
	ref := in.Refs[0]
	if ref.Repo != "" {
		return fail(fmt.Sprintf("%s is in another repository; the work unit must be an issue of this repository", ref))
	}
	v.Unit = ref.Number
	u := in.Unit
	switch {
	case u == nil:
		v.Reasons = []string{fmt.Sprintf("#%d does not exist or the App cannot read it", ref.Number)}
		return v
	case u.Unreadable != "":
		v.Reasons = []string{fmt.Sprintf("#%d cannot be read by the App (%s); grant the App \"Issues: read\" on this repository", ref.Number, u.Unreadable)}
		return v
	case u.IsPullRequest:
		v.Reasons = []string{fmt.Sprintf("#%d is a pull request, not an issue; name the work unit's issue", ref.Number)}
		return v
	}
	if !u.Open {
		v.Reasons = append(v.Reasons, fmt.Sprintf("#%d is closed; an attempt needs an open work unit", u.Number))
	}
	c, probs := u.Effective()
	v.Contract, v.Tamper = c, u.Kept.Tamper()
	for _, p := range probs {
		v.Reasons = append(v.Reasons, fmt.Sprintf("#%d contract: %s", u.Number, p))
	}
	v.Reasons = append(v.Reasons, incrementReasons(u, c, len(probs) == 0)...)
	if over, ok := OverLimits(lanesOf(in), in.Limits)[in.PR]; ok && in.Lanes != nil {
		v.Reasons = append(v.Reasons, over.Reason)
	} else if r := limitsUnknown(in); r != "" {
		v.Reasons = append(v.Reasons, r)
	}
	v.OK = len(v.Reasons) == 0
	return v
}

// lanesOf is the open attempts of in with the lanes the closed stories of
// the unit's milestone still hold (HeldLanes): a unit closed without
// evidence counts against the WIP limit until it is done.
func lanesOf(in Input) []Lane {
	if in.Lanes == nil || in.Unit == nil || in.Unit.Milestone == nil {
		return in.Lanes
	}
	return append(slices.Clone(in.Lanes), HeldLanes(*in.Unit.Milestone)...)
}

// limitsUnknown is why in's WIP limits cannot be judged: a limit is set
// and some story's open attempts are unknown (more attempts beyond those
// read could put this one over it); "" when they can be. An attempt over
// a limit among the attempts read is over it among all of them (the older
// keep their place), so that is reported instead.
func limitsUnknown(in Input) string {
	if in.Lanes == nil || len(in.LanesUnread) == 0 || (in.Limits.AttemptsPerUnit <= 0 && in.Limits.LanesPerIncrement <= 0) {
		return ""
	}
	names := make([]string, len(in.LanesUnread))
	for i, n := range in.LanesUnread {
		names[i] = fmt.Sprintf("#%d", n)
	}
	return fmt.Sprintf("the WIP limits (%s, %s) cannot be judged: GitHub holds more mentions of %s than the App could read, and its index of open attempts cannot vouch for them, so some open attempts are unknown; close the stale pull requests that name them, or wait for the App's next sweep, which lists the open pull requests and judges this one again",
		LimitAttempts, LimitLanes, strings.Join(names, ", "))
}

func fail(reason string) Verdict { return Verdict{Reasons: []string{reason}} }

// incrementReasons checks the unit's milestone and the unit's dependencies.
func incrementReasons(u *Issue, c Contract, contractOK bool) []string {
	m := u.Milestone
	if m == nil {
		return []string{fmt.Sprintf("#%d is in no milestone; a work unit is a story of a milestone (its product increment)", u.Number)}
	}
	var out []string
	if !m.Open {
		out = append(out, fmt.Sprintf("milestone %q is closed", m.Title))
	}
	out = append(out, CheckIncrement(*m)...)
	out = append(out, dependencyReasons(u, c, *m, contractOK)...)
	return out
}

// dependencyReasons lists the unit's dependencies that are unknown or still
// open: contract depends_on (stories of the same milestone) and native
// blocked-by issues.
func dependencyReasons(u *Issue, c Contract, m Milestone, contractOK bool) []string {
	var out []string
	if contractOK {
		for _, n := range c.DependsOn {
			i := slices.IndexFunc(m.Stories, func(s Story) bool { return s.Number == n })
			switch {
			case n == u.Number:
				out = append(out, fmt.Sprintf("#%d depends_on itself", n))
			case i < 0:
				out = append(out, fmt.Sprintf("#%d depends_on #%d, which is not a story of milestone %q", u.Number, n, m.Title))
			case m.Stories[i].Open:
				out = append(out, fmt.Sprintf("dependency #%d is still open; finish it before this unit", n))
			default:
				out = append(out, notDone(n, m.Stories[i].Closure)...)
			}
		}
	}
	for _, d := range u.BlockedBy {
		switch {
		case d.Open:
			out = append(out, fmt.Sprintf("#%d is blocked by %s%s, which is still open", u.Number, d.Repo, "#"+fmt.Sprint(d.Number)))
		case d.Repo != "":
			// Another repository's closure is not judged by this App:
			// GitHub's closed state is what it can see.
		default:
			out = append(out, notDone(d.Number, d.Closure)...)
		}
	}
	if u.BlockersUnlisted > 0 {
		out = append(out, fmt.Sprintf("#%d is blocked by %d more issues than the App reads (%d); it cannot tell whether they are closed", u.Number, u.BlockersUnlisted, len(u.BlockedBy)))
	}
	return out
}

// notDone says why closed dependency n does not count as done (nil when
// it does): its closure must be judged done by protocol/closurerules.
func notDone(n int, v *closurerules.Verdict) []string {
	if v == nil {
		return []string{fmt.Sprintf("dependency #%d is closed, but aepgate holds no judgement of its closure (it was closed while the App did not see it); an owner says `/aep close <reason>` on #%d, or reopens and closes it, to have it judged", n, n)}
	}
	if why := v.Blocking(); why != "" {
		return []string{why}
	}
	return nil
}
