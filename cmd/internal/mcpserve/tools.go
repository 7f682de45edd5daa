package mcpserve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/aepgate/aepgate/cmd/internal/reportjson"
	"github.com/aepgate/aepgate/protocol/lint"
	"github.com/aepgate/aepgate/protocol/status"
)

// The tools' names.
const (
	ToolLint        = "lint"
	ToolStatus      = "status"
	ToolReviewCheck = "review_check"
	ToolPlansVerify = "plans_verify"
	ToolReportCheck = "report_check"
	ToolWhatBlocks  = "what_blocks"
)

// LintInput is lint's arguments.
type LintInput struct {
	Dir            string `json:"dir" jsonschema:"the run folder (relative to the server's working directory, or absolute)"`
	AnnexThreshold *int   `json:"annex_threshold,omitempty" jsonschema:"flag the run when it has more than this many annexes (default 20)"`
}

// StatusInput is status's arguments.
type StatusInput struct {
	Dir string `json:"dir" jsonschema:"the run folder holding compliance-log.md"`
}

// ReviewCheckInput is review_check's arguments: the draft review as text
// or as a file, never both.
type ReviewCheckInput struct {
	Review  string `json:"review,omitempty" jsonschema:"the draft review: the whole body with its fenced aep-audit block, or the block's JSON or YAML alone"`
	File    string `json:"file,omitempty" jsonschema:"a file holding the draft review, instead of review"`
	RepoDir string `json:"repo_dir,omitempty" jsonschema:"the git checkout whose objects hold the cited files (default: the working directory)"`
	SHA     string `json:"sha,omitempty" jsonschema:"the commit the review audits (default HEAD)"`
}

// PlansVerifyInput is plans_verify's arguments. The recorded commands are
// never re-run (`plans verify --rerun` is the command line's alone).
type PlansVerifyInput struct {
	Dir    string `json:"dir" jsonschema:"the plan folder (plans/<slug>) inside a git checkout"`
	Base   string `json:"base,omitempty" jsonschema:"git ref whose contract and task IDs HEAD must keep (default: the merge base with the default branch)"`
	Phase  int    `json:"phase,omitempty" jsonschema:"the phase this branch works on (default: from the branch name plan/<slug>/phase-<N>)"`
	Author string `json:"author,omitempty" jsonschema:"the GitHub login making the change"`
	Owner  string `json:"owner,omitempty" jsonschema:"the login owning a plan in the Executor skill's dialect"`
}

// The commands' JSON reports, as they print them (package reportjson).
type (
	ReviewCheck   = reportjson.ReviewCheck
	ReviewBundle  = reportjson.ReviewBundle
	BundleFile    = reportjson.BundleFile
	ReviewQuote   = reportjson.ReviewQuote
	ReviewProblem = reportjson.ReviewProblem
	PlansVerify   = reportjson.PlansVerify
	PlansPhase    = reportjson.PlansPhase
	PlansFinding  = reportjson.PlansFinding
)

// register adds every tool to srv.
func (t tools) register(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: ToolLint, Annotations: readOnly("Lint a run folder", false),
		Description: "Cross-check a run folder's documents (execution-guide.md, compliance-log.md, plan-of-record.md, annexes/) for every gap the protocol names, as `aepgate lint` does. Returns its text and its --format json report; problems found are a result, not an error."},
		logged(t, ToolLint, t.lint))
	mcp.AddTool(srv, &mcp.Tool{Name: ToolStatus, Annotations: readOnly("Status of a run folder", false),
		Description: "The effective state of every task and gate in a run folder's compliance log, as `aepgate status` does."},
		logged(t, ToolStatus, t.status))
	mcp.AddTool(srv, &mcp.Tool{Name: ToolReviewCheck, Annotations: readOnly("Check a draft audit review", false),
		Description: "Check a draft audit review (its aep-audit block and every quote) against the git objects of a checkout at a commit, with the App's messages, as `aepgate review check` does."},
		logged(t, ToolReviewCheck, t.reviewCheck))
	mcp.AddTool(srv, &mcp.Tool{Name: ToolPlansVerify, Annotations: readOnly("Verify a plan folder", false),
		Description: "Check a plan folder's state files against its contract and git history, as `aepgate plans verify` does (without --rerun: no recorded command is run)."},
		logged(t, ToolPlansVerify, t.plansVerify))
	mcp.AddTool(srv, &mcp.Tool{Name: ToolReportCheck, Annotations: readOnly("Check a draft worker report", false),
		Description: "Check the worker report in a draft pull request description as the Action's aep/report check does, against the facts given (head commit, branch, number, repository, changed files)."},
		logged(t, ToolReportCheck, t.reportCheck))
	mcp.AddTool(srv, &mcp.Tool{Name: ToolWhatBlocks, Annotations: readOnly("What blocks this pull request", true),
		Description: "Judge an open pull request read-only with the App's own checks, as `aepgate simulate` does, and say for each blocking check what to do next. Needs GH_TOKEN or GITHUB_TOKEN in the server's environment; writes nothing."},
		logged(t, ToolWhatBlocks, t.whatBlocks))
}

// call is one command run twice, as text and as --format json: words are
// the command, flags its options and args its positional arguments
// (after "--", so that none is read as a flag; each flag is given as
// --name=value, so that a value is never read as a flag either).
type call struct {
	tool         string
	stdin        string
	words, flags []string
	args         []string
}

// run runs c as text and as JSON, decodes the JSON into out, and returns
// the result carrying the text (and stderr's warnings). A run that could
// not do its work (exit 2 or more) is the tool's error.
func (t tools) run(ctx context.Context, c call, out any) (*mcp.CallToolResult, error) {
	argv := func(format string) []string {
		a := append(append(append([]string{}, c.words...), c.flags...), "--format", format, "--")
		return append(a, c.args...)
	}
	txt := t.cli.Run(ctx, c.stdin, argv("text")...)
	if txt.Code > 1 {
		return nil, failed(c.tool, txt)
	}
	js := t.cli.Run(ctx, c.stdin, argv("json")...)
	if js.Code > 1 {
		return nil, failed(c.tool, js)
	}
	if err := json.Unmarshal([]byte(js.Stdout), out); err != nil {
		return nil, fmt.Errorf("%s: read the command's JSON: %w", c.tool, err)
	}
	parts := []string{txt.Stdout}
	if txt.Stderr != "" {
		parts = append(parts, txt.Stderr)
	}
	return text(parts...), nil
}

// needDir refuses an empty folder argument before any command runs.
func needDir(tool, dir string) error {
	if dir == "" {
		return fmt.Errorf("%s: dir is required: the folder to read", tool)
	}
	return nil
}

func (t tools) lint(ctx context.Context, _ *mcp.CallToolRequest, in LintInput) (*mcp.CallToolResult, lint.JSONReport, error) {
	var out lint.JSONReport
	if err := needDir(ToolLint, in.Dir); err != nil {
		return nil, out, err
	}
	var flags []string
	if in.AnnexThreshold != nil {
		flags = []string{"--annex-threshold=" + strconv.Itoa(*in.AnnexThreshold)}
	}
	res, err := t.run(ctx, call{tool: ToolLint, words: []string{"lint"}, flags: flags, args: []string{in.Dir}}, &out)
	return res, out, err
}

func (t tools) status(ctx context.Context, _ *mcp.CallToolRequest, in StatusInput) (*mcp.CallToolResult, status.Report, error) {
	var out status.Report
	if err := needDir(ToolStatus, in.Dir); err != nil {
		return nil, out, err
	}
	res, err := t.run(ctx, call{tool: ToolStatus, words: []string{"status"}, args: []string{in.Dir}}, &out)
	return res, out, err
}

func (t tools) reviewCheck(ctx context.Context, _ *mcp.CallToolRequest, in ReviewCheckInput) (*mcp.CallToolResult, ReviewCheck, error) {
	var out ReviewCheck
	c := call{tool: ToolReviewCheck, words: []string{"review", "check"}}
	switch {
	case in.Review != "" && in.File != "":
		return nil, out, errors.New("review_check: give the review as review (its text) or as file (a path), not both")
	case in.Review != "":
		c.stdin, c.args = in.Review, []string{"-"}
	case in.File != "":
		c.args = []string{in.File}
	default:
		return nil, out, errors.New("review_check: give the draft review as review (its text) or as file (a path)")
	}
	if in.RepoDir != "" {
		c.flags = append(c.flags, "--repo-dir="+in.RepoDir)
	}
	if in.SHA != "" {
		c.flags = append(c.flags, "--sha="+in.SHA)
	}
	res, err := t.run(ctx, c, &out)
	return res, out, err
}

func (t tools) plansVerify(ctx context.Context, _ *mcp.CallToolRequest, in PlansVerifyInput) (*mcp.CallToolResult, PlansVerify, error) {
	var out PlansVerify
	if err := needDir(ToolPlansVerify, in.Dir); err != nil {
		return nil, out, err
	}
	var flags []string
	for _, f := range []struct{ name, value string }{{"--base", in.Base}, {"--author", in.Author}, {"--owner", in.Owner}} {
		if f.value != "" {
			flags = append(flags, f.name+"="+f.value)
		}
	}
	if in.Phase != 0 {
		flags = append(flags, "--phase="+strconv.Itoa(in.Phase))
	}
	res, err := t.run(ctx, call{tool: ToolPlansVerify, words: []string{"plans", "verify"}, flags: flags, args: []string{in.Dir}}, &out)
	return res, out, err
}
