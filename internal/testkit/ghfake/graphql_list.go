package ghfake

import (
	"sort"
	"strings"
)

// issueList serves Repository.issues / pullRequests with states, labels,
// headRefName, baseRefName and orderBy.
func (r *repoRes) issueList(x *gqlExec, name string, args map[string]any) (any, error) {
	wantPR := name == "pullRequests"
	if err := x.need(map[bool]string{true: "pull_requests", false: "issues"}[wantPR]); err != nil {
		return nil, err
	}
	states := stringSet(args, "states")
	labels := stringSet(args, "labels")
	head, _ := args["headRefName"].(string)
	base, _ := args["baseRefName"].(string)
	var items []any
	for _, i := range r.s.issues {
		if (i.pr != nil) != wantPR || (states != nil && !states[gqlState(i)]) || !hasAll(i.labels, labels) {
			continue
		}
		if wantPR && (!matchQ(head, i.pr.headRef) || !matchQ(base, i.pr.baseRef)) {
			continue
		}
		items = append(items, issueOrPR(r.s, i))
	}
	order, _ := args["orderBy"].(map[string]any)
	sortIssues(items, order)
	return newConn(map[bool]string{true: "PullRequestConnection", false: "IssueConnection"}[wantPR], name, items, args)
}

// sortIssues orders issues as IssueOrder asks ({field: CREATED_AT |
// UPDATED_AT | COMMENTS, direction: ASC | DESC}), ties by number; without
// it they stay in creation order.
func sortIssues(items []any, order map[string]any) {
	if order == nil {
		return
	}
	key := func(v any) (int64, int) {
		i := v.(interface{ issue() *issue }).issue()
		switch order["field"] {
		case "UPDATED_AT":
			return i.updated.UnixNano(), i.number
		case "COMMENTS":
			return int64(len(i.comments)), i.number
		}
		return i.created.UnixNano(), i.number
	}
	desc := order["direction"] == "DESC"
	sort.SliceStable(items, func(a, b int) bool {
		ka, na := key(items[a])
		kb, nb := key(items[b])
		if ka != kb {
			return (ka < kb) != desc
		}
		return (na < nb) != desc
	})
}

// gqlState is the GraphQL state enum of an issue or pull request.
func gqlState(i *issue) string {
	if i.pr != nil && i.pr.merged {
		return "MERGED"
	}
	return strings.ToUpper(i.state)
}

func hasAll(have []string, want map[string]bool) bool {
	for w := range want {
		found := false
		for _, h := range have {
			found = found || strings.EqualFold(h, w)
		}
		if !found {
			return false
		}
	}
	return true
}
