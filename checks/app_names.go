package checks

// Names of the check runs the App writes (docs/app.md). aepgate/config is
// written only while the repository config is broken, and once more with
// success when it is fixed.
const (
	NameWorkUnit = "aepgate/work-unit"
	NameConfig   = "aepgate/config"
)
