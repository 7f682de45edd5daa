package action

import "github.com/aepgate/aepgate/checks"

// CheckInfo is one check the Action can run: its name in the `checks`
// input, the check run it writes and when it runs without that input.
type CheckInfo struct {
	Input, Run, When string
}

// checkRuns are the check runs the checks write, and when they run by
// default, by the `checks` input's name.
var checkRuns = map[string]CheckInfo{
	CheckLint:       {Run: checks.NameLint, When: "when there are run folders"},
	CheckStatus:     {Run: checks.NameStatus, When: "when there are run folders"},
	CheckNegcontrol: {Run: checks.NameNegativeControls, When: "when the config declares negative controls"},
	CheckReport:     {Run: checks.NameReport, When: "on pull requests (a neutral run on those that claim no unit: docs/report.md)"},
	CheckPlans:      {Run: checks.NamePlans, When: "on pull requests that change plans/"},
	CheckVerdicts:   {Run: checks.NameVerdicts, When: "on pull requests with run folders, in a git checkout"},
	CheckRelease:    {Run: checks.NameRelease, When: "only when named, on the tagged commit"},
}

// Checks lists every check the Action runs, in the order it makes them:
// the `checks` input's names (knownChecks) with their check runs. The
// command's --help and docs/action.md are held to this table.
func Checks() []CheckInfo {
	out := make([]CheckInfo, len(knownChecks))
	for i, name := range knownChecks {
		c := checkRuns[name]
		c.Input = name
		out[i] = c
	}
	return out
}
