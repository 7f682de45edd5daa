package checks

// Names of the check runs the Action writes (docs/action.md): the first four
// on a pull request's head, aep/release-closure on a release's tagged commit.
const (
	NameLint             = "aep/lint"
	NameStatus           = "aep/status"
	NameNegativeControls = "aep/negative-controls"
	NameReport           = "aep/report"
	NameRelease          = "aep/release-closure"
)

// ActionExternalID is the external ID the Action gives its run called name
// at sha: the same on every re-run of the workflow, so the publisher finds
// and updates the earlier run instead of adding one.
func ActionExternalID(name, sha string) string { return "aepgate-action:" + name + "@" + sha }
