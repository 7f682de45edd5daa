package certificate

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// pick returns base with probability 1/2, else a random entry of pool.
func pick(r *rand.Rand, base pyValue, pool []pyValue) pyValue {
	if r.IntN(2) == 0 {
		return base
	}
	return pool[r.IntN(len(pool))]
}

// genList returns a run list: usually an array of one to four run values
// (often the baseline's), sometimes a falsy non-array. Non-empty strings
// and objects are not generated: craft iterates their characters or keys,
// a reading its rules do not describe.
func genList(r *rand.Rand, base []pyValue) pyList {
	if r.IntN(6) == 0 {
		v := falsyNonArrays[r.IntN(len(falsyNonArrays))]
		return pyList{value: v}
	}
	items := base
	if r.IntN(2) == 0 {
		items = nil
		for range 1 + r.IntN(4) {
			items = append(items, runValues[r.IntN(len(runValues))])
		}
	}
	raw := "["
	for i, it := range items {
		if i > 0 {
			raw += ","
		}
		raw += it.raw
	}
	return pyList{value: pyValue{raw + "]", "", true}, items: slices.Clone(items)}
}

// genCert returns a random certificate near craft's §7.1 baseline: every
// key is kept (or, when optional, left out) and changed independently.
func genCert(r *rand.Rand) craftCert {
	c := craftCert{values: map[string]pyValue{}, lists: map[string]pyList{}}
	set := func(k string, base pyValue, pool []pyValue, optional bool) {
		if r.IntN(8) == 0 || optional && r.IntN(2) == 0 {
			return
		}
		c.values[k] = pick(r, base, pool)
	}
	for _, k := range []string{"project", "workUnit", "auditorSessionId"} {
		set(k, textValues[0], textValues, false)
	}
	set("candidateSha", shaValues[0], shaValues, false)
	set("auditedSha", shaValues[0], shaValues, false)
	set("auditVerdict", verdictValues[0], verdictValues, false)
	set("mergeSha", mergeValues[0], mergeValues, false)
	set("unresolvedGates", gateValues[0], gateValues, false)
	for _, k := range []string{"requiredCiAllSuccess", "mergedMainAllSuccess", "headUnchanged"} {
		set(k, flagValues[0], flagValues, false)
	}
	set("closureEvidenceRequired", truthValues[0], truthValues, true)
	set("closureEvidence", truthValues[0], truthValues, true)
	set("schemaVersion", schemaValues[0], schemaValues, true)
	if r.IntN(8) != 0 {
		c.lists["requiredCiRunIds"] = genList(r, runValues[:2])
	}
	if r.IntN(8) != 0 {
		c.lists["mergedMainRunIds"] = genList(r, runValues[2:3])
	}
	return c
}

// floorViolations validates n generated certificates with validate and
// returns, for each whose tokens lack one craft's rules give, a line naming
// the certificate and the missing tokens.
func floorViolations(n int, validate func([]byte) []string) []string {
	r := rand.New(rand.NewPCG(11, 2026))
	var out []string
	for range n {
		c := genCert(r)
		raw := c.json()
		got := validate(raw)
		var lacking []string
		for _, tok := range craftRules(c) {
			if !slices.Contains(got, tok) && !slices.Contains(lacking, tok) {
				lacking = append(lacking, tok)
			}
		}
		if len(lacking) > 0 {
			out = append(out, string(raw)+" lacks "+fmt.Sprint(lacking))
		}
	}
	return out
}

// TestCraftTokensAreAFloor checks that on generated certificates aepgate's
// tokens include every token craft-protocol's rules give.
func TestCraftTokensAreAFloor(t *testing.T) {
	bad := floorViolations(5000, func(raw []byte) []string { return Validate(raw).Errors })
	for i, b := range bad {
		if i == 5 {
			t.Errorf("… and %d more", len(bad)-5)
			break
		}
		t.Error(b)
	}
}

// TestCraftFloorCatchesWeakerRules is the property test's negative
// control: with the head-match or run-list rule removed, the generated
// certificates find the tokens aepgate then fails to give.
func TestCraftFloorCatchesWeakerRules(t *testing.T) {
	for _, drop := range []rule{ruleHeadMatch, ruleRunLists, ruleShas} {
		weaker := without(allRules(), drop)
		bad := floorViolations(2000, func(raw []byte) []string { return validate(raw, weaker).Errors })
		if len(bad) == 0 {
			t.Errorf("without %s no certificate lacked a craft token", funcName(drop))
		}
	}
}
