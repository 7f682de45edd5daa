package certificate

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/refusal"
)

// Independence is aepgate's addition for a pull request a listed agent
// made (docs/audit.md, "Agents and their instructors"): who did what, so a
// verifier sees without GitHub that the approvals came from people
// independent of the agents and of whoever instructed them.
type Independence struct {
	// Pushes are the pull request's heads, oldest first.
	Pushes []Push `json:"pushes"`
	// Counted are the approvals that counted (audits, approving reviews,
	// gate answers, commands), each as given.
	Counted []Approval `json:"counted"`
	// Needed is how many distinct people had to count (agents.approvals).
	Needed int `json:"needed"`
	// Assigners are who instructed an agent on the unit issue, not for
	// one push: who assigned it there, and who was assigned when it was.
	Assigners []Assigner `json:"assigners,omitempty"`
}

// Assigner is one person who instructed an agent on the unit issue, and
// how (AssignerRoles).
type Assigner struct {
	Login string `json:"login"`
	Agent string `json:"agent"`
	Role  string `json:"role"`
}

// The roles of an Assigner.
const (
	RoleAssigned = "assigned"
	RoleAssignee = "assignee"
)

// AssignerRoles are every role an Assigner may have.
var AssignerRoles = []string{RoleAssigned, RoleAssignee}

// Push is one head of the pull request: its number (from 1, oldest
// first), the commit, who pushed it (Author; "" when GitHub named nobody),
// the listed agent that made it ("" for a person's push) and who
// instructed that agent for it (nil when nobody did).
type Push struct {
	N          int          `json:"n"`
	Head       string       `json:"head"`
	Author     string       `json:"author,omitempty"`
	Agent      string       `json:"agent,omitempty"`
	Instructor *Instruction `json:"instructor,omitempty"`
}

// Instruction is who instructed an agent for a push, and through which
// channel (Channels).
type Instruction struct {
	Login   string `json:"login"`
	Channel string `json:"channel"`
}

// Approval is one approval that counted: who gave it, what it was
// (ApprovalKinds) and the head it was given on.
type Approval struct {
	Login string `json:"login"`
	Kind  string `json:"kind"`
	Head  string `json:"head"`
}

// The channels an instruction may come through, as the certificate names
// them.
const (
	ChannelIssueAssignment = "issue-assignment"
	ChannelPullAssignment  = "pull-assignment"
	ChannelComment         = "comment"
	ChannelReview          = "review"
	ChannelReviewComment   = "review-comment"
	ChannelLabel           = "label"
	ChannelWorkflow        = "workflow"
)

// Channels are every instruction channel a certificate may name.
var Channels = []string{ChannelIssueAssignment, ChannelPullAssignment, ChannelComment, ChannelReview, ChannelReviewComment, ChannelLabel, ChannelWorkflow}

// The kinds of approval a certificate may name.
const (
	ApprovalAudit   = "audit"
	ApprovalReview  = "review"
	ApprovalGate    = "gate"
	ApprovalCommand = "command"
)

// ApprovalKinds are every approval kind a certificate may name.
var ApprovalKinds = []string{ApprovalAudit, ApprovalReview, ApprovalGate, ApprovalCommand}

const independenceExpected = "{pushes: [{n (1, 2, … in order), head (40 lowercase hex), author?, agent?, instructor? {login, channel (" +
	"issue-assignment|pull-assignment|comment|review|review-comment|label|workflow)} only with agent}] (at least one), " +
	"counted: [{login, kind (audit|review|gate|command), head (40 lowercase hex)}], needed (a positive integer)}, " +
	"assigners? [{login, agent, role (assigned|assignee)}], " +
	"with at least needed distinct counted logins, none of them an agent, an instructor of a push or an assigner"

// ruleIndependence checks independence when present: well formed as
// Independence, and independent on its face: at least needed distinct
// people counted, and none of them made or instructed a push or assigned
// an agent on the unit issue. A
// certificate without the key (every certificate of a pull request no
// agent made, and every one written before the key existed) passes.
func ruleIndependence(m map[string]any) []refusal.Refusal {
	v, ok := m["independence"]
	if !ok {
		return nil
	}
	bad := []refusal.Refusal{{Token: "invalid:independence", Expected: independenceExpected, Seen: show(v)}}
	obj, isObj := v.(map[string]any)
	if !isObj || len(obj) != 3+present(obj, "assigners") {
		return bad
	}
	involved, ok := pushesOK(obj["pushes"])
	if !ok {
		return bad
	}
	if a, has := obj["assigners"]; has {
		assigners, ok := assignersOK(a)
		if !ok {
			return bad
		}
		involved = append(involved, assigners...)
	}
	needed, ok := obj["needed"].(json.Number)
	if !ok || !positiveInt().MatchString(needed.String()) {
		return bad
	}
	n, err := strconv.Atoi(needed.String())
	counted, ok := countedOK(obj["counted"], involved)
	if err != nil || !ok || len(counted) < n {
		return bad
	}
	return nil
}

// pushesOK checks the pushes list and returns the lowercase logins of its
// agents and instructors.
func pushesOK(v any) ([]string, bool) {
	list, isList := v.([]any)
	if !isList || len(list) == 0 {
		return nil, false
	}
	var involved []string
	for i, e := range list {
		obj, isObj := e.(map[string]any)
		if !isObj || !numberIs(obj["n"], i+1) || !isSHA(obj["head"]) {
			return nil, false
		}
		keys := 2
		for _, k := range []string{"author", "agent"} {
			if s, present := obj[k]; present {
				if !nonBlank(s) {
					return nil, false
				}
				keys++
			}
		}
		if agent, present := obj["agent"]; present {
			involved = append(involved, strings.ToLower(agent.(string)))
		}
		if in, present := obj["instructor"]; present {
			who, ok := instructionOK(in)
			if !ok || obj["agent"] == nil {
				return nil, false
			}
			involved = append(involved, who)
			keys++
		}
		if len(obj) != keys {
			return nil, false
		}
	}
	return involved, true
}

// assignersOK checks the assigners list (at least one when present) and
// returns their lowercase logins.
func assignersOK(v any) ([]string, bool) {
	list, isList := v.([]any)
	if !isList || len(list) == 0 {
		return nil, false
	}
	var out []string
	for _, e := range list {
		obj, isObj := e.(map[string]any)
		if !isObj || len(obj) != 3 || !nonBlank(obj["login"]) || !nonBlank(obj["agent"]) {
			return nil, false
		}
		if role, ok := obj["role"].(string); !ok || !slices.Contains(AssignerRoles, role) {
			return nil, false
		}
		out = append(out, strings.ToLower(obj["login"].(string)))
	}
	return out, true
}

// present is 1 when m has key, else 0.
func present(m map[string]any, key string) int {
	if _, ok := m[key]; ok {
		return 1
	}
	return 0
}

func instructionOK(v any) (string, bool) {
	obj, isObj := v.(map[string]any)
	if !isObj || len(obj) != 2 || !nonBlank(obj["login"]) {
		return "", false
	}
	ch, ok := obj["channel"].(string)
	if !ok || !slices.Contains(Channels, ch) {
		return "", false
	}
	return strings.ToLower(obj["login"].(string)), true
}

// countedOK checks the counted approvals and returns their distinct
// lowercase logins; an approval by an agent or instructor of a push
// (involved) is refused.
func countedOK(v any, involved []string) ([]string, bool) {
	list, isList := v.([]any)
	if !isList {
		return nil, false
	}
	var people []string
	for _, e := range list {
		obj, isObj := e.(map[string]any)
		if !isObj || len(obj) != 3 || !nonBlank(obj["login"]) || !isSHA(obj["head"]) {
			return nil, false
		}
		kind, ok := obj["kind"].(string)
		if !ok || !slices.Contains(ApprovalKinds, kind) {
			return nil, false
		}
		who := strings.ToLower(obj["login"].(string))
		if slices.Contains(involved, who) {
			return nil, false
		}
		if !slices.Contains(people, who) {
			people = append(people, who)
		}
	}
	return people, true
}

func nonBlank(v any) bool {
	s, ok := v.(string)
	return ok && strings.TrimSpace(s) != "" && s == strings.TrimSpace(s)
}

func isSHA(v any) bool {
	s, ok := v.(string)
	return ok && sha40().MatchString(s)
}

func numberIs(v any, n int) bool {
	x, ok := v.(json.Number)
	return ok && x.String() == strconv.Itoa(n)
}
