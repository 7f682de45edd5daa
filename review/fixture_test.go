package review

import (
	"encoding/json"
	"strings"
	"time"
)

// SHAs of the fixtures: the head and two earlier commits.
var (
	head = strings.Repeat("c", 40)
	shaA = strings.Repeat("a", 40)
	shaB = strings.Repeat("b", 40)
)

var t0 = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

func at(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }

// repo is the repository's content at each commit.
var repo = map[string]map[string]string{
	shaA: {"src/auth.go": authGo, "src/store.go": "package store\n\nvar cache = map[string]string{}\n"},
	shaB: {"src/auth.go": authGo + "// v2\n", "src/store.go": "package store\n\nvar cache = map[string]string{}\n"},
	head: {"src/auth.go": authGo + "// v3\n", "src/store.go": "package store\n\nvar cache sync.Map\n", ".env": "TOKEN=abc\n"},
}

// fixture builds a pull request: #21 of work unit #42 by exec, with
// commits by exec and committed by carl.
func fixture(risk string) Input {
	return Input{
		Risk: risk, Head: head, Unit: 42, PR: 21, Corrections: 1, Exchanges: 3,
		PRAuthor:    Actor{"exec", "User"},
		Permissions: writers("ann", "bob", "carl", "dana", "eve", "exec", "pat", "zed", "helper", "helper[bot]", "audit[bot]", "acme"),
		Commits: []Commit{
			{SHA: shaA, AuthorLogin: "exec", CommitterLogin: "carl"},
			{SHA: head, AuthorName: "Dana", AuthorEmail: "123+dana@users.noreply.github.com", CommitterName: "Eve", CommitterEmail: "eve@example.com"},
		},
	}
}

// writers gives each login write access.
func writers(logins ...string) map[string]string {
	out := map[string]string{}
	for _, l := range logins {
		out[l] = "write"
	}
	return out
}

// pass is a valid PASS.
func pass(judgements ...Judgement) *Audit {
	return &Audit{SchemaVersion: 1, WorkUnit: "#42", Verdict: VerdictPass, Summary: "holds",
		Verification: []Verification{{Check: "go test ./...", Outcome: OutcomePass, Evidence: []Evidence{{"src/auth.go", "func Check("}}}},
		Verdicts:     judgements}
}

// failing is a valid FAIL with the findings given.
func failing(findings ...Finding) *Audit {
	return &Audit{SchemaVersion: 1, WorkUnit: "#42", Verdict: VerdictFail, Summary: "broken", Findings: findings}
}

// finding is a high finding quoting src/auth.go.
func finding(id, requirement string) Finding {
	return Finding{ID: id, Severity: "high", Requirement: requirement, Remedy: "fix it",
		Evidence: []Evidence{{"src/auth.go", "return token != \"\""}}}
}

func judge(id, verdict string, ev ...Evidence) Judgement {
	return Judgement{FindingID: id, Verdict: verdict, Evidence: ev}
}

// body renders a as a review body.
func body(a *Audit) string {
	b, err := json.MarshalIndent(a, "", "  ")
	if err != nil {
		panic(err)
	}
	return "My audit.\n\n```aep-audit\n" + string(b) + "\n```\n"
}

// rev is a submitted review by login of a at sha, with its bundle read
// from repo.
func rev(id int64, login, sha string, a *Audit, min int) Review {
	r := Review{ID: id, URL: "https://github.com/acme/w/pull/21#pullrequestreview-" + itoa(id), Author: Actor{login, "User"},
		CommitSHA: sha, State: StateCommented, Body: body(a), Submitted: at(min)}
	r.Bundle = read(sha, a)
	return r
}

// read reads a's evidence paths at sha, as the App does.
func read(sha string, a *Audit) Bundle {
	var b Bundle
	for _, p := range a.EvidencePaths() {
		content, ok := repo[sha][p]
		b = append(b, File{Path: p, Content: []byte(content), Missing: !ok})
	}
	return b
}

func dispose(id int64, login, finding, kind string, min int) Disposition {
	return Disposition{CommentID: id, URL: "https://github.com/acme/w/pull/21#issuecomment-" + itoa(id), Author: Actor{login, "User"},
		FindingID: finding, Kind: kind, Reason: "see the commit", Created: at(min)}
}

func itoa(n int64) string { b, _ := json.Marshal(n); return string(b) }
