package review

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// fenced wraps text in an aep-audit block inside a review body.
func fenced(text string) string { return "Audit below.\n\n```aep-audit\n" + text + "\n```\n" }

const failJSON = `{
  "schema_version": 1,
  "work_unit": "#42",
  "verdict": "FAIL",
  "summary": "Auth checks hold.",
  "findings": [
    {"id": "F1", "severity": "low", "requirement": "names are clear",
     "evidence": [{"path": "src/auth.go", "quote": "func Check("}], "remedy": "rename"}
  ],
  "verification": [{"check": "go test ./auth/...", "outcome": "pass", "evidence": [{"path": "src/auth_test.go", "quote": "func TestCheck("}]}],
  "verdicts": [],
  "evidence_requests": []
}`

// passJSON is failJSON as a clean PASS: without its finding.
var passJSON = strings.Replace(strings.Replace(failJSON, `"verdict": "FAIL"`, `"verdict": "PASS"`, 1),
	`"findings": [
    {"id": "F1", "severity": "low", "requirement": "names are clear",
     "evidence": [{"path": "src/auth.go", "quote": "func Check("}], "remedy": "rename"}
  ],
`, "", 1)

const failYAML = `schema_version: 1
work_unit: "#42"
verdict: FAIL
summary: Auth checks hold.
findings:
  - id: F1
    severity: low
    requirement: names are clear
    evidence:
      - path: src/auth.go
        quote: "func Check("
    remedy: rename
verification:
  - check: go test ./auth/...
    outcome: pass
    evidence:
      - path: src/auth_test.go
        quote: "func TestCheck("
`

func TestParseValid(t *testing.T) {
	want := &Audit{SchemaVersion: 1, WorkUnit: "#42", Verdict: "FAIL", Summary: "Auth checks hold.",
		Findings: []Finding{{ID: "F1", Severity: "low", Requirement: "names are clear",
			Evidence: []Evidence{{"src/auth.go", "func Check("}}, Remedy: "rename"}},
		Verification: []Verification{{Check: "go test ./auth/...", Outcome: "pass", Evidence: []Evidence{{"src/auth_test.go", "func TestCheck("}}}}}
	for name, body := range map[string]string{
		"json":           fenced(failJSON),
		"yaml":           fenced(failYAML),
		"tilde fence":    "~~~aep-audit\n" + failYAML + "~~~",
		"json escapes":   fenced(strings.Replace(failJSON, `"Auth checks hold."`, `"Auth\/checks hold."`, 1)),
		"quoted example": "> ```aep-audit\n> {}\n> ```\n\n" + fenced(failJSON),
	} {
		t.Run(name, func(t *testing.T) {
			got, ps := Parse(body)
			if len(ps) > 0 {
				t.Fatalf("problems: %v", ps)
			}
			w := *want
			if name == "json escapes" {
				w.Summary = "Auth/checks hold."
			}
			if diff := cmp.Diff(&w, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !HasBlock(body) {
				t.Error("HasBlock = false")
			}
		})
	}
}

func TestParseProblems(t *testing.T) {
	j := func(old, new string) string { return fenced(strings.Replace(failJSON, old, new, 1)) }
	p := func(old, new string) string { return fenced(strings.Replace(passJSON, old, new, 1)) }
	tests := []struct {
		name, body string
		want       []string
	}{
		{"no block", "LGTM", []string{"$: the review has no aep-audit block; an audit is one fenced block with the info string aep-audit (https://github.com/aepgate/aepgate/blob/main/docs/audit.md)"}},
		{"only a quoted block", "> ```aep-audit\n> {}\n> ```", []string{"$: the review has no aep-audit block; an audit is one fenced block with the info string aep-audit (https://github.com/aepgate/aepgate/blob/main/docs/audit.md)"}},
		{"two blocks", fenced(failJSON) + fenced(failJSON), []string{"$: the review has 2 aep-audit blocks (at lines 3, 20); it must hold exactly one"}},
		{"empty block", fenced(""), []string{"$: the block is empty"}},
		{"bad json", fenced(`{"schema_version": 1,}`), []string{"$: not valid JSON: invalid character '}' looking for beginning of object key string"}},
		{"text after json", fenced(`{"schema_version": 1} x`), []string{"$: not valid JSON: text after the value"}},
		{"repeated json key", j(`"verdict": "FAIL",`, `"verdict": "FAIL", "verdict": "PASS",`), []string{`$: not valid JSON: key "verdict" appears twice`}},
		{"repeated yaml key", fenced(failYAML + "verdict: PASS\n"), []string{`$: line 22: key "verdict" appears twice`}},
		{"yaml alias", fenced(strings.Replace(failYAML, "summary: Auth checks hold.", "summary: &s Auth\nremedy_copy: *s", 1)), []string{"$: line 8: YAML aliases are not allowed in an aep-audit block"}},
		{"yaml tag", fenced(strings.Replace(failYAML, "summary: Auth checks hold.", "summary: !!binary aGk=", 1)), []string{"$: line 7: YAML tag !!binary is not allowed in an aep-audit block"}},
		{"bad yaml", fenced("schema_version: 1\nverdict: c: d\n"), []string{"$: not valid YAML: line 5: mapping values are not allowed in this context"}},
		{"two yaml documents", fenced(failYAML + "---\nx: 1\n"), []string{"$: not valid YAML: the block holds more than one document"}},
		{"not an object", fenced("- a\n- b"), []string{"$: must be an object with the fields schema_version, work_unit, verdict, summary, findings, verification, verdicts, evidence_requests, not a list"}},
		{"unknown field", j(`"verdicts": [],`, `"verdicts": [], "approved": true,`), []string{"$.approved: is not a field here (expected schema_version, work_unit, verdict, summary, findings, verification, verdicts, evidence_requests)"}},
		{"missing required", fenced(`{"schema_version": 1, "verdict": "FAIL", "findings": [{"id": "F1", "severity": "high", "requirement": "r", "evidence": [{"path": "a", "quote": "q"}], "remedy": "x"}]}`),
			[]string{"$.work_unit: is required", "$.summary: is required"}},
		{"schema version", j(`"schema_version": 1`, `"schema_version": 2`), []string{"$.schema_version: must be 1 (got 2)"}},
		{"schema version text", j(`"schema_version": 1`, `"schema_version": "1"`), []string{`$.schema_version: must be 1 (got "1")`}},
		{"schema version float", j(`"schema_version": 1`, `"schema_version": 1.0`), []string{"$.schema_version: must be 1 (got 1.0)"}},
		{"wrong type", j(`"summary": "Auth checks hold."`, `"summary": 3`), []string{"$.summary: must be text, not a number"}},
		{"empty string", j(`"summary": "Auth checks hold."`, `"summary": "  "`), []string{"$.summary: must not be empty"}},
		{"null", j(`"summary": "Auth checks hold."`, `"summary": null`), []string{"$.summary: must be text, not null"}},
		{"unknown verdict", j(`"verdict": "FAIL"`, `"verdict": "LGTM"`), []string{`$.verdict: must be one of PASS, FAIL, NEEDS_EVIDENCE (got "LGTM")`}},
		{"work unit form", j(`"#42"`, `"42"`), []string{`$.work_unit: must name the work unit as #N, e.g. #42 (got "42")`}},
		{"work unit zero", j(`"#42"`, `"#042"`), []string{`$.work_unit: must name the work unit as #N, e.g. #42 (got "#042")`}},
		{"severity", j(`"severity": "low"`, `"severity": "blocker"`), []string{`$.findings[0].severity: must be one of critical, high, medium, low (got "blocker")`}},
		{"no evidence", j(`"evidence": [{"path": "src/auth.go", "quote": "func Check("}]`, `"evidence": []`), []string{"$.findings[0].evidence: too few entries (at least 1)"}},
		{"evidence field", j(`"quote": "func Check("`, `"quote": "func Check(", "line": 3`), []string{"$.findings[0].evidence[0].line: is not a field here (expected path, quote)"}},
		{"empty quote", j(`"quote": "func Check("`, `"quote": ""`), []string{"$.findings[0].evidence[0].quote: must not be empty"}},
		{"evidence not a list", j(`"evidence": [{"path": "src/auth.go", "quote": "func Check("}]`, `"evidence": {"path": "a", "quote": "b"}`), []string{"$.findings[0].evidence: must be a list, not an object"}},
		{"duplicate finding ids", j(`"remedy": "rename"}`, `"remedy": "rename"}, {"id": "F1", "severity": "low", "requirement": "r", "evidence": [{"path": "a", "quote": "b"}], "remedy": "x"}`),
			[]string{`$.findings[1].id: "F1" is also the id of $.findings[0]; finding ids are unique within a review`}},
		{"finding id form", j(`"id": "F1"`, `"id": "F 1@r2"`), []string{`$.findings[0].id: "F 1@r2" must be 1 to 64 letters, digits, dots, dashes or underscores`}},
		{"pass without passing verification", p(`"outcome": "pass"`, `"outcome": "fail"`), []string{"$.verification: a PASS needs at least one verification with outcome pass",
			`$.verification[0].outcome: a PASS has no failed verification, and "go test ./auth/..." failed: the verdict is FAIL (with a finding) or NEEDS_EVIDENCE`}},
		{"pass beside a failed verification", p(`"verification": [`, `"verification": [{"check": "go vet ./...", "outcome": "fail", "evidence": [{"path": "vet.txt", "quote": "bad"}]}, `),
			[]string{`$.verification[0].outcome: a PASS has no failed verification, and "go vet ./..." failed: the verdict is FAIL (with a finding) or NEEDS_EVIDENCE`}},
		{"verification without evidence", j(`, "evidence": [{"path": "src/auth_test.go", "quote": "func TestCheck("}]}]`, `}]`),
			[]string{"$.verification[0].evidence: too few entries (at least 1): every verification, pass or fail, quotes the exact evidence it rests on ({path, quote} of a file at the audited commit)"}},
		{"verification outcome", p(`"outcome": "pass"`, `"outcome": "green"`), []string{`$.verification[0].outcome: must be one of pass, fail (got "green")`, "$.verification: a PASS needs at least one verification with outcome pass"}},
		{"fail without findings", fenced(`{"schema_version": 1, "work_unit": "#4", "verdict": "FAIL", "summary": "s"}`), []string{"$.findings: too few entries (at least 1): a FAIL names the findings it rests on"}},
		{"needs evidence without requests", fenced(`{"schema_version": 1, "work_unit": "#4", "verdict": "NEEDS_EVIDENCE", "summary": "s", "evidence_requests": []}`),
			[]string{"$.evidence_requests: too few entries (at least 1): NEEDS_EVIDENCE says precisely which evidence is missing"}},
		{"empty evidence request", fenced(`{"schema_version": 1, "work_unit": "#4", "verdict": "NEEDS_EVIDENCE", "summary": "s", "evidence_requests": [""]}`),
			[]string{"$.evidence_requests[0]: must not be empty"}},
		{"judgement not a ledger id", j(`"verdicts": []`, `"verdicts": [{"finding_id": "F1", "verdict": "AGREE"}]`), []string{`$.verdicts[0].finding_id: "F1" is not a ledger ID; earlier findings are named <id>@r<review-id>, e.g. F1@r7`}},
		{"judgement verdict", j(`"verdicts": []`, `"verdicts": [{"finding_id": "F1@r7", "verdict": "MAYBE"}]`), []string{`$.verdicts[0].verdict: must be one of AGREE, DISAGREE_EVIDENCE, DISAGREE_CONCERN (got "MAYBE")`}},
		{"disagree evidence without evidence", j(`"verdicts": []`, `"verdicts": [{"finding_id": "F1@r7", "verdict": "DISAGREE_EVIDENCE"}]`),
			[]string{"$.verdicts[0].evidence: too few entries (at least 1): DISAGREE_EVIDENCE quotes the evidence it rests on; without evidence it is DISAGREE_CONCERN"}},
		{"judged twice", j(`"verdicts": []`, `"verdicts": [{"finding_id": "F1@r7", "verdict": "AGREE"}, {"finding_id": "F1@r7", "verdict": "DISAGREE_CONCERN"}]`),
			[]string{"$.verdicts[1].finding_id: F1@r7 is also judged by $.verdicts[0]; judge a finding once"}},
		{"too large", fenced(strings.Repeat("x", MaxBlockBytes+1)), []string{"$: the block is 262145 bytes; at most 262144"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, ps := Parse(tt.body)
			got := []string{}
			for _, p := range ps {
				got = append(got, p.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestProblemsError(t *testing.T) {
	ps := Problems{{"$.findings[0].evidence", "too few entries"}, {"$", "x"}}
	if got, want := ps.Error(), "$.findings[0].evidence: too few entries; $: x"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

func TestPassProblems(t *testing.T) {
	a := &Audit{Verdict: VerdictPass, Findings: []Finding{{ID: "F1", Severity: "high"}, {ID: "F2", Severity: "medium"}}}
	if got := a.PassProblems(nil).Error(); got != "$.findings[0].severity: a PASS leaves no high finding open; the verdict is FAIL" {
		t.Errorf("default blocking: %q", got)
	}
	if got := a.PassProblems([]string{"critical"}); len(got) != 0 {
		t.Errorf("blocking critical only: %v", got)
	}
	if got := a.PassProblems([]string{"medium"}); len(got) != 1 || got[0].Path != "$.findings[1].severity" {
		t.Errorf("blocking medium: %v", got)
	}
}

func TestLedgerID(t *testing.T) {
	if got := LedgerID("F1", 7); got != "F1@r7" {
		t.Errorf("LedgerID = %q", got)
	}
	for _, tt := range []struct {
		in     string
		id     string
		review int64
		ok     bool
	}{
		{"F1@r7", "F1", 7, true}, {"a.b-c_d@r123", "a.b-c_d", 123, true}, {"F1@r07", "", 0, false},
		{"F1@r0", "", 0, false}, {"@r7", "", 0, false}, {"F 1@r7", "", 0, false}, {"F1", "", 0, false}, {"F1@r-7", "", 0, false},
	} {
		id, r, ok := SplitLedgerID(tt.in)
		if id != tt.id || r != tt.review || ok != tt.ok {
			t.Errorf("SplitLedgerID(%q) = %q, %d, %v", tt.in, id, r, ok)
		}
	}
}

func TestEvidencePaths(t *testing.T) {
	a := &Audit{
		Findings:     []Finding{{Evidence: []Evidence{{"b.go", "x"}, {"a.go", "y"}, {".env", "SECRET"}}}},
		Verification: []Verification{{Evidence: []Evidence{{"b.go", "z"}}}},
		Verdicts:     []Judgement{{Evidence: []Evidence{{"c/d.go", "w"}, {"../up", "v"}}}},
	}
	if diff := cmp.Diff([]string{"a.go", "b.go", "c/d.go"}, a.EvidencePaths()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
