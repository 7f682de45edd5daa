package cli

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/lint"
	"github.com/aepgate/aepgate/protocol/plans"
)

// SARIF 2.1.0 as GitHub code scanning reads it ("SARIF support for code
// scanning" in GitHub's docs, and the GitHub rules of Microsoft's SARIF
// multitool): a run's tool.driver with its name, version and rules (each
// with fullDescription and help), automationDetails.id (the upload's
// category), and results with ruleId, level, message.text, one physical
// location relative to %SRCROOT% (the repository root) and
// partialFingerprints.
const (
	sarifVersion = "2.1.0"
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	// sarifRoot is the uriBaseId every location is relative to.
	sarifRoot = "%SRCROOT%"
	// sarifFingerprint is the key of aepgate's partial fingerprint.
	sarifFingerprint = "aepgateFinding/v1"
)

// sarifFinding is one finding as the three SARIF commands have it.
type sarifFinding struct {
	Rule, Message string
	// File is the file's path on disk: absolute, or relative to the
	// working directory.
	File string
	// Line is 1-based; 0 (a whole file or folder) is reported as line 1.
	Line int
}

// sarifCheck is one command that writes SARIF: the tool's name, its
// automation category and where its rules are documented.
type sarifCheck struct {
	tool, category string
	rules          map[string]ruleDoc
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool               sarifTool                `json:"tool"`
	AutomationDetails  sarifAutomation          `json:"automationDetails"`
	OriginalURIBaseIDs map[string]sarifBaseInfo `json:"originalUriBaseIds"`
	Results            []sarifResult            `json:"results"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifBaseInfo struct {
	Description sarifText `json:"description"`
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
	ID               string        `json:"id"`
	Name             string        `json:"name"`
	ShortDescription sarifText     `json:"shortDescription"`
	FullDescription  sarifText     `json:"fullDescription"`
	Help             sarifHelp     `json:"help"`
	HelpURI          string        `json:"helpUri"`
	Default          sarifDefaults `json:"defaultConfiguration"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type sarifDefaults struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID       string            `json:"ruleId"`
	RuleIndex    int               `json:"ruleIndex"`
	Level        string            `json:"level"`
	Message      sarifText         `json:"message"`
	Locations    []sarifLocation   `json:"locations"`
	Fingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

// newSARIF builds the log of one run of check at version over the
// repository at root: every finding an error, its rule listed once in the
// driver, its location relative to root whatever the working directory.
func newSARIF(check sarifCheck, version, root string, findings []sarifFinding) sarifLog {
	run := sarifRun{
		Tool:              sarifTool{Driver: sarifDriver{Name: check.tool, Version: sarifToolVersion(version), InformationURI: homepage, Rules: []sarifRule{}}},
		AutomationDetails: sarifAutomation{ID: check.category},
		OriginalURIBaseIDs: map[string]sarifBaseInfo{sarifRoot: {Description: sarifText{
			Text: "The repository root: the nearest folder above the checked one that holds .git (else the checked folder)."}}},
		Results: []sarifResult{},
	}
	lines := fileLines{}
	seen := map[string]int{}
	for _, f := range findings {
		idx := slices.IndexFunc(run.Tool.Driver.Rules, func(r sarifRule) bool { return r.ID == f.Rule })
		if idx < 0 {
			idx = len(run.Tool.Driver.Rules)
			run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, check.rule(f.Rule))
		}
		uri := sarifURI(root, f.File)
		line := max(f.Line, 1)
		key := f.Rule + "\x00" + uri + "\x00" + normalizedLine(lines.line(f.File, f.Line))
		seen[key]++
		run.Results = append(run.Results, sarifResult{
			RuleID: f.Rule, RuleIndex: idx, Level: "error", Message: sarifText{Text: f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtifact{URI: uri, URIBaseID: sarifRoot}, Region: sarifRegion{StartLine: line},
			}}},
			Fingerprints: map[string]string{sarifFingerprint: fingerprint(key, seen[key])},
		})
	}
	return sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{run}}
}

// sarifToolVersion is version as SARIF wants it, starting with a digit:
// "v1.2.3" is "1.2.3", and a build with no release version ("devel") is
// "0.0.0-devel".
func sarifToolVersion(version string) string {
	v := strings.TrimPrefix(version, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "0.0.0-" + version
	}
	return v
}

// fingerprint is a finding's partial fingerprint: the SHA-256 of its rule,
// its repository path and its line's content (not the line number, so a
// finding keeps it when lines above it move), and its rank among findings
// with the same three.
func fingerprint(key string, n int) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", key, n))
	return hex.EncodeToString(sum[:])
}

// normalizedLine is a line with its runs of white space made one space
// and its ends trimmed.
func normalizedLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// fileLines reads the lines findings point at, each file once; a file
// that cannot be read (a folder, a file gone) has no lines.
type fileLines map[string][]string

// line is line n (1-based) of path, or "" when there is none.
func (fl fileLines) line(path string, n int) string {
	lines, ok := fl[path]
	if !ok {
		lines = readLines(path)
		fl[path] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	return lines[n-1]
}

// readLines is path's lines, nil when it cannot be read as a file.
func readLines(path string) []string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// sarifURI is path relative to root, with slashes, as code scanning wants
// it; a path outside root (which repoRoot never gives) keeps its slashes
// and its "..".
func sarifURI(root, path string) string {
	abs, err := filepath.Abs(path)
	if err == nil {
		if rel, err := filepath.Rel(root, abs); err == nil {
			path = rel
		}
	}
	return filepath.ToSlash(filepath.Clean(path))
}

// repoRoot is the repository holding dir: the nearest folder at or above
// dir (made absolute) with a .git entry (a folder, or a worktree's file),
// else dir itself.
func repoRoot(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for d := abs; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return abs
		}
	}
}

// sarifCategory is the automation category of check run on folder under
// root: "aepgate/<check>/<folder>/", so that uploads for two run folders
// do not replace each other's results.
func sarifCategory(check, root, folder string) string {
	rel := sarifURI(root, folder)
	if rel == "." {
		return "aepgate/" + check + "/"
	}
	return "aepgate/" + check + "/" + rel + "/"
}

// writeSARIF prints the SARIF log of check's findings.
func writeSARIF(w io.Writer, check sarifCheck, version, root string, findings []sarifFinding) error {
	return writeEvidenceJSON(w, newSARIF(check, version, root, findings))
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
	root := repoRoot(dir)
	check := sarifCheck{tool: "aepgate lint", category: sarifCategory("lint", root, dir), rules: lintRuleDocs}
	return writeSARIF(s.out, check, s.version, root, findings)
}

// plansSARIF is plans verify's findings for SARIF, each file relative to
// top, the repository's top level.
func plansSARIF(top string, findings []plans.Finding) []sarifFinding {
	out := make([]sarifFinding, len(findings))
	for i, f := range findings {
		out[i] = sarifFinding{Rule: f.Rule, Message: f.Message, File: filepath.Join(top, f.File), Line: f.Line}
	}
	return out
}

// sarif is review check's problems for SARIF, each at the review file
// (a problem names its JSON path in the aep-audit block).
func reviewSARIF(r reviewReport) []sarifFinding {
	out := make([]sarifFinding, len(r.Problems))
	for i, p := range r.Problems {
		out[i] = sarifFinding{Rule: reviewRuleID, Message: p.Path + ": " + p.Message, File: r.File, Line: 1}
	}
	return out
}
