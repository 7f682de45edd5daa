package certificate

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/refusal"
)

const (
	shaA = "0123456789abcdef0123456789abcdef01234567"
	shaB = "89abcdef0123456789abcdef0123456789abcdef"
	shaM = "fedcba9876543210fedcba9876543210fedcba98"
)

// baseline is craft's §7.1 baseline certificate as a JSON object.
func baseline() map[string]any {
	return map[string]any{
		"schemaVersion": 1, "project": "demo", "workUnit": "wu-1",
		"candidateSha": shaA, "auditedSha": shaA, "auditorSessionId": "auditor-1",
		"auditVerdict": "PASS", "requiredCiRunIds": []any{"run-1", "run-2"},
		"requiredCiAllSuccess": true, "mergeSha": shaM, "headUnchanged": true,
		"mergedMainRunIds": []any{"run-3"}, "mergedMainAllSuccess": true,
		"unresolvedGates": []any{},
	}
}

func encode(t testing.TB, m map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(m map[string]any)
		want   []string
	}{
		{"baseline is valid", func(map[string]any) {}, []string{}},
		{"audited head differs", func(m map[string]any) { m["auditedSha"] = shaB }, []string{"audited-head-mismatch"}},
		{"readback reuses a CI run", func(m map[string]any) { m["mergedMainRunIds"] = []any{"run-2"} }, []string{"reused-ci-as-readback"}},
		{"integer and string IDs collide", func(m map[string]any) {
			m["requiredCiRunIds"] = []any{123, "run-2"}
			m["mergedMainRunIds"] = []any{"123"}
		}, []string{"reused-ci-as-readback"}},
		{"unresolved gate", func(m map[string]any) { m["unresolvedGates"] = []any{"g1"} }, []string{"unresolved-gates"}},
		{"null gates allowed", func(m map[string]any) { m["unresolvedGates"] = nil }, []string{}},
		{"uppercase candidate", func(m map[string]any) { m["candidateSha"] = strings.ToUpper(shaA) }, []string{"audited-head-mismatch", "invalid:candidateSha"}},
		{"short audited sha", func(m map[string]any) {
			m["auditedSha"] = shaA[:12]
			m["candidateSha"] = shaA[:12]
		}, []string{"invalid:auditedSha", "invalid:candidateSha"}},
		{"non-hex sha", func(m map[string]any) { m["mergeSha"] = strings.Repeat("g", 40) }, []string{"invalid:mergeSha"}},
		{"number sha", func(m map[string]any) { m["mergeSha"] = 12345 }, []string{"invalid:mergeSha"}},
		{"null sha", func(m map[string]any) { m["mergeSha"] = nil }, []string{"invalid:mergeSha"}},
		{"empty CI list", func(m map[string]any) { m["requiredCiRunIds"] = []any{} }, []string{"missing:requiredCiRunIds"}},
		{"string CI list", func(m map[string]any) { m["requiredCiRunIds"] = "run-1" }, []string{"missing:requiredCiRunIds"}},
		{"empty readback list", func(m map[string]any) { m["mergedMainRunIds"] = []any{} }, []string{"missing:mergedMainRunIds"}},
		{"repeat in CI list", func(m map[string]any) { m["requiredCiRunIds"] = []any{"run-1", "run-1"} }, []string{"duplicate:requiredCiRunIds"}},
		{"repeat in readback list", func(m map[string]any) { m["mergedMainRunIds"] = []any{7, "7"} }, []string{"duplicate:mergedMainRunIds"}},
		{"green as run id", func(m map[string]any) { m["requiredCiRunIds"] = []any{"green"} }, []string{"non-immutable-run-id"}},
		{"SUCCESS as run id", func(m map[string]any) { m["mergedMainRunIds"] = []any{"SUCCESS"} }, []string{"non-immutable-run-id"}},
		{"blank run id", func(m map[string]any) { m["mergedMainRunIds"] = []any{""} }, []string{"non-immutable-run-id"}},
		{"repeated green is also a duplicate", func(m map[string]any) { m["requiredCiRunIds"] = []any{"green", "green"} },
			[]string{"duplicate:requiredCiRunIds", "non-immutable-run-id"}},
		{"green in both lists is also a reuse", func(m map[string]any) {
			m["requiredCiRunIds"] = []any{"run-1", "green"}
			m["mergedMainRunIds"] = []any{"green"}
		}, []string{"non-immutable-run-id", "reused-ci-as-readback"}},
		{"repeated null is also a duplicate", func(m map[string]any) { m["mergedMainRunIds"] = []any{nil, nil} },
			[]string{"duplicate:mergedMainRunIds", "non-immutable-run-id"}},
		{"float and its Python text collide", func(m map[string]any) { m["mergedMainRunIds"] = []any{json.Number("1e2"), "100.0"} },
			[]string{"duplicate:mergedMainRunIds", "non-immutable-run-id"}},
		{"minus zero and zero collide", func(m map[string]any) { m["requiredCiRunIds"] = []any{json.Number("-0"), "0"} },
			[]string{"duplicate:requiredCiRunIds"}},
		{"number candidate unlike audited mismatches", func(m map[string]any) { m["candidateSha"] = json.Number("1234567") },
			[]string{"audited-head-mismatch", "invalid:candidateSha"}},
		{"equal number heads do not mismatch", func(m map[string]any) {
			m["candidateSha"], m["auditedSha"] = json.Number("1234567"), json.Number("1234567")
		}, []string{"invalid:auditedSha", "invalid:candidateSha"}},
		{"null and bool run ids", func(m map[string]any) { m["requiredCiRunIds"] = []any{nil, true, 1.5} }, []string{"non-immutable-run-id"}},
		{"string true success flag", func(m map[string]any) { m["requiredCiAllSuccess"] = "true" }, []string{"required-ci-not-green"}},
		{"readback red", func(m map[string]any) { m["mergedMainAllSuccess"] = false }, []string{"merged-main-not-green"}},
		{"head changed", func(m map[string]any) { m["headUnchanged"] = false }, []string{"head-not-proven-unchanged"}},
		{"head as 1", func(m map[string]any) { m["headUnchanged"] = 1 }, []string{"head-not-proven-unchanged"}},
		{"closure required without evidence", func(m map[string]any) { m["closureEvidenceRequired"] = true }, []string{"missing:closureEvidence"}},
		{"closure required truthy string", func(m map[string]any) {
			m["closureEvidenceRequired"] = "yes"
			m["closureEvidence"] = ""
		}, []string{"missing:closureEvidence"}},
		{"closure required with evidence", func(m map[string]any) {
			m["closureEvidenceRequired"] = true
			m["closureEvidence"] = []any{"release v1.2.3"}
		}, []string{}},
		{"verdict FAIL", func(m map[string]any) { m["auditVerdict"] = "FAIL" }, []string{"audit-not-pass"}},
		{"verdict lower pass", func(m map[string]any) { m["auditVerdict"] = "pass" }, []string{"audit-not-pass"}},
		{"schemaVersion 2", func(m map[string]any) { m["schemaVersion"] = 2 }, []string{"invalid:schemaVersion"}},
		{"schemaVersion true", func(m map[string]any) { m["schemaVersion"] = true }, []string{"invalid:schemaVersion"}},
		{"schemaVersion absent", func(m map[string]any) { delete(m, "schemaVersion") }, []string{}},
		{"bad repository", func(m map[string]any) { m["repository"] = "no-slash" }, []string{"invalid:repository"}},
		{"bad pull request", func(m map[string]any) { m["pullRequest"] = 0 }, []string{"invalid:pullRequest"}},
		{"good extras", func(m map[string]any) {
			m["repository"] = "o/r"
			m["pullRequest"] = 7
			m["auditReviewId"] = 99
			m["requiredCiRuns"] = []any{map[string]any{"id": "run-1", "workflow": "ci"}, map[string]any{"id": "run-2", "workflow": "lint"}}
			m["mergedMainRuns"] = []any{map[string]any{"id": "run-3", "workflow": "ci"}}
		}, []string{}},
		{"named runs disagree with ids", func(m map[string]any) {
			m["mergedMainRuns"] = []any{map[string]any{"id": "run-9", "workflow": "ci"}}
		}, []string{"invalid:mergedMainRuns"}},
	}
	for _, k := range requiredKeys {
		k := k
		want := []string{"missing:" + k}
		switch k {
		case "auditVerdict":
			want = []string{"audit-not-pass", "missing:auditVerdict"}
		case "candidateSha", "auditedSha":
			want = []string{"invalid:" + k, "missing:" + k}
		}
		tests = append(tests, struct {
			name   string
			change func(m map[string]any)
			want   []string
		}{"absent " + k, func(m map[string]any) { delete(m, k) }, want})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := baseline()
			tt.change(m)
			got := Validate(encode(t, m))
			if diff := cmp.Diff(tt.want, got.Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if got.Valid != (len(tt.want) == 0) {
				t.Errorf("valid = %v, want %v", got.Valid, len(tt.want) == 0)
			}
			for _, r := range got.Refusals {
				if r.Expected == "" || r.Seen == "" {
					t.Errorf("refusal %q lacks expected/seen: %+v", r.Token, r)
				}
			}
		})
	}
}

func TestValidateInvalidJSON(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `[{"project":"x"}]`, `"x"`, `null`, ``, `{"a":1} {"b":2}`, `{"a":NaN}`,
		"\xef\xbb\xbf{\"project\":\"x\"}", "{\"project\":\"\xff\"}", `{"a":1,}`,
	} {
		got := Validate([]byte(in))
		if diff := cmp.Diff([]string{TokenInvalidJSON}, got.Errors); diff != "" || got.Valid {
			t.Errorf("Validate(%q): valid=%v (-want +got):\n%s", in, got.Valid, diff)
		}
	}
}

func TestValidateDuplicateKeyLastWins(t *testing.T) {
	raw := encode(t, baseline())
	first := append([]byte(`{"auditVerdict":"FAIL",`), raw[1:]...)
	if got := Validate(first); !got.Valid {
		t.Errorf("last value PASS should count, got %v", got.Errors)
	}
	last := append(append([]byte{}, raw[:len(raw)-1]...), []byte(`,"auditVerdict":"FAIL"}`)...)
	if diff := cmp.Diff([]string{"audit-not-pass"}, Validate(last).Errors); diff != "" {
		t.Errorf("last value FAIL should count (-want +got):\n%s", diff)
	}
}

func TestErrorsSortedUnique(t *testing.T) {
	m := baseline()
	m["requiredCiRunIds"] = []any{"green", "passed", "x", "x", "x"}
	m["mergedMainRunIds"] = []any{"x", ""}
	got := Validate(encode(t, m)).Errors
	want := []string{"duplicate:requiredCiRunIds", "non-immutable-run-id", "reused-ci-as-readback"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if !sort.StringsAreSorted(got) {
		t.Errorf("not sorted: %v", got)
	}
}

func TestPreMerge(t *testing.T) {
	tests := []struct {
		name   string
		change func(m map[string]any)
		want   []string
	}{
		{"no merge evidence yet", func(m map[string]any) {
			delete(m, "mergeSha")
			delete(m, "mergedMainRunIds")
			delete(m, "mergedMainAllSuccess")
		}, []string{}},
		{"duplicate readback dropped", func(m map[string]any) { m["mergedMainRunIds"] = []any{"run-3", "run-3"} }, []string{}},
		{"bad merge sha dropped", func(m map[string]any) { m["mergeSha"] = "x" }, []string{}},
		{"reuse kept", func(m map[string]any) { m["mergedMainRunIds"] = []any{"run-1"} }, []string{"reused-ci-as-readback"}},
		{"non-immutable readback kept", func(m map[string]any) { m["mergedMainRunIds"] = []any{"green"} }, []string{"non-immutable-run-id"}},
		{"audit fail kept", func(m map[string]any) { m["auditVerdict"] = "FAIL" }, []string{"audit-not-pass"}},
		{"red CI kept", func(m map[string]any) { m["requiredCiAllSuccess"] = false }, []string{"required-ci-not-green"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := baseline()
			tt.change(m)
			got := refusal.Tokens(PreMerge(Validate(encode(t, m)).Refusals))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestNegativeControls removes each protecting rule in turn and shows the
// attack it stops is then accepted.
func TestNegativeControls(t *testing.T) {
	attacks := []struct {
		name   string
		rule   rule
		change func(m map[string]any)
	}{
		{"reused CI run as readback", ruleRunLists, func(m map[string]any) { m["mergedMainRunIds"] = []any{"run-1"} }},
		{"audited another head", ruleHeadMatch, func(m map[string]any) { m["auditedSha"] = shaB }},
		{"failing audit", ruleVerdict, func(m map[string]any) { m["auditVerdict"] = "FAIL" }},
		{"red readback", ruleSuccessFlags, func(m map[string]any) { m["mergedMainAllSuccess"] = "true" }},
		{"open gate", ruleGates, func(m map[string]any) { m["unresolvedGates"] = []any{"g1"} }},
		{"abbreviated sha", ruleShas, func(m map[string]any) { m["candidateSha"], m["auditedSha"] = shaA[:7], shaA[:7] }},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			m := baseline()
			a.change(m)
			raw := encode(t, m)
			if Validate(raw).Valid {
				t.Fatal("attack accepted with the rule in place")
			}
			if got := validate(raw, without(allRules(), a.rule)); !got.Valid {
				t.Errorf("with the rule removed the attack should pass, got %v", got.Errors)
			}
		})
	}
}

func without(rs []rule, drop rule) []rule {
	var out []rule
	for _, r := range rs {
		if funcName(r) != funcName(drop) {
			out = append(out, r)
		}
	}
	return out
}
