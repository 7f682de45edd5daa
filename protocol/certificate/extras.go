package certificate

import (
	"encoding/json"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/protocol/refusal"
)

var (
	repoName    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`) })
	positiveInt = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[1-9][0-9]{0,18}$`) })
)

// ruleExtras checks aepgate's additions when they are present: repository
// is owner/name, pullRequest and auditReviewId are positive integers, and
// each named-run list is well formed and names exactly the run IDs of its
// craft list. Certificates written by craft-protocol lack them and pass.
func ruleExtras(m map[string]any) []refusal.Refusal {
	var out []refusal.Refusal
	if v, ok := m["repository"]; ok {
		if s, isStr := v.(string); !isStr || !repoName().MatchString(s) {
			out = append(out, refusal.Refusal{Token: "invalid:repository", Expected: "owner/name", Seen: show(v)})
		}
	}
	for _, k := range []string{"pullRequest", "auditReviewId"} {
		if v, ok := m[k]; ok {
			if n, isNum := v.(json.Number); !isNum || !positiveInt().MatchString(n.String()) {
				out = append(out, refusal.Refusal{Token: "invalid:" + k, Expected: "a positive integer", Seen: show(v)})
			}
		}
	}
	out = append(out, namedRuns(m, "requiredCiRuns", "requiredCiRunIds")...)
	out = append(out, namedRuns(m, "mergedMainRuns", "mergedMainRunIds")...)
	out = append(out, ruleMergeAuthority(m)...)
	return out
}

func namedRuns(m map[string]any, key, idsKey string) []refusal.Refusal {
	v, ok := m[key]
	if !ok {
		return nil
	}
	bad := []refusal.Refusal{{Token: "invalid:" + key, Expected: "an array of {id, workflow} naming exactly the run IDs of " + idsKey, Seen: show(v)}}
	list, isList := v.([]any)
	if !isList {
		return bad
	}
	var named []string
	for _, e := range list {
		obj, isObj := e.(map[string]any)
		if !isObj || len(obj) != 2 {
			return bad
		}
		id, idOK := runID(obj["id"])
		wf, wfOK := obj["workflow"].(string)
		if !idOK || !wfOK || strings.TrimSpace(wf) == "" {
			return bad
		}
		named = append(named, id)
	}
	var listed []string
	if ids, isList := m[idsKey].([]any); isList {
		for _, e := range ids {
			if id, ok := runID(e); ok {
				listed = append(listed, id)
			}
		}
	}
	sort.Strings(named)
	sort.Strings(listed)
	if strings.Join(named, "\x00") != strings.Join(listed, "\x00") {
		return bad
	}
	return nil
}
