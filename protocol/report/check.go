package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/protocol/workunit"
)

// Facts are what GitHub says about the pull request the report sits on.
type Facts struct {
	// HeadSHA is the pull request's head commit (40 hex).
	HeadSHA string
	// Number is the pull request's number; 0 skips the PR field check.
	Number int
	// HeadBranch is the head ref's name; empty skips the BRANCH check.
	HeadBranch string
	// Repo is the pull request's repository, "owner/name"; empty skips the
	// WORK-UNIT check.
	Repo string
	// Units are the work units the pull request's body names
	// (workunit.ParseRefs: "Work-unit: #N" lines, the report's own
	// WORK-UNIT line among them, and closing keywords).
	Units []workunit.Ref
	// Files are the paths the pull request changes. FilesKnown says they
	// were read in full; false skips the FILES check and its warnings.
	Files      []string
	FilesKnown bool
}

// Check judges r against the pull request: every required field present
// and filled, no field given twice, STATUS one of done/needs-rework/blocked,
// WORK-UNIT the one work unit the pull request names, ATTEMPT a positive
// number, BRANCH the head branch, PR this pull request (or none), FILES
// only files the pull request changes, VERIFY items each a command with its
// result, and PRESERVATION "clean + pushed at" the pull request's full head
// SHA. Problems come in body order, absences first. Changed files that
// FILES leaves out are Warnings, not problems.
func Check(r Report, f Facts) []Problem {
	return check(r, f, checkOptions{bindHead: true, bindUnit: true, bindFiles: true})
}

// checkOptions are the rules Check applies. Check sets every one; the
// negative-control tests turn one off to show the attack it stops passing.
type checkOptions struct {
	// bindHead binds PRESERVATION to the pull request's head SHA.
	bindHead bool
	// bindUnit binds WORK-UNIT to the work unit the pull request names.
	bindUnit bool
	// bindFiles binds FILES to the files the pull request changes.
	bindFiles bool
}

// check is Check under opts.
func check(r Report, f Facts, opts checkOptions) []Problem {
	if !r.Found {
		return []Problem{{Code: "no-report", Message: "the pull request body has no worker report: add one starting with a line 'STATUS: done | needs-rework | blocked' followed by WORK-UNIT, ATTEMPT, BRANCH, PR, DONE, NOT DONE / OPEN, FILES, VERIFY and PRESERVATION"}}
	}
	var ps []Problem
	for _, name := range Required {
		if _, ok := r.Fields[name]; !ok {
			ps = append(ps, Problem{Code: "missing-field", Field: name, Message: fmt.Sprintf("the report has no %s field; add a line '%s: …'", name, name)})
		}
	}
	for _, d := range r.Duplicates {
		ps = append(ps, Problem{Code: "duplicate-field", Field: d.Name, Line: d.Line, Message: fmt.Sprintf("%s is given again here; a report names each field once (first at line %d)", d.Name, r.Fields[d.Name].Line)})
	}
	for _, name := range Required {
		fld, ok := r.Fields[name]
		if !ok {
			continue
		}
		if p, bad := checkField(r, fld, f, opts); bad {
			ps = append(ps, p...)
		}
	}
	return ps
}

// checkField judges one present field.
func checkField(r Report, fld Field, f Facts, opts checkOptions) ([]Problem, bool) {
	if len(fld.Values()) == 0 {
		return fieldProblem(fld, "empty-field", "%s is empty; write its value after the colon or as a list below it", fld.Name), true
	}
	if check, ok := fieldChecks[fld.Name]; ok {
		return check(r, fld, f, opts)
	}
	return nil, false
}

// fieldCheck judges one present, non-empty field; bad reports a problem.
type fieldCheck func(r Report, fld Field, f Facts, opts checkOptions) (ps []Problem, bad bool)

// fieldChecks are the checks of the fields that have one beyond presence.
var fieldChecks = map[string]fieldCheck{
	FieldStatus: func(r Report, fld Field, _ Facts, _ checkOptions) ([]Problem, bool) {
		switch r.Status {
		case StatusDone, StatusNeedsRework, StatusBlocked:
			return nil, false
		}
		return fieldProblem(fld, "invalid-status", "STATUS is %q; it must be exactly one of done, needs-rework, blocked", fld.Inline), true
	},
	FieldWorkUnit: func(_ Report, fld Field, f Facts, opts checkOptions) ([]Problem, bool) {
		if !opts.bindUnit {
			return nil, false
		}
		return checkUnit(fld, f)
	},
	FieldFiles: func(_ Report, fld Field, f Facts, opts checkOptions) ([]Problem, bool) {
		if !opts.bindFiles {
			return nil, false
		}
		return checkFiles(fld, f)
	},
	FieldAttempt: func(r Report, fld Field, _ Facts, _ checkOptions) ([]Problem, bool) {
		if r.Attempt >= 1 {
			return nil, false
		}
		return fieldProblem(fld, "invalid-attempt", "ATTEMPT is %q; it must be a positive whole number", fld.Inline), true
	},
	FieldBranch: func(_ Report, fld Field, f Facts, _ checkOptions) ([]Problem, bool) {
		if b := strings.Trim(fld.Inline, "`"); f.HeadBranch != "" && b != f.HeadBranch {
			return fieldProblem(fld, "wrong-branch", "BRANCH is %q but this pull request's head branch is %q", b, f.HeadBranch), true
		}
		return nil, false
	},
	FieldPR: func(_ Report, fld Field, f Facts, _ checkOptions) ([]Problem, bool) { return checkPR(fld, f) },
	FieldVerify: func(r Report, _ Field, _ Facts, _ checkOptions) ([]Problem, bool) {
		return checkVerify(r.Verify), true
	},
	FieldPreservation: func(r Report, fld Field, f Facts, opts checkOptions) ([]Problem, bool) {
		return checkPreservation(r.Preservation, fld, f, opts.bindHead)
	},
}

// fieldProblem is one problem of code at fld.
func fieldProblem(fld Field, code, format string, args ...any) []Problem {
	return []Problem{{Code: code, Field: fld.Name, Line: fld.Line, Message: fmt.Sprintf(format, args...)}}
}

// checkPR accepts "none", #N, or a URL ending in /pull/N, where N must be
// this pull request.
func checkPR(fld Field, f Facts) ([]Problem, bool) {
	v := strings.Trim(strings.TrimSpace(fld.Inline), "<>`")
	if strings.EqualFold(v, "none") || f.Number == 0 {
		return nil, false
	}
	n := v
	if i := strings.LastIndex(v, "/pull/"); i >= 0 {
		n = v[i+len("/pull/"):]
	}
	n = strings.TrimPrefix(n, "#")
	if num, err := strconv.Atoi(strings.TrimRight(n, "/")); err == nil && num == f.Number {
		return nil, false
	}
	return []Problem{{Code: "wrong-pr", Field: FieldPR, Line: fld.Line,
		Message: fmt.Sprintf("PR is %q but this is pull request #%d; write its URL, #%d or none", v, f.Number, f.Number)}}, true
}

func checkVerify(steps []VerifyStep) []Problem {
	var ps []Problem
	for _, s := range steps {
		switch {
		case s.Command == "":
			ps = append(ps, Problem{Code: "verify-without-command", Field: FieldVerify, Line: s.Line, Message: "this VERIFY item names no command; write '`command` → exact result'"})
		case s.Result == "":
			ps = append(ps, Problem{Code: "verify-without-result", Field: FieldVerify, Line: s.Line, Message: fmt.Sprintf("VERIFY item %q gives no result; write '`%s` → exact result'", s.Command, s.Command)})
		}
	}
	return ps
}

// checkPreservation wants "clean + pushed at" a commit; with bindHead that
// commit must be the pull request's full head SHA.
func checkPreservation(p Preservation, fld Field, f Facts, bindHead bool) ([]Problem, bool) {
	at := func(code, format string, args ...any) ([]Problem, bool) {
		return []Problem{{Code: code, Field: FieldPreservation, Line: fld.Line, Message: fmt.Sprintf(format, args...)}}, true
	}
	head := strings.ToLower(f.HeadSHA)
	switch {
	case !p.Clean || !p.Pushed:
		return at("preservation-not-clean-pushed", "PRESERVATION must read 'clean + pushed at <sha>' (the worktree clean and the branch pushed)")
	case p.SHA == "":
		return at("preservation-without-sha", "PRESERVATION names no commit; write 'clean + pushed at %s'", head)
	case p.SHA == head || !bindHead:
		return nil, false
	case len(p.SHA) < 40 && strings.HasPrefix(head, p.SHA):
		return at("preservation-short-sha", "PRESERVATION names %s, a short SHA; write the full head SHA %s", p.SHA, head)
	default:
		return at("stale-preservation", "PRESERVATION names %s but the pull request's head is %s; push, then update the report", p.SHA, head)
	}
}
