package checks

// Names of the check runs the Action writes (docs/action.md): the first four
// on a pull request's head, NamePlans on a pull request whose executor plan
// folders changed (docs/plans.md), NameRelease on a release's tagged commit.
const (
	NameLint             = "aep/lint"
	NameStatus           = "aep/status"
	NameNegativeControls = "aep/negative-controls"
	NameReport           = "aep/report"
	NamePlans            = "aep/plans"
	NameVerify           = "aep/verify"
	NameVerdicts         = "aep/verdicts"
	NameRelease          = "aep/release-closure"
)

// Names of the check runs the App writes (docs/app.md).
const (
	// NameWorkUnit says whether the pull request names exactly one work
	// unit whose contract is valid and whose dependencies are done.
	NameWorkUnit = "aepgate/work-unit"
	// NameConfig is written only while the repository config is broken,
	// and once more with success when it is fixed.
	NameConfig = "aepgate/config"
	// NameGates says whether a gate or HOLD blocks the merge of a pull
	// request.
	NameGates = "aepgate/gates"
	// NameAudit says whether the audit the unit's risk tier requires holds
	// at the pull request's head.
	NameAudit = "aepgate/audit"
	// NameMerge is the merge-readiness check: the one check to require in
	// branch protection.
	NameMerge = "aepgate/merge"
	// NameReadback is the merged-main readback on a merge SHA.
	NameReadback = "aepgate/readback"
	// NameCertificate is written on a merge SHA once readback succeeded:
	// the completion certificate (docs/evidence.md).
	NameCertificate = "aepgate/certificate"
	// NameAppRelease is the App's release-closure check run, on the tagged
	// commit.
	NameAppRelease = "aepgate/release"
)

// ActionExternalID is the external ID the Action gives its run called name
// at sha: the same on every re-run of the workflow, so the publisher finds
// and updates the earlier run instead of adding one.
func ActionExternalID(name, sha string) string { return "aepgate-action:" + name + "@" + sha }
