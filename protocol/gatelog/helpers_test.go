package gatelog

import (
	"fmt"
	"strings"
	"time"
)

var (
	t0    = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	headA = strings.Repeat("a", 40)
	headB = strings.Repeat("b", 40)

	unitIssue = Source{Kind: UnitIssue, Number: 13}
	onPR      = Source{Kind: PullRequest, Number: 21}
	onPR22    = Source{Kind: PullRequest, Number: 22}
	control   = Source{Kind: ControlIssue, Number: 1}
)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

// comment is a created, unedited comment by a User.
func comment(id int64, who string, src Source, min int, body string) Item {
	return Item{ID: id, URL: fmt.Sprintf("https://github.com/acme/w/issues/%d#issuecomment-%d", src.Number, id), Source: src,
		Author: who, AuthorType: "User", Created: at(min), Updated: at(min), Body: body, Event: EventCommentCreated}
}

// review is a review on pull request 21 (or src) at sha.
func review(id int64, who string, src Source, min int, state, sha, body string) Item {
	it := comment(id, who, src, min, body)
	it.Event, it.Review = EventReview, &Review{State: state, CommitSHA: sha}
	it.URL = fmt.Sprintf("https://github.com/acme/w/pull/%d#pullrequestreview-%d", src.Number, id)
	return it
}

func with(it Item, f func(*Item)) Item { f(&it); return it }

// input is work unit 13 with pull request 21 at headA; alice owns, carol
// and coord[bot] coordinate, mallory merely has write access.
func input(items ...Item) Input {
	return Input{
		Project: "demo", Unit: 13, ControlIssue: 1, PR: 21, Items: items, AppLogin: "aepgate[bot]",
		PullRequests: []PullRequestState{{Number: 21, Head: headA, HeadAt: at(0)}},
		Policy:       Policy{Owners: []string{"Alice"}, Coordinators: []string{"carol", "coord[bot]"}},
		Permissions:  Permissions{"alice": "admin", "carol": "write", "mallory": "write", "coord[bot]": "write"},
	}
}

// gateBlock is an aep-gate block asking the given question.
func gateBlock(id, scope, question string) string {
	b := "Please decide:\n\n```aep-gate\n"
	if id != "" {
		b += "id: " + id + "\n"
	}
	if scope != "" {
		b += "scope: " + scope + "\n"
	}
	return b + "question: " + question + "\nchoices: [approve, reject]\ncategory: human-product-judgment-action\neffect: deploy\nsafe_default: reject\n```\n"
}

// tokens lists the blockers' tokens.
func tokens(r Result) []string {
	out := []string{}
	for _, b := range r.Blockers {
		out = append(out, b.Token)
	}
	return out
}

// short is an outcome without its reason, for comparing.
type short_ struct {
	Item     int64
	Line     int
	Action   string
	Gate     string
	Accepted bool
}

func shorts(os []Outcome) []short_ {
	out := []short_{}
	for _, o := range os {
		out = append(out, short_{o.ItemID, o.Line, o.Action, o.GateID, o.Accepted})
	}
	return out
}

func without(name string) []Rule {
	var out []Rule
	for _, r := range DefaultRules() {
		if r.Name != name {
			out = append(out, r)
		}
	}
	return out
}
