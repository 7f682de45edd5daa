package verdict

import (
	"errors"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
	"github.com/aepgate/aepgate/review"
)

// ConfigPath is the repository config file the evaluation parses.
const ConfigPath = config.DefaultPath

// Evaluation is what every check of one pull request head is judged on:
// the snapshot and the repository config, parsed once (New), and what the
// App read for it besides (the fields below Unit, set by the read phase of
// app/pull before any check runs: the Reads its checks declared). The
// values derived from them are computed once, through their accessors
// (GateLog, UnitVerdict, AuditDecision, PreAudit), so the order of the
// checks does not matter.
type Evaluation struct {
	Snap *snapshot.PR
	// Cfg is the parsed config (defaults when the file is absent); nil when
	// the file is invalid or unreadable, and then CfgErrs or CfgOther say why.
	Cfg      *config.Config
	CfgErrs  config.Errors
	CfgOther error
	// Unresolved says why the config's people cannot be resolved
	// (app/owners: a team's members or CODEOWNERS unreadable); "" when
	// they were. Cfg is then nil, and CfgOther says the same.
	Unresolved string
	// Unit is the one same-repository unit the pull request names
	// (UnitOf), or the unit whose issue is evaluated; 0 when none.
	Unit int
	// Perms are the live roles of the owners and coordinators who wrote in
	// the conversation (the same map as Roles), and AppLogin is the App's
	// own login (both read only when a check needs the conversation).
	Perms    gatelog.Permissions
	AppLogin string
	// Bundles are the evidence bundles of the reviews that may count, by
	// review ID, read at each review's commit.
	Bundles map[int64]Bundle
	// Kept are the decisions the App kept that bear on this evaluation.
	Kept []gatelog.Kept
	// Witness is the delivery's created comment as the webhook carried it.
	Witness *Witness
	// Roles are the live repository roles read in this evaluation, by
	// login: the reviewers who wrote an aep-audit block, the owners and
	// coordinators who wrote in the conversation; Pushers who was recorded
	// pushing the pull request's commits.
	Roles   map[string]string
	Pushers []review.Push
	// Instructed is who instructed the listed agents that made the pull
	// request, from the unit issue's timeline (nil: no agent made it, or
	// no check declared Reads.Instructors).
	Instructed *instructor.Finding
	// AgentPushes are the pull request's heads with who instructed each
	// agent's push, every channel read (instructor.PerPush; nil when
	// Instructed is). Instructed holds their instructors too.
	AgentPushes []instructor.Instructed
	fates       *instructor.Decision
	// Rules decide which reviews count as audits, GateRules which comments
	// and reviews count in the gate log (New sets the defaults; a
	// negative-control test removes one).
	Rules     []review.Rule
	GateRules []gatelog.Rule
	// Distinct are the rules joining owners' answers into people when a
	// gate's category needs more than one (gates.<category>.approvals;
	// the zero value applies them all).
	Distinct approval.Rules
	// Closures are the App's stored closure facts by unit, evidence joined
	// (ClosureFacts); ClosureRules judge them (New sets the defaults).
	Closures     map[int]closurerules.Facts
	ClosureRules closurerules.Rules
	// Guides are the changed execution guides' texts at the base and the
	// head, by path (GuidesWanted; read with the conversation).
	Guides map[string]GuideTexts

	// gatesMemo is the gate log (nil when it cannot be derived, gatesDone
	// once tried), unitMemo the work unit's verdict, audit the audit's
	// decision and pre the decision before the owner's answers.
	gatesMemo  *gatelog.Result
	gatesDone  bool
	unitMemo   *workunit.Verdict
	audit, pre *review.Decision
}

// Bundle is one review's evidence as read, or why it could not be.
type Bundle struct {
	Files review.Bundle
	Err   string
}

// NewWith parses the snapshot's config file (Config), resolving it over its
// base by merge (config.DefaultMergeRules when nil; a negative-control test
// removes one); rules and gate rules are the defaults.
func NewWith(snap *snapshot.PR, merge []config.MergeRule) *Evaluation {
	ev := &Evaluation{Snap: snap, Rules: review.DefaultRules(), GateRules: gatelog.DefaultRules(), ClosureRules: closurerules.DefaultRules()}
	if merge == nil {
		merge = config.DefaultMergeRules()
	}
	var cfg *config.Config
	r, err := Policy(snap.Config, merge)
	if r != nil {
		cfg = r.Config
	}
	if ev.Cfg = cfg; err != nil && !errors.As(err, &ev.CfgErrs) {
		ev.CfgOther = err
	}
	return ev
}

// Config parses the repository config file as every check reads it,
// resolved over the base it extends (Policy with config.DefaultMergeRules):
// the defaults when there is no file; nil and why when it is invalid
// (config.Errors), unreadable, or its base is.
func Config(f snapshot.ConfigFile) (*config.Config, error) {
	r, err := Policy(f, config.DefaultMergeRules())
	if err != nil {
		return nil, err
	}
	return r.Config, nil
}

// unusableConfig is the sentence a check that cannot judge, because the
// config is unusable, says of it (so: what cannot be judged): the people
// it names cannot be resolved, and why (Unresolved); or it is invalid or
// unreadable, as the aepgate/config check shows.
func (ev *Evaluation) unusableConfig(so string) string {
	if ev.Unresolved != "" {
		return fmt.Sprintf("The people the repository config names cannot be resolved, so %s: %s.", so, strings.TrimSuffix(ev.Unresolved, "."))
	}
	return fmt.Sprintf("The repository config on %s is invalid or unreadable, so %s; see the %s check.", ev.Snap.DefaultBranch, so, checks.NameConfig)
}

// ConfigValid reports whether the config could be read and is valid.
func (ev *Evaluation) ConfigValid() bool { return ev.CfgErrs == nil && ev.CfgOther == nil }

// AuditRules are the review rules the audit applies: rules, or
// review.DefaultRules when nil (tests remove one to show what it stops).
func AuditRules(rules []review.Rule) []review.Rule {
	if rules == nil {
		return review.DefaultRules()
	}
	return rules
}

// GateRules are the rules deciding which comments and reviews count in the
// gate log: rules, or gatelog.DefaultRules when nil (tests remove one to
// show what it stops).
func GateRules(rules []gatelog.Rule) []gatelog.Rule {
	if rules == nil {
		return gatelog.DefaultRules()
	}
	return rules
}

// Witness is a comment as its signed issue_comment.created delivery
// carried it, and the issue or pull request it was posted on.
type Witness struct {
	Thread  int
	Comment snapshot.Comment
}

// SetControl puts the control issue the App just created into the
// evaluation and derives the gate log again with it.
func (ev *Evaluation) SetControl(c *snapshot.ControlIssue) {
	ev.Snap.Control = c
	ev.deriveGates()
}

// Origin is where an evaluation's ledger rows come from: the delivery, its
// event, the repository and the pull request (0 for an issue's thread).
type Origin struct {
	Delivery, Event, Owner, Repo string
	PR                           int
}
