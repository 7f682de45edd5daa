package cli

import (
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/lint"
	"github.com/aepgate/aepgate/protocol/plans"
)

// SARIF 2.1.0, the subset GitHub code scanning reads ("SARIF support for
// code scanning" in GitHub's docs): a run's tool.driver with its name and
// rules, and results with ruleId, level, message.text and one physical
// location (artifactLocation.uri relative to the repository root,
// region.startLine at least 1).
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
)

// sarifFinding is one finding as the three SARIF commands have it.
type sarifFinding struct {
	Rule, Message, File string
	// Line is 1-based; 0 (a whole file or folder) is reported as line 1.
	Line int
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string    `json:"id"`
	ShortDescription sarifText `json:"shortDescription"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// newSARIF builds the log of one run of tool (e.g. "aepgate lint") at
// version: every finding an error, its rule listed once in the driver.
func newSARIF(tool, version string, findings []sarifFinding) sarifLog {
	run := sarifRun{
		Tool:    sarifTool{Driver: sarifDriver{Name: tool, Version: version, InformationURI: homepage, Rules: []sarifRule{}}},
		Results: []sarifResult{},
	}
	for _, f := range findings {
		if !slices.ContainsFunc(run.Tool.Driver.Rules, func(r sarifRule) bool { return r.ID == f.Rule }) {
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{ID: f.Rule, ShortDescription: sarifText{Text: tool + " rule " + f.Rule}})
		}
		run.Results = append(run.Results, sarifResult{
			RuleID: f.Rule, Level: "error", Message: sarifText{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: sarifURI(f.File)}, Region: sarifRegion{StartLine: max(f.Line, 1)},
			}}},
		})
	}
	return sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
}

// sarifURI is a path as code scanning wants it: relative, with slashes.
func sarifURI(path string) string {
	return strings.TrimPrefix(filepath.ToSlash(filepath.Clean(path)), "./")
}

// writeSARIF prints the SARIF log of tool's findings.
func writeSARIF(w io.Writer, tool, version string, findings []sarifFinding) error {
	return writeEvidenceJSON(w, newSARIF(tool, version, findings))
}

// writeLintJSON prints lint's result as its JSON report or as SARIF, each
// problem at its file inside dir.
func writeLintJSON(s streams, dir string, res lint.Result, format string) error {
	if format == formatJSON {
		return writeJSON(s.out, res.JSON(dir))
	}
	findings := make([]sarifFinding, len(res.Problems))
	for i, p := range res.Problems {
		msg := p.Message
		if p.ID != "" {
			msg = p.ID + ": " + msg
		}
		findings[i] = sarifFinding{Rule: p.Rule, Message: p.Tag + " " + msg, File: filepath.Join(dir, p.File), Line: p.Line}
	}
	return writeSARIF(s.out, "aepgate lint", s.version, findings)
}

// plansSARIF is plans verify's findings for SARIF.
func plansSARIF(findings []plans.Finding) []sarifFinding {
	out := make([]sarifFinding, len(findings))
	for i, f := range findings {
		out[i] = sarifFinding{Rule: f.Rule, Message: f.Message, File: f.File, Line: f.Line}
	}
	return out
}

// sarif is review check's problems for SARIF, each at the review file
// (a problem names its JSON path in the aep-audit block).
func (r reviewReport) sarif() []sarifFinding {
	out := make([]sarifFinding, len(r.Problems))
	for i, p := range r.Problems {
		out[i] = sarifFinding{Rule: "aep-audit", Message: p.Path + ": " + p.Message, File: r.File, Line: 1}
	}
	return out
}
