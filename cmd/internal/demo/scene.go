package demo

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// policy is the repository config the story's main branch carries.
const policy = `version: 1
owners: [olivia]
coordinators: [cody]
auditors: [carol]
run_documents: [docs/run]
required_workflows:
  pull_request: [ci]
  readback: [ci]
contract_paths: ["docs/contract/**"]
release:
  assets: [manifest.sha256, install.sh]
deploy:
  environments:
    production:
      require: increment
      owner_gate: true
`

// exportV1 is the first attempt's code; the audit finds its bare error.
const exportV1 = "package export\n\n// Export writes the rows as CSV.\nfunc Export(rows []Row) error {\n\treturn writeCSV(rows)\n}\n"

// exportV2 is the correction: the error is wrapped.
const exportV2 = "package export\n\nimport \"fmt\"\n\n// Export writes the rows as CSV.\nfunc Export(rows []Row) error {\n\tif err := writeCSV(rows); err != nil {\n\t\treturn fmt.Errorf(\"export: %w\", err)\n\t}\n\treturn nil\n}\n"

// scene holds the story's GitHub objects once they exist.
type scene struct {
	milestone *ghfake.Milestone // increment M1
	unit, api *ghfake.Issue
	pr        *ghfake.PR
	branch    string
	files     map[string]bool // paths the pull request changes
	heads     []string        // every head the pull request had
}

// contractBody is an issue body whose first yaml block is the unit's
// contract.
func contractBody(story, risk, class string) string {
	return story + "\n\n```yaml\ngoal: " + story + "\nacceptance: [the export command writes valid CSV]\nnon_goals: [other formats]\nrisk: " +
		risk + "\nclass: " + class + "\n```\n"
}

// workerReport is the worker's report in the pull request body for head.
func (s *scene) workerReport(head string) string {
	var files []string
	for p := range s.files {
		files = append(files, "`"+p+"`")
	}
	sort.Strings(files)
	unit := strconv.Itoa(s.unit.Number())
	return "Work-unit: #" + unit + "\n\nSTATUS: done\nWORK-UNIT: #" + unit + "\nATTEMPT: 1\nBRANCH: " + s.branch +
		"\nPR: #" + strconv.Itoa(s.pr.Number()) + "\nDONE: CSV export of reports\nNOT DONE / OPEN: none\nFILES: " +
		strings.Join(files, ", ") + "\nVERIFY: go test ./export/... → ok\nPRESERVATION: clean + pushed at " + head + "\n"
}

// auditBody is a review body holding one aep-audit block: a FAIL's finding
// F1 quotes the unwrapped return as its evidence, and the review agrees
// with the disposition of each finding in agree.
func auditBody(unit int, verdict string, agree ...string) string {
	findings, evidence, verdicts := "[]", `{"path": "export/export.go", "quote": "Export writes the rows as CSV."}`, []string{}
	for _, id := range agree {
		verdicts = append(verdicts, `{"finding_id": "`+id+`", "verdict": "AGREE"}`)
	}
	if verdict == "FAIL" {
		quote := `{"path": "export/export.go", "quote": "func Export(rows []Row) error {\n\treturn writeCSV(rows)\n}"}`
		findings = `[{"id": "F1", "severity": "high", "requirement": "errors are wrapped with context", "evidence": [` + quote +
			`], "remedy": "wrap the error: fmt.Errorf(\"export: %w\", err)"}]`
		evidence = quote
	}
	return fmt.Sprintf("Audit of the CSV export.\n\n```aep-audit\n"+`{"schema_version": 1, "work_unit": "#%d", "verdict": %q, "summary": "checked the export path",
 "findings": %s,
 "verification": [{"check": "go test ./export/...", "outcome": "pass", "evidence": [%s]}],
 "verdicts": [%s], "evidence_requests": []}`+"\n```\n", unit, verdict, findings, evidence, strings.Join(verdicts, ", "))
}

// newest is the newest check run called name on sha, or nil.
func (w *world) newest(sha, name string) *ghfake.CheckRun {
	var found *ghfake.CheckRun
	for _, r := range w.repo.CheckRuns(sha) {
		if r.Name == name {
			found = &r
		}
	}
	return found
}

// is reports whether the newest run called name on sha concluded want
// ("in_progress" matches a run still in progress).
func (w *world) is(sha, name, want string) func() bool {
	return func() bool {
		r := w.newest(sha, name)
		if r == nil {
			return false
		}
		if want == "in_progress" {
			return r.Status == "in_progress"
		}
		return r.Status == "completed" && r.Conclusion == want
	}
}

// all holds when every cond holds.
func all(conds ...func() bool) func() bool {
	return func() bool {
		for _, c := range conds {
			if !c() {
				return false
			}
		}
		return true
	}
}
