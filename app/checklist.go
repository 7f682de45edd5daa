package app

import (
	"errors"
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
	"github.com/aepgate/aepgate/review"
)

const configPath = gh.ConfigPath

// check is one of the App's checks on a pull request head: its name, the
// optional parts of the snapshot it reads, and its pure evaluation.
// Adding a check is one entry in defaultChecks (docs/app.md).
type check struct {
	name  string
	needs snapshot.Needs
	eval  func(ev *evaluation) outcome
}

// outcome is what one check decided about one head.
type outcome struct {
	// run is the check run to show; ignored when skip is set.
	run checks.Run
	// skip says there is nothing to show (e.g. aepgate/config while the
	// config is valid and no failure was ever shown).
	skip bool
	// facts are the check's own fields for its ledger row.
	facts map[string]any
}

// defaultChecks is the App's list of checks, evaluated in this order on
// every open pull request's head.
func defaultChecks() []check {
	return []check{
		{name: checks.NameWorkUnit, needs: snapshot.Needs{Lanes: true}, eval: evalWorkUnit},
		{name: checks.NameAudit, needs: auditNeeds, eval: evalAudit},
		{name: checks.NameGates, needs: gatesNeeds, eval: evalGates},
		{name: checks.NameMerge, needs: mergeNeeds, eval: evalMerge},
		{name: checks.NameConfig, eval: evalConfig},
	}
}

// evaluation is what every check of one pull request head is judged on:
// the snapshot and the repository config, parsed once.
type evaluation struct {
	snap *snapshot.PR
	// cfg is the parsed config (defaults when the file is absent); nil when
	// the file is invalid or unreadable, and then cfgErrs or cfgOther say why.
	cfg      *config.Config
	cfgErrs  config.Errors
	cfgOther error
	// unit is the one same-repository unit the pull request names, or the
	// unit whose issue is evaluated; 0 when none.
	unit int
	// perms are the live roles of the owners and coordinators who wrote in
	// the conversation (the same map as roles), and appLogin is the App's
	// own login (both read only when a check needs the conversation).
	perms    gatelog.Permissions
	appLogin string
	// The values derived once per evaluation, read only through their
	// accessors (gateLog, unitVerdict, auditDecision, preAudit), so the
	// order of the checks does not matter: gatesMemo is the gate log (nil
	// when it cannot be derived, gatesDone once tried), unitMemo the work
	// unit's verdict.
	gatesMemo *gatelog.Result
	gatesDone bool
	unitMemo  *workunit.Verdict
	// audit is the audit's decision, derived once (auditDecision); pre is
	// the decision before the owner's answers (preAudit).
	audit, pre *review.Decision
	// bundles are the evidence bundles of the reviews that may count, by
	// review ID, read at each review's commit.
	bundles map[int64]bundle
	// kept are the decisions the App kept that bear on this evaluation
	// (loadKept).
	kept []gatelog.Kept
	// witness is the delivery's created comment as the webhook carried it.
	witness *witness
	// roles are the live repository roles read in this evaluation, by
	// login (roleOf): the reviewers who wrote an aep-audit block, the owners
	// and coordinators who wrote in the conversation; pushers who was
	// recorded pushing the pull request's commits (readAuditAccess).
	roles   map[string]string
	pushers []review.Push
	// rules decide which reviews count as audits (auditRules), gateRules
	// which comments and reviews count in the gate log.
	rules     []review.Rule
	gateRules []gatelog.Rule
}

// bundle is one review's evidence as read, or why it could not be.
type bundle struct {
	files review.Bundle
	err   string
}

// newEvaluation parses the snapshot's config file.
func newEvaluation(snap *snapshot.PR) *evaluation {
	ev := &evaluation{snap: snap, rules: review.DefaultRules(), gateRules: gatelog.DefaultRules()}
	f := snap.Config
	switch {
	case f.Unreadable != "":
		ev.cfgOther = fmt.Errorf("the App cannot read it (%s); grant the App \"Contents: read\" on this repository", f.Unreadable)
	case f.Truncated:
		ev.cfgOther = errors.New("the file is too large for GitHub to return inline")
	case !f.Found:
		ev.cfg = config.Default() // no file: the defaults apply
	default:
		cfg, err := config.Parse(configPath, []byte(f.Text))
		if err == nil {
			ev.cfg = cfg
		} else if !errors.As(err, &ev.cfgErrs) {
			ev.cfgOther = err
		}
	}
	return ev
}

// configValid reports whether the config could be read and is valid.
func (ev *evaluation) configValid() bool { return ev.cfgErrs == nil && ev.cfgOther == nil }

// evalWorkUnit judges whether the pull request names exactly one open unit
// with a valid contract and closed dependencies; an invalid config fails it.
func evalWorkUnit(ev *evaluation) outcome {
	pull := ev.snap.Pull
	v := ev.unitVerdict()
	title := ""
	if u := ev.snap.Units[v.Unit]; u != nil && v.Unit > 0 {
		title = u.Title
	}
	return outcome{
		run:   checks.WorkUnit(pull.HeadSHA, v, title, ev.snap.NativeBlockers),
		facts: map[string]any{"unit": v.Unit, "reasons": v.Reasons},
	}
}

// unitVerdict is the work unit's verdict, derived once per evaluation.
func (ev *evaluation) unitVerdict() workunit.Verdict {
	if ev.unitMemo != nil {
		return *ev.unitMemo
	}
	pull := ev.snap.Pull
	refs := workunit.ParseRefs(pull.Body, ev.snap.Repo)
	var unit *workunit.Issue
	if len(refs) == 1 && refs[0].Repo == "" {
		unit = ev.snap.Units[refs[0].Number]
	}
	in := workunit.Input{Refs: refs, Unit: unit, PR: pull.Number}
	if ev.cfg != nil && ev.snap.Lanes != nil && len(refs) == 1 {
		in.Lanes = withLane(ev.snap.Lanes, workunit.Lane{PR: pull.Number, Unit: refs[0].Number, URL: pull.URL})
		in.Limits = workunit.Limits{AttemptsPerUnit: ev.cfg.Limits.AttemptsPerUnit, LanesPerIncrement: ev.cfg.Limits.LanesPerIncrement}
	}
	v := workunit.Evaluate(in)
	if !ev.configValid() {
		v.OK = false
		v.Reasons = append(v.Reasons, fmt.Sprintf("the repository config %s on %s is invalid or unreadable; see the %s check", configPath, ev.snap.DefaultBranch, checks.NameConfig))
	}
	ev.unitMemo = &v
	return v
}

// withLane is lanes with l among them: GitHub may not have recorded the
// evaluated pull request's mention yet.
func withLane(lanes []workunit.Lane, l workunit.Lane) []workunit.Lane {
	for _, o := range lanes {
		if o.PR == l.PR {
			return lanes
		}
	}
	return append(slices.Clone(lanes), l)
}

// evalConfig shows a broken config as a failure, a valid one that leaves
// the audit open to any collaborator (no auditors listed) as a neutral run
// with the warning, and a success over an earlier failure or warning once
// it is fixed; a valid config without warnings on a head that never showed
// a run needs none.
func evalConfig(ev *evaluation) outcome {
	pull := ev.snap.Pull
	if ev.configValid() && ev.cfg != nil {
		if warns := checks.ConfigWarnings(ev.cfg); len(warns) > 0 {
			return outcome{run: checks.ConfigWarned(pull.HeadSHA, configPath, ev.snap.DefaultBranch, warns), facts: map[string]any{"errors": 0, "warnings": len(warns)}}
		}
	}
	if ev.configValid() && pull.RunsKnown && pull.Latest(checks.NameConfig) == nil {
		return outcome{skip: true}
	}
	return outcome{
		run:   checks.Config(pull.HeadSHA, configPath, ev.snap.DefaultBranch, ev.cfgErrs, ev.cfgOther),
		facts: map[string]any{"errors": len(ev.cfgErrs)},
	}
}
