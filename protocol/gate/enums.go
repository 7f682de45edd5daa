package gate

// Owner-only categories (§3.2): a gate names exactly one.
var ownerOnlyCategories = set(
	"explicit-hold", "human-product-judgment-action", "irreversible-destructive",
	"secrets-credentials", "money-entitlements", "legal-privacy-security-exception",
	"high-blast-radius-public-release", "conflicting-direct-owner-priorities",
)

// External effects (§3.2): a gate names exactly one.
var externalEffects = set(
	"publish-release", "merge-protected-branch", "deploy", "spend-money-or-entitlement",
	"use-credential", "irreversible-data-change", "physical-or-remote-access",
	"legal-or-rights-decision", "product-direction-decision",
)

// refusedEffects are things an agent does on its own authority; a gate for
// them is refused.
var refusedEffects = set("none", "local-repair", "test-only", "observation", "investigation", "documentation")

// scopes a gate may block (§3.2); the default is work-unit.
var scopes = set("project", "work-unit", "spawn", "implement", "merge", "close", "deploy", "credential", "spend", "irreversible")

// checkActions are the actions Evaluate decides: the scopes minus project
// and work-unit.
var checkActions = set("spawn", "implement", "merge", "close", "deploy", "credential", "spend", "irreversible")

// Authority sources for a check (§3.2).
const (
	AuthorityDirectOwner       = "direct-owner"
	AuthorityPlanDerived       = "plan-derived"
	AuthorityStandingAuthority = "standing-authority"
)

var authoritySources = set(AuthorityDirectOwner, AuthorityPlanDerived, AuthorityStandingAuthority)

// Fixed values of the HOLD gate (§3.4).
const (
	HoldID       = "project-hold"
	ResumeChoice = "RESUME"
	holdDefault  = "HOLD"
	holdCategory = "explicit-hold"
	holdEffect   = "product-direction-decision"
	scopeProject = "project"
	scopeUnit    = "work-unit"
	defaultSafe  = "BLOCK"
)

func set(vals ...string) map[string]bool {
	m := make(map[string]bool, len(vals))
	for _, v := range vals {
		m[v] = true
	}
	return m
}

// protections are the authorization rules replaying and checking gates
// apply. Replay, Check and Evaluate apply all of them (allProtections); the
// negative-control test turns one off at a time to show that each is what
// stops its attack.
type protections struct {
	// directOwner: only the direct owner may answer a gate.
	directOwner bool
	// exactResume: a HOLD is lifted only by exactly RESUME.
	exactResume bool
	// safeAnswerBlocks: a gate answered with HOLD or its safe default
	// keeps blocking and grants nothing.
	safeAnswerBlocks bool
	// malformedBlocks: an unreadable gate event blocks every action.
	malformedBlocks bool
}

// allProtections is every rule on: what the exported functions apply.
func allProtections() protections {
	return protections{directOwner: true, exactResume: true, safeAnswerBlocks: true, malformedBlocks: true}
}
