package mcpserve

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/report"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// ReportCheckInput is report_check's arguments: the draft description and
// the facts of the pull request it will sit on.
type ReportCheckInput struct {
	Body       string   `json:"body" jsonschema:"the draft pull request description holding the worker report"`
	HeadSHA    string   `json:"head_sha" jsonschema:"the full 40-hex commit the pull request's head is (git rev-parse HEAD after pushing)"`
	Number     int      `json:"number,omitempty" jsonschema:"the pull request's number, once it has one (0: the PR field is not checked)"`
	HeadBranch string   `json:"head_branch,omitempty" jsonschema:"the head branch's name (empty: BRANCH is not checked)"`
	Repo       string   `json:"repo,omitempty" jsonschema:"the repository as owner/name (empty: WORK-UNIT is not checked)"`
	Files      []string `json:"files,omitempty" jsonschema:"every path the pull request changes (omitted: FILES is not compared)"`
}

// ReportCheck is report_check's structured result: the aep/report check
// run the Action would write, and the report's problems and warnings.
type ReportCheck struct {
	// Found is false when the body holds no STATUS line.
	Found      bool            `json:"found"`
	Status     string          `json:"status,omitempty"`
	Conclusion string          `json:"conclusion"`
	Title      string          `json:"title"`
	Problems   []ReportProblem `json:"problems"`
	Warnings   []ReportProblem `json:"warnings"`
}

// ReportProblem is one problem of the report, at its body line (0 for an
// absence).
type ReportProblem struct {
	Code    string `json:"code"`
	Field   string `json:"field,omitempty"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}

// fullSHA is a full commit SHA.
var fullSHA = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-fA-F]{40}$`) })

// ownerName is a repository's owner/name.
var ownerName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9-]+/[A-Za-z0-9._-]+$`) })

// reportCheck judges the report as the Action's aep/report does once a
// report is required (report.Check and report.Warnings, drawn by
// checks.ReportRun), and prints the run as `aepgate simulate` prints runs.
func (t tools) reportCheck(_ context.Context, _ *mcp.CallToolRequest, in ReportCheckInput) (*mcp.CallToolResult, ReportCheck, error) {
	var out ReportCheck
	switch {
	case strings.TrimSpace(in.Body) == "":
		return nil, out, fmt.Errorf("report_check: body is required: the draft pull request description")
	case !fullSHA().MatchString(in.HeadSHA):
		return nil, out, fmt.Errorf("report_check: head_sha %q is not a full 40-hex commit SHA: give the head you pushed (git rev-parse HEAD)", in.HeadSHA)
	case in.Number < 0:
		return nil, out, fmt.Errorf("report_check: number %d is not a pull request number", in.Number)
	case in.Repo != "" && !ownerName().MatchString(in.Repo):
		return nil, out, fmt.Errorf("report_check: repo %q is not owner/name", in.Repo)
	}
	rep := report.Parse(in.Body)
	f := report.Facts{HeadSHA: in.HeadSHA, Number: in.Number, HeadBranch: in.HeadBranch, Repo: in.Repo,
		Files: in.Files, FilesKnown: in.Files != nil}
	if in.Repo != "" {
		f.Units = workunit.ParseRefs(in.Body, in.Repo)
	}
	problems, warnings := report.Check(rep, f), report.Warnings(rep, f)
	run := checks.ReportRun(in.HeadSHA, in.Number, rep, problems, warnings)
	out = ReportCheck{Found: rep.Found, Status: string(rep.Status), Conclusion: string(run.Conclusion), Title: run.Title,
		Problems: reportProblems(problems), Warnings: reportProblems(warnings)}
	return text(t.cli.RunsText([]checks.Run{run})), out, nil
}

func reportProblems(ps []report.Problem) []ReportProblem {
	out := make([]ReportProblem, 0, len(ps))
	for _, p := range ps {
		out = append(out, ReportProblem{Code: p.Code, Field: p.Field, Line: p.Line, Message: p.Message})
	}
	return out
}
