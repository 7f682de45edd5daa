// Package report parses and checks the worker's structured handoff report
// that a pull request's body carries (craft-rules §6.2):
//
//	STATUS: done | needs-rework | blocked
//	WORK-UNIT: #12
//	ATTEMPT: 1
//	BRANCH: unit-12-attempt-1
//	PR: https://github.com/o/r/pull/34
//	DONE:
//	- what was done, as verified facts
//	NOT DONE / OPEN: none
//	FILES:
//	- path/changed.go
//	VERIFY:
//	- `go test ./...` → ok
//	PRESERVATION: clean + pushed at <40-hex SHA>
//
// Parse reads the fields out of Markdown (labels may be bold or headings;
// the report may sit in a fenced block); Check judges a parsed report
// against the pull request it sits on (its head, branch, number, the work
// unit its body names and the files it changes), and Warnings lists the
// changed files FILES leaves out. All are pure.
package report
