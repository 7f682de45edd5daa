package appkit

import "strconv"

// LifecycleYAML requires ci on the pull request and on main.
const LifecycleYAML = "version: 1\nowners: [olivia]\nrequired_workflows:\n  pull_request: [ci]\n  readback: [ci]\n"

// WorkerReport is a valid worker report for pull request pr at head: it
// names unit and lists work.go, which every test pull request changes.
func WorkerReport(unit, pr int, head string) string {
	return "STATUS: done\nWORK-UNIT: #" + strconv.Itoa(unit) + "\nATTEMPT: 1\nBRANCH: work\nPR: #" + strconv.Itoa(pr) +
		"\nDONE: CSV export\nNOT DONE / OPEN: none\nFILES: work.go\nVERIFY: go test ./export/... → ok\nPRESERVATION: clean + pushed at " + head + "\n"
}
