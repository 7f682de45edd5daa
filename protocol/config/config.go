// Package config parses and validates the repository config file,
// .github/aepgate.yml. It is pure: bytes in, a typed Config or positioned
// Errors out. The CLI and the Action read the file from disk, the App
// through the API; all three share this package, so one file means the same
// thing everywhere.
//
// Decoding is strict: an unknown key, a wrong type, a duplicate key or an
// invalid value is an error naming the file, line, column and field. Nothing
// is silently defaulted except fields that are absent (or explicitly null),
// which take the values of Default.
package config

import (
	"time"

	"github.com/aepgate/aepgate/protocol/codeowners"
)

// DefaultPath is where the repository config lives, relative to the
// repository root. The App reads it from the default branch only.
const DefaultPath = ".github/aepgate.yml"

// Config is the repository policy.
type Config struct {
	// Version is the schema version; only 1 exists.
	Version int `json:"version"`
	// Extends, when set, names the organization policy this file adds to,
	// as "OWNER/REPO:PATH" read from that repository's default branch
	// (ParseRef, Resolve); empty when the file stands alone.
	Extends string `json:"extends,omitempty"`
	// Owners are the repository's owners (logins or teams): gates,
	// HOLD/RESUME, and approvals of contract paths no PathOwners pattern
	// claims. They are the flat owners list, or the "*" entry of an owners
	// map, or CODEOWNERS' "*" line (OwnersFrom, WithCodeOwners).
	Owners []string `json:"owners"`
	// PathOwners are the other entries of an owners map, in file order:
	// who approves a change to the paths each pattern matches (OwnersOf).
	// (The file's key is owners, in its map form: key "-" keeps it out of
	// the list of keys aepgate config keys prints.)
	PathOwners []PathOwner `json:"path_owners,omitempty" key:"-"`
	// OwnersFrom is OwnersFromCodeOwners when the owners are read from the
	// default branch's CODEOWNERS file (owners: {from: CODEOWNERS}).
	OwnersFrom string `json:"owners_from,omitempty" key:"owners.from"`
	// CodeOwners is that file once read (WithCodeOwners); nil before.
	CodeOwners *codeowners.File `json:"-"`
	// Coordinators are GitHub logins that coordinate runs: the flat list,
	// or the login of a coordinators scope map (coordinators.go).
	Coordinators []string `json:"coordinators"`
	// Coordinator is the repository's one authoritative coordinator when
	// coordinators is a scope map ({"*": [login]}): every other coordinator
	// (one a base config lists) is refused. "" with the flat list.
	Coordinator string `json:"coordinator,omitempty"`
	// Auditors, when set, are the only logins whose reviews count as
	// independent audits.
	Auditors []string `json:"auditors"`
	// Agents are the accounts that act for whoever instructs them (see
	// agents.go): whoever assigned one of them to the unit's issue, and
	// who was assigned with it, counts as an author of its pull request.
	Agents []string `json:"agents"`
	// AgentApprovals is agents.approvals: how many distinct independent
	// people with live write an agent's pull request needs (0: the
	// default, 1; AgentApprovalsNeeded).
	AgentApprovals int `json:"agent_approvals,omitempty" key:"agents.approvals"`
	// AgentSettings are agents.accounts: per listed agent, the words and
	// labels that instruct it and the paths it may not change without an
	// owner's gate (AgentSettingsOf fills the defaults).
	AgentSettings map[string]AgentSetting `json:"agent_settings,omitempty" key:"agents.accounts"`
	// AuditTriage lets a reviewer whose live repository role is triage
	// audit; by default an auditor needs write, maintain or admin.
	AuditTriage bool `json:"audit_triage"`
	// RunDocuments are the run-document folders, relative to the repository
	// root; globs (glob.MatchDir: the one dialect of path patterns) are
	// allowed.
	RunDocuments []string `json:"run_documents"`
	// NegativeControls are the declared negative controls.
	NegativeControls []NegativeControl `json:"negative_controls"`
	// RequiredWorkflows names the workflows whose runs are evidence.
	RequiredWorkflows RequiredWorkflows `json:"required_workflows"`
	// ContractPaths are globs of paths whose changes need an owner's approval.
	ContractPaths []string `json:"contract_paths"`
	// DefaultContractPaths are the default contract paths kept: the sources
	// of authority (DefaultContractPaths, Config.AuthoritySource), all of them
	// unless the file lists fewer to opt the others out.
	DefaultContractPaths []string `json:"default_contract_paths"`
	// Risk holds the risk defaults.
	Risk Risk `json:"risk"`
	// Limits bounds corrections, exchanges and work in progress.
	Limits Limits `json:"limits"`
	// Stall says when an open attempt's newest evidence is old enough to
	// show it as suspect or stalled on the owner's board.
	Stall Stall `json:"stall"`
	// CommandPrefix starts every comment command, e.g. "/aep hold".
	CommandPrefix string `json:"command_prefix"`
	// Release holds what the App's release-closure check verifies.
	Release Release `json:"release"`
	// Readback bounds the App's merged-main readback.
	Readback Readback `json:"readback"`
	// Merge says who may merge a unit's pull request (merge_authority.go).
	Merge Merge `json:"merge,omitzero"`
	// Report says which pull requests need a worker report beyond those
	// that name a work unit, and which are exempt.
	Report Report `json:"report"`
	// Mode is ModeEnforce (the default) or ModeAdvisory, in which every
	// check the App writes on a pull request concludes neutral and says in
	// its summary what it would have concluded (for rolling a policy out).
	Mode string `json:"mode"`
	// Deploy says how the App answers deployment protection rules.
	Deploy Deploy `json:"deploy"`
	// Closure says how a closure without evidence is answered.
	Closure Closure `json:"closure"`
	// Gates maps an owner-only gate category to what answering it takes
	// (gates.go): how many distinct owners a gate of each category needs.
	Gates map[string]GateRule `json:"gates,omitempty"`
}

// The modes of Config.Mode.
const (
	ModeEnforce  = "enforce"
	ModeAdvisory = "advisory"
)

// NegativeControl is one declared control: break the protection, watch the
// test fail, restore it, watch the test pass.
type NegativeControl struct {
	// Name identifies the control; unique, [A-Za-z0-9._-].
	Name string `json:"name"`
	// File, when set, is backed up before the break and restored from the
	// backup when the restore does not return it byte-for-byte.
	File string `json:"file,omitempty"`
	// Break is the shell command that removes the protection.
	Break string `json:"break,omitempty"`
	// Restore is the shell command that puts the protection back.
	Restore string `json:"restore,omitempty"`
	// Test is the shell command expected to fail without the protection.
	Test string `json:"test"`
	// Expect, when set, is an RE2 pattern (multi-line mode) the failing
	// output must match.
	Expect string `json:"expect,omitempty"`
	// Timeout limits each of the four commands; zero means no limit.
	Timeout time.Duration `json:"timeout,omitempty"`
	// Line is the line of the control in the file (0 for defaults).
	Line int `json:"-"`
}

// RequiredWorkflows names the workflows that must succeed.
type RequiredWorkflows struct {
	// PullRequest workflows must succeed at the PR head.
	PullRequest []string `json:"pull_request"`
	// Readback workflows must run on the default branch at the merge SHA.
	Readback []string `json:"readback"`
}

// Risk holds the risk defaults.
type Risk struct {
	// Default is the tier of a unit that declares none: low, medium or high.
	Default string `json:"default"`
}

// Limits bounds the protocol's loops.
type Limits struct {
	// Corrections is how many correction attempts follow a first FAIL.
	Corrections int `json:"corrections"`
	// Exchanges is how many review/dispute exchanges a stage allows.
	Exchanges int `json:"exchanges"`
	// AttemptsPerUnit is how many attempt pull requests of one unit may be
	// open at once.
	AttemptsPerUnit int `json:"attempts_per_unit"`
	// LanesPerIncrement is how many units of one increment may be in
	// progress (have an open attempt) at once.
	LanesPerIncrement int `json:"lanes_per_increment"`
}

// Risk tiers.
const (
	RiskLow    = "low"
	RiskMedium = "medium"
	RiskHigh   = "high"
)

// Default returns the configuration used for every field a file leaves out
// (or sets to null). It is the one place defaults are written down: Parse
// starts from it and overwrites what the file sets.
func Default() *Config {
	return &Config{
		Version:       1,
		Risk:          Risk{Default: RiskMedium},
		Limits:        Limits{Corrections: 1, Exchanges: 3, AttemptsPerUnit: 1, LanesPerIncrement: 2},
		Stall:         Stall{SuspectAfter: DefaultSuspectAfter, StalledAfter: DefaultStalledAfter},
		CommandPrefix: "/aep",
		Release:       Release{Manifest: DefaultManifest},
		Readback:      Readback{Timeout: DefaultReadbackTimeout, Coverage: CoverageReplay},
		Mode:          ModeEnforce,
		Closure:       Closure{Final: FinalCertified},

		DefaultContractPaths: DefaultContractPaths(),
	}
}
