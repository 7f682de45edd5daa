package app

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

var (
	gqlPR    = regexp.MustCompile(`pullRequest\(number: (\d+)\)`)
	gqlUnit  = regexp.MustCompile(`u(\d+): issueOrPullRequest\(number: (\d+)\)`)
	gqlOpen  = regexp.MustCompile(`pullRequests\(states: OPEN`)
	gqlMile  = regexp.MustCompile(`m(\d+): milestone\(number: (\d+)\)`)
	gqlIssue = regexp.MustCompile(`i(\d+): issue\(number: (\d+)\)`)
)

// graphql answers the App's queries from the fake's state.
func (f *fakeGitHub) graphql(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Query     string
		Variables map[string]any
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeJSON(w, 400, map[string]any{"message": "bad json"})
		return
	}
	repo := map[string]any{"nameWithOwner": f.owner + "/" + f.repo}
	if gqlOpen.MatchString(req.Query) {
		var nodes []any
		for _, n := range sortedKeys(f.prs) {
			if p := f.prs[n]; p.Open {
				nodes = append(nodes, map[string]any{"number": n, "body": p.Body, "state": "OPEN", "headRefOid": p.Head})
			}
		}
		repo["pullRequests"] = map[string]any{"nodes": nodes, "pageInfo": map[string]any{"hasNextPage": false, "endCursor": ""}}
		writeJSON(w, 200, map[string]any{"data": map[string]any{"repository": repo}})
		return
	}
	if gqlMile.MatchString(req.Query) || gqlIssue.MatchString(req.Query) {
		f.affected(w, req.Query, repo)
		return
	}
	target := map[string]any{"oid": strings.Repeat("c", 40), "file": nil}
	if f.config != nil {
		target["file"] = map[string]any{"object": map[string]any{"text": *f.config, "isTruncated": false}}
	}
	repo["defaultBranchRef"] = map[string]any{"name": "main", "target": target}
	if m := gqlPR.FindStringSubmatch(req.Query); m != nil {
		n, _ := strconv.Atoi(m[1])
		repo["pullRequest"] = f.prJSON(n)
	}
	blockers := strings.Contains(req.Query, "blockedBy")
	for _, m := range gqlUnit.FindAllStringSubmatch(req.Query, -1) {
		n, _ := strconv.Atoi(m[2])
		repo["u"+m[1]] = f.issueJSON(n, blockers)
	}
	writeJSON(w, 200, map[string]any{"data": map[string]any{"repository": repo}})
}

func (f *fakeGitHub) prJSON(n int) any {
	p, ok := f.prs[n]
	if !ok {
		return nil
	}
	state := "CLOSED"
	if p.Open {
		state = "OPEN"
	}
	var runs []any
	for _, r := range f.runs {
		if r.Head == p.Head {
			runs = append(runs, map[string]any{"databaseId": r.ID, "name": r.Name, "status": strings.ToUpper(r.Status), "conclusion": strings.ToUpper(r.Conclusion),
				"title": r.Title, "summary": r.Summary, "text": r.Text, "externalId": r.ExternalID})
		}
	}
	commit := map[string]any{"oid": p.Head, "checkSuites": map[string]any{"nodes": []any{map[string]any{"checkRuns": map[string]any{"nodes": runs}}}}}
	return map[string]any{"number": n, "body": p.Body, "state": state, "headRefOid": p.Head,
		"commits": map[string]any{"nodes": []any{map[string]any{"commit": commit}}}}
}

func (f *fakeGitHub) issueJSON(n int, blockers bool) any {
	if _, ok := f.prs[n]; ok {
		return map[string]any{"__typename": "PullRequest"}
	}
	is, ok := f.issues[n]
	if !ok {
		return nil
	}
	out := f.storyJSON(n, blockers)
	out["__typename"], out["title"] = "Issue", is.Title
	if m, ok := f.milestones[is.Milestone]; ok {
		var nodes []any
		for _, k := range sortedKeys(f.issues) {
			if f.issues[k].Milestone == is.Milestone {
				nodes = append(nodes, f.storyJSON(k, blockers))
			}
		}
		out["milestone"] = map[string]any{"number": is.Milestone, "title": m.Title, "state": openState(m.Open), "description": m.Description,
			"issues": map[string]any{"totalCount": len(nodes), "nodes": nodes}}
	}
	return out
}

func (f *fakeGitHub) storyJSON(n int, blockers bool) map[string]any {
	is := f.issues[n]
	out := map[string]any{"number": n, "body": is.Body, "state": openState(is.Open)}
	if blockers {
		var bs []any
		for _, b := range is.BlockedBy {
			if d, ok := f.issues[b]; ok {
				bs = append(bs, map[string]any{"number": b, "state": openState(d.Open), "repository": map[string]any{"nameWithOwner": f.owner + "/" + f.repo}})
			}
		}
		out["blockedBy"] = map[string]any{"nodes": bs}
	}
	return out
}

func openState(open bool) string {
	if open {
		return "OPEN"
	}
	return "CLOSED"
}

func sortedKeys[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// affected answers the affected-units query.
func (f *fakeGitHub) affected(w http.ResponseWriter, q string, repo map[string]any) {
	numbers := func(keep func(n int, is *fakeIssue) bool) map[string]any {
		var nodes []any
		for _, n := range sortedKeys(f.issues) {
			if keep(n, f.issues[n]) {
				nodes = append(nodes, map[string]any{"number": n})
			}
		}
		return map[string]any{"nodes": nodes}
	}
	for _, m := range gqlMile.FindAllStringSubmatch(q, -1) {
		ms, _ := strconv.Atoi(m[2])
		repo["m"+m[1]] = map[string]any{"issues": numbers(func(_ int, is *fakeIssue) bool { return is.Milestone == ms })}
	}
	for _, m := range gqlIssue.FindAllStringSubmatch(q, -1) {
		n, _ := strconv.Atoi(m[2])
		is, ok := f.issues[n]
		if !ok {
			repo["i"+m[1]] = nil
			continue
		}
		node := map[string]any{"blocking": numbers(func(_ int, o *fakeIssue) bool { return slices.Contains(o.BlockedBy, n) })}
		if is.Milestone > 0 {
			node["milestone"] = map[string]any{"issues": numbers(func(_ int, o *fakeIssue) bool { return o.Milestone == is.Milestone })}
		}
		repo["i"+m[1]] = node
	}
	writeJSON(w, 200, map[string]any{"data": map[string]any{"repository": repo}})
}
