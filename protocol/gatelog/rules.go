package gatelog

import (
	"fmt"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/command"
)

// Actions an item may ask for.
const (
	// ActionHold is an item asking for a HOLD (command.VerbHold).
	ActionHold     = command.VerbHold
	ActionResume   = "resume"
	ActionResolve  = "resolve"
	ActionStatus   = "status"
	ActionRecheck  = "recheck"
	ActionOpenGate = "open-gate"
	// ActionApprove is an approving review answering merge gates.
	ActionApprove = "approve"
	// ActionOverride makes one aepgate check succeed at one head
	// (command.VerbOverride; override.go).
	ActionOverride = command.VerbOverride
)

// ownerOnly are the actions that decide: only an owner's count.
var ownerOnly = map[string]bool{ActionResume: true, ActionResolve: true, ActionApprove: true, ActionOverride: true}

// Attempt is one thing an item asks for, as the rules see it.
type Attempt struct {
	Item   Item
	Action string
	// Scope is the blocking scope of a gate being opened.
	Scope string
	// GateID is the gate being opened or resolved (cleaned); Choice the
	// choice a resolve answers it with.
	GateID, Choice string
	// RawID is the gate id a resolve names as written (GateID is it
	// cleaned).
	RawID string
	// Target is the gate being resolved, when a create event for it was
	// seen: Unit is its work unit (nil for a project gate).
	Target *Target
	In     *Input
}

// Target is what is known of a gate being resolved, or answered by an
// approving review.
type Target struct {
	Unit *string
	// Origin is the thread the gate was opened on, for an approval (nil
	// when unknown; see ApprovalOwnPR).
	Origin *Source
	// Deciders are who may answer the gate when it has owners of its own
	// (a contract-change gate: its paths' owners); nil means the
	// repository's owners.
	Deciders []string
}

// Rule is one "who counts" rule: Check returns why the attempt is refused
// (saying what would be accepted), or "" when the rule lets it through.
type Rule struct {
	Name  string
	Check func(Attempt) string
}

// DefaultRules are every rule, in the order their refusals are reported.
func DefaultRules() []Rule {
	return []Rule{
		{"created-only", CreatedOnly},
		{"not-edited", NotEdited},
		{"tampered-grant", TamperedGrant},
		{"owner-decides", OwnerDecides},
		{"human-owner", HumanOwner},
		{"not-agent", NotAgent},
		{"listed-requester", ListedRequester},
		{"authoritative-coordinator", AuthoritativeCoordinator},
		{"live-write", LiveWrite},
		{"right-unit", RightUnit},
		{"project-on-control-issue", ProjectOnControlIssue},
		{"approval-at-head", ApprovalAtHead},
		{"approval-own-pr", ApprovalOwnPR},
		{"not-instructor", NotInstructorApproval},
		{"reserved-ids", ReservedIDs},
		{"exact-gate-id", ExactGateID},
	}
}

// check returns the first refusal of rules, or "".
func check(rules []Rule, a Attempt) string {
	for _, r := range rules {
		if why := r.Check(a); why != "" {
			return why
		}
	}
	return ""
}

// CreatedOnly counts only a newly created comment, or a review on a pull
// request; an edit event never counts.
func CreatedOnly(a Attempt) string {
	switch {
	case a.Item.Event == EventCommentCreated:
		return ""
	case a.Item.Event == EventReview && a.Item.Source.Kind == PullRequest && a.Item.Review != nil:
		return ""
	}
	return fmt.Sprintf("only a newly created comment or a pull request review counts (saw %q); post the command in a new comment", a.Item.Event)
}

// NotEdited refuses everything in an item edited after it was created:
// the text that counted when it was posted can no longer be shown.
func NotEdited(a Attempt) string {
	if a.Item.Updated.After(a.Item.Created) {
		return fmt.Sprintf("this comment was edited (created %s, updated %s), so nothing in it counts; post the command again in a new comment",
			a.Item.Created.UTC().Format(time.RFC3339), a.Item.Updated.UTC().Format(time.RFC3339))
	}
	return ""
}

// TamperedGrant refuses what a kept item grants (a resume, a resolve, an
// approval) once its source was edited or deleted: an edit may cancel a
// grant, never lift a block.
func TamperedGrant(a Attempt) string {
	if a.Item.Tampered == "" || !grants[a.Action] {
		return ""
	}
	return fmt.Sprintf("this comment was %s after aepgate accepted it, so what it granted no longer counts (what it blocked stays); the owner answers again in a new comment", a.Item.Tampered)
}

// OwnerDecides lets only a listed owner resume, resolve or approve: for a
// contract-change gate an owner of its paths (Target.Deciders), for
// anything else the repository's owners. What the item says (e.g. "the
// owner approved") is never authority: only the sender's login is looked
// at.
func OwnerDecides(a Attempt) string {
	who := deciders(a)
	if !ownerOnly[a.Action] || listed(who, a.Item.Author) {
		return ""
	}
	if a.Target != nil && a.Target.Deciders != nil {
		return fmt.Sprintf("only an owner of the contract paths gate %s covers (%s) may %s; %s does not own them, and an answer relayed for an owner does not count: the owner answers in their own comment or review",
			a.GateID, logins(who), verb(a.Action), a.Item.Author)
	}
	return fmt.Sprintf("only an owner (%s) may %s; %s is not listed in owners, and an answer relayed for an owner does not count: the owner answers in their own comment or review",
		logins(who), verb(a.Action), a.Item.Author)
}

// HumanOwner refuses a decision from a Bot account, whatever its login.
func HumanOwner(a Attempt) string {
	if !ownerOnly[a.Action] {
		return ""
	}
	if a.Item.AuthorType != "User" || strings.HasSuffix(strings.ToLower(a.Item.Author), "[bot]") {
		return fmt.Sprintf("%s is a %s account; an owner's decision counts only from a User account", a.Item.Author, orUnknown(a.Item.AuthorType))
	}
	return ""
}

// LiveWrite refuses any request unless GitHub confirms the sender's write,
// maintain or admin permission right now; unknown refuses. A listed owner
// or coordinator who lost write access no longer counts, and an account
// without write access never does, whatever the config lists. A HOLD or
// gate the App already accepted and kept was judged then and stays.
func LiveWrite(a Attempt) string {
	if acceptedBlock(a) {
		return ""
	}
	switch p := permission(a.In.Permissions, a.Item.Author); p {
	case "write", "maintain", "admin":
		return ""
	case "":
		return fmt.Sprintf("%s's permission on this repository could not be confirmed, so nothing was decided; aepgate tries again on the next evaluation", a.Item.Author)
	default:
		return fmt.Sprintf("%s's permission on this repository is %q right now; a command counts only from write, maintain or admin", a.Item.Author, p)
	}
}

// AuthoritativeCoordinator: when the config names the repository's one
// authoritative coordinator (craft-rules: one per scope), a coordinator's
// request counts only from that one; owners are not affected.
func AuthoritativeCoordinator(a Attempt) string {
	c := a.In.Policy.Coordinator
	if c == "" || ownerOnly[a.Action] || acceptedBlock(a) || listed(a.In.Policy.Owners, a.Item.Author) || listed([]string{c}, a.Item.Author) {
		return ""
	}
	return fmt.Sprintf("%s may not %s: %s is the one authoritative coordinator of this repository (the coordinators scope map), and craft allows one per scope; %s or an owner writes it",
		a.Item.Author, verb(a.Action), c, c)
}

// ListedRequester lets only owners and coordinators hold, open gates and
// ask for status or a recheck.
func ListedRequester(a Attempt) string {
	if ownerOnly[a.Action] || acceptedBlock(a) || listed(a.In.Policy.Owners, a.Item.Author) || listed(a.In.Policy.Coordinators, a.Item.Author) {
		return ""
	}
	return fmt.Sprintf("only owners (%s) and coordinators (%s) may %s; %s is neither", logins(a.In.Policy.Owners), logins(a.In.Policy.Coordinators), verb(a.Action), a.Item.Author)
}
