package verdict

import (
	"slices"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// Check is one of the App's checks on a pull request head: its name, the
// optional parts of the snapshot it reads, what else the App must read for
// it, and its pure evaluation. There is one pipeline: the App reads,
// evaluates and writes every check of DefaultChecks the same way. Adding a
// check still touches five places (docs/app.md), each held by a test:
//
//  1. its check run's name, in checks/names.go;
//  2. its renderer in checks/ with its golden file, and the section of
//     docs/protocol.md that explains it, in checks/docs.go
//     (TestDocLinksResolve);
//  3. its pure evaluator (here, or in protocol/ or review/) and its entry
//     in DefaultChecks;
//  4. the permissions it needs, as a feature of app/manifest's Features
//     (TestEveryCheckRunIsAFeature, TestFeaturesGrantWhatChecksRead);
//  5. its row in the docs that list the App's check runs: docs/app.md,
//     docs/config.md, docs/action.md and the README
//     (TestDocsNameWhatTheCodeHas).
type Check struct {
	Name  string
	Needs snapshot.Needs
	Reads Reads
	Eval  func(ev *Evaluation) Outcome
}

// Reads are what a check needs the App to read besides the snapshot, into
// the Evaluation's fields; each is read only when the snapshot holds the
// conversation and the config is valid.
type Reads struct {
	// Audits: the live role of every reviewer who wrote an aep-audit block,
	// who was recorded pushing the pull request's commits (Roles, Pushers),
	// and the evidence bundles of the reviews that may count (Bundles).
	Audits bool
	// Decisions: the App's login, the decisions it kept, and the live role
	// of every owner and coordinator who wrote in the conversation
	// (AppLogin, Kept, Perms) — what the gate log is derived from.
	Decisions bool
	// Instructors: when a listed agent authored or committed the pull
	// request, the unit issue's assignment timeline, once (Instructed).
	Instructors bool
}

// Union is what r and o read together.
func (r Reads) Union(o Reads) Reads {
	return Reads{Audits: r.Audits || o.Audits, Decisions: r.Decisions || o.Decisions, Instructors: r.Instructors || o.Instructors}
}

// GatesReads is what the gate log needs read; AuditReads what the audit
// needs (its owner gate is answered in the gate log). Both need the
// instructors: they may neither audit nor alone approve a contract change.
var (
	GatesReads = Reads{Decisions: true, Instructors: true}
	AuditReads = Reads{Audits: true, Decisions: true, Instructors: true}
)

// Outcome is what one check decided about one head.
type Outcome struct {
	// Run is the check run to show; ignored when Skip is set.
	Run checks.Run
	// Skip says there is nothing to show (e.g. aepgate/config while the
	// config is valid and no failure was ever shown).
	Skip bool
	// Facts are the check's own fields for its ledger row.
	Facts map[string]any
}

// DefaultChecks is the App's list of checks, evaluated in this order on
// every open pull request's head.
func DefaultChecks() []Check {
	return []Check{
		{Name: checks.NameWorkUnit, Needs: snapshot.Needs{Lanes: true}, Eval: evalWorkUnit},
		{Name: checks.NameAudit, Needs: AuditNeeds, Reads: AuditReads, Eval: evalAudit},
		{Name: checks.NameGates, Needs: GatesNeeds, Reads: GatesReads, Eval: evalGates},
		// The merge sums up the checks above, so it reads what they read.
		{Name: checks.NameMerge, Needs: MergeNeeds.Union(AuditNeeds).Union(GatesNeeds), Reads: AuditReads, Eval: evalMerge},
		{Name: checks.NameConfig, Eval: evalConfig},
	}
}

// evalWorkUnit judges whether the pull request names exactly one open unit
// with a valid contract and closed dependencies; an invalid config fails it.
func evalWorkUnit(ev *Evaluation) Outcome {
	pull := ev.Snap.Pull
	v := ev.UnitVerdict()
	title := ""
	if u := ev.Snap.Units[v.Unit]; u != nil && v.Unit > 0 {
		title = u.Title
	}
	return Outcome{
		Run:   checks.WorkUnit(pull.HeadSHA, v, title, ev.Snap.NativeBlockers),
		Facts: map[string]any{"unit": v.Unit, "reasons": v.Reasons},
	}
}

// UnitVerdict is the work unit's verdict, derived once per evaluation.
func (ev *Evaluation) UnitVerdict() workunit.Verdict {
	if ev.unitMemo != nil {
		return *ev.unitMemo
	}
	pull := ev.Snap.Pull
	refs := workunit.ParseRefs(pull.Body, ev.Snap.Repo)
	in := workunit.Input{Refs: refs, PR: pull.Number}
	n, sole := workunit.Sole(refs)
	if sole {
		in.Unit = withClosures(ev.Snap.Units[n], ev.Closures, ev.ClosureRules)
	}
	if ev.Cfg != nil && ev.Snap.Lanes != nil && sole {
		in.Lanes = withLane(ev.Snap.Lanes, workunit.Lane{PR: pull.Number, Unit: n, URL: pull.URL})
		in.Limits = workunit.Limits{AttemptsPerUnit: ev.Cfg.Limits.AttemptsPerUnit, LanesPerIncrement: ev.Cfg.Limits.LanesPerIncrement}
		in.LanesUnread = ev.Snap.LanesUnread
	}
	v := workunit.Evaluate(in)
	if !ev.ConfigValid() {
		v.OK = false
		v.Reasons = append(v.Reasons, strings.TrimSuffix(ev.unusableConfig("this cannot be judged"), "."))
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
func evalConfig(ev *Evaluation) Outcome {
	pull := ev.Snap.Pull
	if ev.ConfigValid() && ev.Cfg != nil {
		if warns := checks.ConfigWarnings(ev.Cfg); len(warns) > 0 {
			return Outcome{Run: checks.ConfigWarned(pull.HeadSHA, ConfigPath, ev.Snap.DefaultBranch, warns), Facts: map[string]any{"errors": 0, "warnings": len(warns)}}
		}
	}
	if ev.ConfigValid() && pull.RunsKnown && pull.Latest(checks.NameConfig) == nil {
		return Outcome{Skip: true}
	}
	return Outcome{
		Run:   checks.Config(pull.HeadSHA, ConfigPath, ev.Snap.DefaultBranch, ev.CfgErrs, ev.CfgOther),
		Facts: map[string]any{"errors": len(ev.CfgErrs)},
	}
}
