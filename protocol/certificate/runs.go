package certificate

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/aepgate/aepgate/protocol/refusal"
)

var integerText = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

// runID returns the run ID an element of a run list stands for: a non-blank
// string or an integer, compared by its decimal text. ok is false for null,
// booleans, blank strings, other types and the words success, passed and
// green (any case): those are not immutable run IDs.
func runID(v any) (id string, ok bool) {
	switch x := v.(type) {
	case string:
		t := strings.TrimSpace(x)
		switch strings.ToLower(t) {
		case "", "success", "passed", "green":
			return "", false
		}
		return x, true
	case json.Number:
		if integerText.MatchString(x.String()) {
			return x.String(), true
		}
	}
	return "", false
}

// ruleRunLists checks requiredCiRunIds and mergedMainRunIds: non-empty
// arrays of immutable, distinct IDs, none shared between the two lists.
func ruleRunLists(m map[string]any) []refusal.Refusal {
	var out []refusal.Refusal
	ci, r := runList(m, "requiredCiRunIds")
	out = append(out, r...)
	main, r := runList(m, "mergedMainRunIds")
	out = append(out, r...)
	for id := range ci {
		if main[id] {
			out = append(out, refusal.Refusal{Token: "reused-ci-as-readback", Expected: "merged-main run IDs disjoint from PR CI run IDs", Seen: "run " + id + " in both lists"})
		}
	}
	return out
}

func runList(m map[string]any, key string) (map[string]bool, []refusal.Refusal) {
	ids := map[string]bool{}
	v, present := m[key]
	list, isList := v.([]any)
	if !isList || len(list) == 0 {
		if !present {
			return ids, nil // ruleRequired reports the absent key
		}
		return ids, []refusal.Refusal{{Token: "missing:" + key, Expected: "a non-empty array of run IDs", Seen: show(v)}}
	}
	var out []refusal.Refusal
	for _, e := range list {
		id, ok := runID(e)
		if !ok {
			out = append(out, refusal.Refusal{Token: "non-immutable-run-id", Expected: "an immutable run ID (integer or non-blank string) in " + key, Seen: show(e)})
			continue
		}
		if ids[id] {
			out = append(out, refusal.Refusal{Token: "duplicate:" + key, Expected: "distinct run IDs in " + key, Seen: id + " twice"})
		}
		ids[id] = true
	}
	return ids, out
}
