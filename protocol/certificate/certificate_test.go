package certificate

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

func sample() Certificate {
	return Certificate{
		SchemaVersion: SchemaVersion, Project: "demo", Repository: "octo/demo", PullRequest: 42,
		WorkUnit: "7", CandidateSha: shaA, AuditedSha: shaA, AuditorSessionID: "auditor-bot",
		AuditReviewID: 9001, AuditVerdict: "PASS",
		RequiredCiRunIds:     []string{"1001", "1002"},
		RequiredCiRuns:       []Run{{ID: "1001", Workflow: "ci"}, {ID: "1002", Workflow: "lint"}},
		RequiredCiAllSuccess: true, MergeSha: shaM,
		MergedMainRunIds: []string{"2001"}, MergedMainRuns: []Run{{ID: "2001", Workflow: "ci"}},
		MergedMainAllSuccess: true, HeadUnchanged: true, CreatedAt: 1767225600000,
	}
}

func TestCanonicalGolden(t *testing.T) {
	got, err := sample().Canonical()
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "canonical.golden.json"), got)
	if strings.ContainsAny(string(got), " \n\t") {
		t.Errorf("canonical JSON has insignificant whitespace: %s", got)
	}
	if !strings.Contains(string(got), `"unresolvedGates":[]`) {
		t.Errorf("nil gates must be written as []: %s", got)
	}
}

func TestFingerprintStable(t *testing.T) {
	a, err := sample().Fingerprint()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := sample().Canonical()
	if a != FileFingerprint(raw) || len(a) != 64 {
		t.Errorf("fingerprint %q is not the SHA-256 of the canonical bytes", a)
	}
	c := sample()
	c.MergedMainRunIds = []string{"2002"}
	b, _ := c.Fingerprint()
	if a == b {
		t.Error("a changed certificate kept its fingerprint")
	}
	if FileFingerprint(append(raw, ' ')) == a {
		t.Error("one appended byte kept the file fingerprint")
	}
}

// TestWrittenCertificatePassesBothValidators checks that what aepgate
// writes passes aepgate's Validate and craft-protocol's own (looser) rules.
func TestWrittenCertificatePassesBothValidators(t *testing.T) {
	raw, err := sample().Canonical()
	if err != nil {
		t.Fatal(err)
	}
	if got := Validate(raw); !got.Valid {
		t.Errorf("aepgate Validate: %v", got.Errors)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if errs := craftValidate(m); len(errs) != 0 {
		t.Errorf("craft validate: %v", errs)
	}
}

// craftValidate transcribes craft-protocol's completion-certificate.py
// validate rules (§1.2), loose as they are, to prove compatibility.
func craftValidate(m map[string]any) []string {
	var errs []string
	for _, k := range requiredKeys {
		if _, ok := m[k]; !ok {
			errs = append(errs, "missing:"+k)
		}
	}
	hex := regexp.MustCompile(`^[0-9a-f]{7,64}$`)
	for _, k := range []string{"candidateSha", "auditedSha"} {
		if s, _ := m[k].(string); !hex.MatchString(s) {
			errs = append(errs, "invalid:"+k)
		}
	}
	if m["candidateSha"] != m["auditedSha"] {
		errs = append(errs, "audited-head-mismatch")
	}
	if m["auditVerdict"] != "PASS" {
		errs = append(errs, "audit-not-pass")
	}
	seen := map[string]bool{}
	for _, k := range []string{"requiredCiRunIds", "mergedMainRunIds"} {
		l, _ := m[k].([]any)
		if len(l) == 0 {
			errs = append(errs, "missing:"+k)
		}
		for _, e := range l {
			s, isStr := e.(string)
			if !isStr || s == "" || map[string]bool{"success": true, "passed": true, "green": true}[strings.ToLower(s)] {
				errs = append(errs, "non-immutable-run-id")
			}
			if seen[s] {
				errs = append(errs, "reused-or-duplicate:"+s)
			}
			seen[s] = true
		}
	}
	for k, tok := range map[string]string{"requiredCiAllSuccess": "required-ci-not-green", "mergedMainAllSuccess": "merged-main-not-green", "headUnchanged": "head-not-proven-unchanged"} {
		if m[k] != true {
			errs = append(errs, tok)
		}
	}
	if g, ok := m["unresolvedGates"].([]any); !(m["unresolvedGates"] == nil || ok && len(g) == 0) {
		errs = append(errs, "unresolved-gates")
	}
	return errs
}
