package certificate

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/refusal"
)

var integerText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`) })

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
		if integerText().MatchString(x.String()) {
			return x.String(), true
		}
	}
	return "", false
}

// ruleRunLists checks requiredCiRunIds and mergedMainRunIds: non-empty
// arrays of immutable, distinct IDs, none shared between the two lists.
// Entries are compared as craft-protocol compares them (craftKey), whether
// or not they are immutable, so a repeated or shared "green" is also a
// duplicate or a reuse: craft's tokens are a floor.
func ruleRunLists(m map[string]any) []refusal.Refusal {
	var out []refusal.Refusal
	ci, r := runList(m, "requiredCiRunIds")
	out = append(out, r...)
	main, r := runList(m, "mergedMainRunIds")
	out = append(out, r...)
	for _, key := range ci.order {
		if main.seen[key] {
			out = append(out, refusal.Refusal{Token: "reused-ci-as-readback", Expected: "merged-main run IDs disjoint from PR CI run IDs", Seen: "run " + showKey(key) + " in both lists"})
		}
	}
	return out
}

// runKeys is the distinct craftKeys of a run list, in list order.
type runKeys struct {
	order []string
	seen  map[string]bool
}

// runList returns the distinct craftKeys of the run list under key and the
// refusals the list earns on its own.
func runList(m map[string]any, key string) (runKeys, []refusal.Refusal) {
	keys := runKeys{seen: map[string]bool{}}
	v, present := m[key]
	list, isList := v.([]any)
	if !isList || len(list) == 0 {
		if !present {
			return keys, nil // ruleRequired reports the absent key
		}
		return keys, []refusal.Refusal{{Token: "missing:" + key, Expected: "a non-empty array of run IDs", Seen: show(v)}}
	}
	var out []refusal.Refusal
	for _, e := range list {
		if _, ok := runID(e); !ok {
			out = append(out, refusal.Refusal{Token: "non-immutable-run-id", Expected: "an immutable run ID (integer or non-blank string) in " + key, Seen: show(e)})
		}
		k := craftKey(e)
		if keys.seen[k] {
			out = append(out, refusal.Refusal{Token: "duplicate:" + key, Expected: "distinct run IDs in " + key, Seen: showKey(k) + " twice"})
			continue
		}
		keys.seen[k] = true
		keys.order = append(keys.order, k)
	}
	return keys, out
}

// showKey renders a craftKey for a refusal's Seen.
func showKey(k string) string {
	if k == craftKey([]any{}) {
		return "an array or object"
	}
	return k
}
