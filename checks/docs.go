package checks

// DocsURL is where the project's documentation lives for the people who
// read check runs: the docs folder of aepgate's own repository, which every
// user can open (check summaries never point at files only the project's
// developers have).
const DocsURL = "https://github.com/aepgate/aepgate/blob/main/docs/"

// docAnchors maps each check run to the section of docs/protocol.md that
// explains it. Every name in names.go has one; the certificate's summary
// is its canonical layout and carries its link in the details text.
var docAnchors = map[string]string{
	NameLint:             "run-documents",
	NameStatus:           "run-documents",
	NameNegativeControls: "negative-controls",
	NameReport:           "worker-report",
	NamePlans:            "executor-plans",
	NameRelease:          "release-closure",
	NameWorkUnit:         "work-units-and-increments",
	NameConfig:           "configuration",
	NameGates:            "owner-gates",
	NameAudit:            "audit",
	NameMerge:            "merge",
	NameReadback:         "readback",
	NameCertificate:      "certificates",
	NameAppRelease:       "release-closure",
}

// DocLink is the link to the section of docs/protocol.md that explains the
// check run called name (the page itself for a name without one).
func DocLink(name string) string {
	if a, ok := docAnchors[name]; ok {
		return DocsURL + "protocol.md#" + a
	}
	return DocsURL + "protocol.md"
}

// DocsFooter is the last line of every check summary: what the check is,
// in the project's docs.
func DocsFooter(name string) string {
	return "\n---\n" + name + " is explained in [the protocol in one page](" + DocLink(name) + ").\n"
}
