package certificate

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// TokenInvalidJSON is the only refusal for input that is not one non-empty
// strict JSON object.
const TokenInvalidJSON = "invalid-json"

// requiredKeys must be present (any value) in every certificate (§1.2).
var requiredKeys = []string{
	"project", "workUnit", "candidateSha", "auditedSha", "auditorSessionId",
	"auditVerdict", "requiredCiRunIds", "mergeSha", "mergedMainRunIds", "unresolvedGates",
}

var sha40 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{40}$`) })

// Result is the outcome of Validate: Errors holds the refusal tokens, sorted
// and unique; Refusals explains each; Certificate is the parsed object (nil
// when the input was not a JSON object).
type Result struct {
	Valid       bool              `json:"valid"`
	Errors      []string          `json:"errors"`
	Refusals    []refusal.Refusal `json:"-"`
	Certificate map[string]any    `json:"certificate,omitempty"`
}

// rule adds the refusals one aspect of the certificate earns.
type rule func(m map[string]any) []refusal.Refusal

// allRules returns every check Validate runs. The
// negative-control test validates with one removed to show that the attack
// it stops then passes.
func allRules() []rule {
	return []rule{
		ruleRequired, ruleSchemaVersion, ruleShas, ruleHeadMatch, ruleVerdict,
		ruleRunLists, ruleSuccessFlags, ruleGates, ruleClosure, ruleExtras, ruleIndependence,
	}
}

// Validate parses raw as strict JSON and checks it as a completion
// certificate. Input that is not exactly one non-empty JSON object is
// refused with the single token "invalid-json".
func Validate(raw []byte) Result { return validate(raw, allRules()) }

// validate is Validate checking only the given rules.
func validate(raw []byte, rules []rule) Result {
	m, err := canonical.ParseObject(raw, canonical.Options{})
	if err != nil || len(m) == 0 {
		seen := "an empty object"
		if err != nil {
			seen = err.Error()
		}
		r := refusal.Refusal{Token: TokenInvalidJSON, Expected: "one non-empty strict JSON object", Seen: seen}
		return Result{Errors: []string{TokenInvalidJSON}, Refusals: []refusal.Refusal{r}}
	}
	rs := applyRules(m, rules)
	return Result{Valid: len(rs) == 0, Errors: refusal.Tokens(rs), Refusals: rs, Certificate: m}
}

// applyRules returns the refusals every rule in rules gives m.
func applyRules(m map[string]any, rules []rule) []refusal.Refusal {
	var out []refusal.Refusal
	for _, r := range rules {
		out = append(out, r(m)...)
	}
	return out
}

// PreMerge keeps the refusals that still apply before a merge (§1.3): it
// drops every token naming mergeSha, mergedMainRunIds or
// mergedMainAllSuccess (case-insensitive) and merged-main-not-green. It
// keeps reused-ci-as-readback and non-immutable-run-id.
func PreMerge(rs []refusal.Refusal) []refusal.Refusal {
	var out []refusal.Refusal
	for _, r := range rs {
		low := strings.ToLower(r.Token)
		if strings.Contains(low, "mergesha") || strings.Contains(low, "mergedmainrunids") ||
			strings.Contains(low, "mergedmainallsuccess") || r.Token == "merged-main-not-green" {
			continue
		}
		out = append(out, r)
	}
	return out
}

func ruleRequired(m map[string]any) []refusal.Refusal {
	var out []refusal.Refusal
	for _, k := range requiredKeys {
		if _, ok := m[k]; !ok {
			out = append(out, refusal.Refusal{Token: "missing:" + k, Expected: "key " + k, Seen: "no such key"})
		}
	}
	return out
}

func ruleSchemaVersion(m map[string]any) []refusal.Refusal {
	v, ok := m["schemaVersion"]
	if !ok {
		return nil
	}
	if n, isNum := v.(json.Number); isNum && n.String() == "1" {
		return nil
	}
	return []refusal.Refusal{{Token: "invalid:schemaVersion", Expected: "the integer 1", Seen: show(v)}}
}

func ruleShas(m map[string]any) []refusal.Refusal {
	var out []refusal.Refusal
	for _, k := range []string{"candidateSha", "auditedSha", "mergeSha"} {
		v, ok := m[k]
		if !ok {
			if k != "mergeSha" { // craft's hex pattern fails on an absent value too
				out = append(out, refusal.Refusal{Token: "invalid:" + k, Expected: "40 lowercase hex characters", Seen: "no such key"})
			}
			continue
		}
		if s, isStr := v.(string); isStr && sha40().MatchString(s) {
			continue
		}
		out = append(out, refusal.Refusal{Token: "invalid:" + k, Expected: "40 lowercase hex characters", Seen: show(v)})
	}
	return out
}

// ruleHeadMatch refuses a certificate whose audited head is not its
// candidate. As in craft-protocol, it applies when both values are truthy
// and compares craft's text of each; an array or object never matches.
func ruleHeadMatch(m map[string]any) []refusal.Refusal {
	c, a := m["candidateSha"], m["auditedSha"]
	if !truthy(c) || !truthy(a) {
		return nil
	}
	ct, cExact := craftText(c)
	at, aExact := craftText(a)
	if cExact && aExact && ct == at {
		return nil
	}
	if !cExact {
		ct = show(c)
	}
	if !aExact {
		at = show(a)
	}
	return []refusal.Refusal{{Token: "audited-head-mismatch", Expected: "auditedSha equal to candidateSha " + ct, Seen: at}}
}

func ruleVerdict(m map[string]any) []refusal.Refusal {
	if v, ok := m["auditVerdict"].(string); ok && v == "PASS" {
		return nil
	}
	return []refusal.Refusal{{Token: "audit-not-pass", Expected: `auditVerdict exactly "PASS"`, Seen: show(m["auditVerdict"])}}
}

func ruleSuccessFlags(m map[string]any) []refusal.Refusal {
	flags := []struct{ key, token string }{
		{"requiredCiAllSuccess", "required-ci-not-green"},
		{"mergedMainAllSuccess", "merged-main-not-green"},
		{"headUnchanged", "head-not-proven-unchanged"},
	}
	var out []refusal.Refusal
	for _, f := range flags {
		if b, ok := m[f.key].(bool); ok && b {
			continue
		}
		out = append(out, refusal.Refusal{Token: f.token, Expected: f.key + " the JSON literal true", Seen: show(m[f.key])})
	}
	return out
}

func ruleGates(m map[string]any) []refusal.Refusal {
	v, ok := m["unresolvedGates"]
	if !ok || v == nil {
		return nil
	}
	if l, isList := v.([]any); isList && len(l) == 0 {
		return nil
	}
	return []refusal.Refusal{{Token: "unresolved-gates", Expected: "unresolvedGates [] or null", Seen: show(v)}}
}

func ruleClosure(m map[string]any) []refusal.Refusal {
	if !truthy(m["closureEvidenceRequired"]) || truthy(m["closureEvidence"]) {
		return nil
	}
	return []refusal.Refusal{{Token: "missing:closureEvidence", Expected: "closureEvidence, because closureEvidenceRequired is set", Seen: show(m["closureEvidence"])}}
}

// truthy is Python's truth test on a parsed JSON value, which craft uses
// for closureEvidenceRequired and closureEvidence.
func truthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case string:
		return x != ""
	case json.Number:
		f, err := x.Float64()
		return err != nil || f != 0
	case []any:
		return len(x) > 0
	case map[string]any:
		return len(x) > 0
	}
	return true
}

// show renders a parsed JSON value compactly for a refusal's Seen.
func show(v any) string {
	if v == nil {
		return "null"
	}
	b, err := canonical.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	const limit = 120
	if len(b) > limit {
		return string(b[:limit]) + "…"
	}
	return string(b)
}
