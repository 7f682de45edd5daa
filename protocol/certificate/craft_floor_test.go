package certificate

import (
	"regexp"
	"slices"
	"sort"
	"strings"
)

// pyValue is one JSON value as craft-protocol's Python sees it: its JSON
// text, Python's str() of the parsed value and its truth value. The
// catalogues below are written by hand from Python's rules, independently
// of craftText.
type pyValue struct {
	raw    string
	str    string
	truthy bool
}

// pyList is a run-list value: absent, a falsy non-array, or an array.
type pyList struct {
	value pyValue
	items []pyValue // nil unless value is a non-empty array
}

var (
	shaValues = []pyValue{
		{`"` + shaA + `"`, shaA, true}, {`"` + shaB + `"`, shaB, true}, {`"` + shaA[:7] + `"`, shaA[:7], true},
		{`"` + strings.ToUpper(shaA) + `"`, strings.ToUpper(shaA), true}, {`"abc"`, "abc", true},
		{`"abcdef0\n"`, "abcdef0\n", true}, {`""`, "", false}, {`null`, "None", false},
		{`1234567`, "1234567", true}, {`0`, "0", false}, {`false`, "False", false}, {`[]`, "[]", false},
	}
	verdictValues = []pyValue{{`"PASS"`, "PASS", true}, {`"pass"`, "pass", true}, {`"FAIL"`, "FAIL", true},
		{`null`, "None", false}, {`true`, "True", true}, {`""`, "", false}}
	runValues = []pyValue{
		{`"run-1"`, "run-1", true}, {`"run-2"`, "run-2", true}, {`"run-3"`, "run-3", true},
		{`1`, "1", true}, {`"1"`, "1", true}, {`123`, "123", true}, {`"123"`, "123", true},
		{`-0`, "0", false}, {`0`, "0", false}, {`"0"`, "0", true}, {`1.0`, "1.0", true}, {`"1.0"`, "1.0", true},
		{`1e2`, "100.0", true}, {`"100.0"`, "100.0", true}, {`1E400`, "inf", true}, {`"inf"`, "inf", true},
		{`1e16`, "1e+16", true}, {`"1e+16"`, "1e+16", true}, {`0.00001`, "1e-05", true}, {`"1e-05"`, "1e-05", true},
		{`null`, "None", false}, {`"None"`, "None", true}, {`true`, "True", true}, {`"True"`, "True", true},
		{`false`, "False", false}, {`""`, "", false}, {`" "`, " ", true}, {`"green"`, "green", true},
		{`"GREEN"`, "GREEN", true}, {`"Success"`, "Success", true}, {`"passed"`, "passed", true},
		{`"Passed "`, "Passed ", true}, {`12345678901234567890123`, "12345678901234567890123", true},
	}
	falsyNonArrays = []pyValue{{`null`, "None", false}, {`[]`, "[]", false}, {`0`, "0", false},
		{`false`, "False", false}, {`""`, "", false}, {`{}`, "{}", false}}
	flagValues  = []pyValue{{`true`, "True", true}, {`false`, "False", false}, {`"true"`, "true", true}, {`1`, "1", true}, {`null`, "None", false}}
	gateValues  = []pyValue{{`[]`, "[]", false}, {`null`, "None", false}, {`["g1"]`, "['g1']", true}, {`""`, "", false}, {`0`, "0", false}, {`false`, "False", false}, {`{}`, "{}", false}}
	truthValues = []pyValue{{`true`, "True", true}, {`false`, "False", false}, {`"yes"`, "yes", true}, {`""`, "", false},
		{`0`, "0", false}, {`1`, "1", true}, {`0.0`, "0.0", false}, {`-0.0`, "-0.0", false}, {`1e-400`, "0.0", false},
		{`["x"]`, "['x']", true}, {`{}`, "{}", false}, {`null`, "None", false}}
	textValues   = []pyValue{{`"demo"`, "demo", true}, {`""`, "", false}, {`null`, "None", false}}
	mergeValues  = []pyValue{{`"` + shaM + `"`, shaM, true}, {`"x"`, "x", true}, {`null`, "None", false}}
	schemaValues = []pyValue{{`1`, "1", true}, {`2`, "2", true}, {`1.0`, "1.0", true}}
)

// craftCert is a generated certificate: the values of its present keys.
type craftCert struct {
	values map[string]pyValue
	lists  map[string]pyList
}

// json renders the certificate as one JSON object, keys sorted.
func (c craftCert) json() []byte {
	var parts []string
	for k, v := range c.values {
		parts = append(parts, `"`+k+`":`+v.raw)
	}
	for k, l := range c.lists {
		parts = append(parts, `"`+k+`":`+l.value.raw)
	}
	sort.Strings(parts)
	return []byte("{" + strings.Join(parts, ",") + "}")
}

// craftHex is craft's hex pattern as Python's re.match applies it: "$" also
// matches before a final newline.
var craftHex = regexp.MustCompile(`^[0-9a-f]{7,64}\n?$`)

// craftRules re-states craft-protocol's §1.2 validate rules (see
// docs/certificates.md) on a generated certificate, with Python's
// semantics: value.get(k) or "" for the SHAs, str() of every run-list item,
// "is True" for the flags and truth values for closure evidence.
func craftRules(c craftCert) []string {
	if len(c.values)+len(c.lists) == 0 {
		return []string{TokenInvalidJSON}
	}
	var errs []string
	for _, k := range requiredKeys {
		_, v := c.values[k]
		_, l := c.lists[k]
		if !v && !l {
			errs = append(errs, "missing:"+k)
		}
	}
	text := func(k string) string {
		if v, ok := c.values[k]; ok && v.truthy {
			return v.str
		}
		return ""
	}
	cand, aud := text("candidateSha"), text("auditedSha")
	if !craftHex.MatchString(cand) {
		errs = append(errs, "invalid:candidateSha")
	}
	if !craftHex.MatchString(aud) {
		errs = append(errs, "invalid:auditedSha")
	}
	if cand != "" && aud != "" && cand != aud {
		errs = append(errs, "audited-head-mismatch")
	}
	if c.values["auditVerdict"].raw != `"PASS"` {
		errs = append(errs, "audit-not-pass")
	}
	errs = append(errs, craftRunRules(c.lists["requiredCiRunIds"], c.lists["mergedMainRunIds"])...)
	for _, f := range [][2]string{{"requiredCiAllSuccess", "required-ci-not-green"},
		{"mergedMainAllSuccess", "merged-main-not-green"}, {"headUnchanged", "head-not-proven-unchanged"}} {
		if c.values[f[0]].raw != "true" {
			errs = append(errs, f[1])
		}
	}
	if g, ok := c.values["unresolvedGates"]; ok && g.raw != "[]" && g.raw != "null" {
		errs = append(errs, "unresolved-gates")
	}
	if c.values["closureEvidenceRequired"].truthy && !c.values["closureEvidence"].truthy {
		errs = append(errs, "missing:closureEvidence")
	}
	return errs
}

// craftRunRules is §1.2 for the two run lists, compared as str() texts.
func craftRunRules(ci, post pyList) []string {
	var errs []string
	texts := func(l pyList) []string {
		var out []string
		for _, it := range l.items {
			out = append(out, it.str)
		}
		return out
	}
	c, p := texts(ci), texts(post)
	for _, l := range []struct {
		key   string
		items []string
	}{{"requiredCiRunIds", c}, {"mergedMainRunIds", p}} {
		if len(l.items) == 0 {
			errs = append(errs, "missing:"+l.key)
		}
		if len(l.items) != len(unique(l.items)) {
			errs = append(errs, "duplicate:"+l.key)
		}
	}
	for _, x := range c {
		if slices.Contains(p, x) {
			errs = append(errs, "reused-ci-as-readback")
		}
	}
	for _, x := range append(c, p...) {
		if x == "" || slices.Contains([]string{"success", "passed", "green"}, strings.ToLower(x)) {
			errs = append(errs, "non-immutable-run-id")
		}
	}
	return errs
}

func unique(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}
