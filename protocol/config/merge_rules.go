package config

import (
	"maps"
	"slices"
	"time"
)

// DefaultMergeRules is how every key of the config combines when a
// repository's file extends a base (Resolve): one rule per key, in the order
// of Config. A repository may only add restrictions:
//
//   - lists of people with authority, of evidence and of protected paths
//     (owners, coordinators, run_documents, required_workflows,
//     contract_paths, release.assets, report.required_for) are unioned;
//     default_contract_paths too, and leaving out an inherited one is
//     refused;
//     negative_controls too, by name;
//   - lists that let someone in or exempt something (auditors,
//     report.skip) may only be narrowed;
//   - limits and durations take the smaller value, risk.default the higher
//     tier, mode enforce over advisory, audit_triage false over true,
//     closure.reopen true over false, merge.auto false over true,
//     gates.<category>.approvals the larger number, readback.coverage
//     strict over replay;
//   - command_prefix is the base's (owners' commands keep working);
//     release.manifest is where the repository keeps its manifest;
//   - deploy.environments may only tighten the base's environments.
func DefaultMergeRules() []MergeRule {
	return []MergeRule{
		{Key: "version", How: "1 in every file", merge: func(m *merger, key string) { m.from(key, false, true) }},
		{Key: "extends", How: "the repository's; a base may not extend another", merge: func(m *merger, key string) { m.from(key, false, true) }},
		ownersRule(),
		{Key: "path_owners", How: "union per pattern, as owners", merge: mergePathOwners},
		{Key: "owners_from", How: "the base's; CODEOWNERS only when the base lists no owners", merge: mergeOwnersFrom},
		union("coordinators", func(c *Config) *[]string { return &c.Coordinators }),
		{Key: "coordinator", How: "the base's authoritative coordinator; a different one is refused; else the repository's", merge: mergeCoordinator},
		narrow("auditors", func(c *Config) *[]string { return &c.Auditors }, true),
		agentsRule(),
		{Key: "agent_approvals", How: "the larger number", merge: mergeAgentApprovals},
		{Key: "agent_settings", How: "union per agent of its triggers, labels and paths", merge: mergeAgentSettings},
		flag("audit_triage", func(c *Config) *bool { return &c.AuditTriage }, false),
		union("run_documents", func(c *Config) *[]string { return &c.RunDocuments }),
		{Key: "negative_controls", How: "union by name; redefining an inherited control is refused", merge: mergeControls},
		union("required_workflows.pull_request", func(c *Config) *[]string { return &c.RequiredWorkflows.PullRequest }),
		union("required_workflows.readback", func(c *Config) *[]string { return &c.RequiredWorkflows.Readback }),
		union("contract_paths", func(c *Config) *[]string { return &c.ContractPaths }),
		kept("default_contract_paths", func(c *Config) *[]string { return &c.DefaultContractPaths }),
		ranked("risk.default", func(c *Config) *string { return &c.Risk.Default }, RiskLow, RiskMedium, RiskHigh),
		least("limits.corrections", func(c *Config) *int { return &c.Limits.Corrections }),
		least("limits.exchanges", func(c *Config) *int { return &c.Limits.Exchanges }),
		least("limits.attempts_per_unit", func(c *Config) *int { return &c.Limits.AttemptsPerUnit }),
		least("limits.lanes_per_increment", func(c *Config) *int { return &c.Limits.LanesPerIncrement }),
		least("stall.suspect_after", func(c *Config) *time.Duration { return &c.Stall.SuspectAfter }),
		least("stall.stalled_after", func(c *Config) *time.Duration { return &c.Stall.StalledAfter }),
		fixed("command_prefix", func(c *Config) *string { return &c.CommandPrefix }),
		own("release.manifest", func(c *Config) *string { return &c.Release.Manifest }),
		union("release.assets", func(c *Config) *[]string { return &c.Release.Assets }),
		least("readback.timeout", func(c *Config) *time.Duration { return &c.Readback.Timeout }),
		ranked("readback.coverage", func(c *Config) *string { return &c.Readback.Coverage }, CoverageReplay, CoverageStrict),
		narrow("merge.authority", func(c *Config) *[]string { return &c.Merge.Authority }, true),
		flag("merge.auto", func(c *Config) *bool { return &c.Merge.Auto }, false),
		union("report.required_for.labels", func(c *Config) *[]string { return &c.Report.RequiredFor.Labels }),
		union("report.required_for.paths", func(c *Config) *[]string { return &c.Report.RequiredFor.Paths }),
		narrow("report.skip.authors", func(c *Config) *[]string { return &c.Report.Skip.Authors }, false),
		narrow("report.skip.labels", func(c *Config) *[]string { return &c.Report.Skip.Labels }, false),
		narrow("report.skip.paths", func(c *Config) *[]string { return &c.Report.Skip.Paths }, false),
		ranked("mode", func(c *Config) *string { return &c.Mode }, ModeAdvisory, ModeEnforce),
		{Key: "deploy.environments", How: "the base's environments, each tightened by the repository's; adding one is refused", merge: mergeEnvironments},
		flag("closure.reopen", func(c *Config) *bool { return &c.Closure.Reopen }, true),
		ranked("closure.final", func(c *Config) *string { return &c.Closure.Final }, FinalCertified, FinalOwner),
		{Key: "gates", How: "the base's categories and the repository's, each at the larger number of approvals", merge: mergeGates},
	}
}

// mergeControls unions the negative controls by name; a repository control
// named like an inherited one is refused (it could weaken it).
func mergeControls(m *merger, key string) {
	b, r := m.base.Config.NegativeControls, m.repo.Config.NegativeControls
	out := slices.Clone(b)
	for _, c := range r {
		if slices.ContainsFunc(b, func(o NegativeControl) bool { return o.Name == c.Name }) {
			m.refuse(key, "%q is a control of the base %s; a repository may add controls, not redefine one", c.Name, m.base.Name)
			continue
		}
		out = append(out, c)
	}
	m.out.NegativeControls = out
	m.from(key, len(b) > 0, len(r) > 0)
}

// mergeEnvironments: a base that lists no environment leaves them to the
// repository; otherwise the repository may only tighten the base's: require
// none < certified or increment (two different requirements are refused),
// owner_gate true over false.
func mergeEnvironments(m *merger, key string) {
	b, r := m.base.Config.Deploy.Environments, m.repo.Config.Deploy.Environments
	if len(b) == 0 {
		m.out.Deploy.Environments = r
		m.from(key, false, len(r) > 0)
		return
	}
	out, tightened := maps.Clone(b), false
	for _, name := range slices.Sorted(maps.Keys(r)) {
		e, be := r[name], b[name]
		if _, ok := b[name]; !ok {
			m.refuse(key, "environment %q is not in the base %s (which lists %s); a repository may only tighten the base's environments", name, m.base.Name, quoted(slices.Sorted(maps.Keys(b))))
			continue
		}
		merged := Environment{Require: be.Require, OwnerGate: be.OwnerGate || e.OwnerGate}
		switch {
		case e.Require == be.Require || e.Require == RequireNone:
		case be.Require == RequireNone:
			merged.Require = e.Require
		default:
			m.refuse(key+"."+name+".require", "%q conflicts with the inherited %q of %s; a repository may only tighten it", e.Require, be.Require, m.base.Name)
		}
		tightened = tightened || merged != be
		out[name] = merged
	}
	m.out.Deploy.Environments = out
	m.from(key, true, tightened)
}
