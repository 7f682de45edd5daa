package ghfake

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// mapRes is a plain object whose fields are map entries.
type mapRes struct {
	typ string
	m   map[string]any
}

func (r mapRes) typeName() string { return r.typ }
func (r mapRes) field(_ *gqlExec, name string, _ map[string]any) (any, error) {
	if v, ok := r.m[name]; ok {
		return v, nil
	}
	return nil, unknownField(r.typ, name)
}

// connRes is a paginated connection (nodes, edges, totalCount, pageInfo).
type connRes struct {
	typ        string
	items      []any
	start, end int // the window served
}

// newConn pages items by first/last/after/before as GitHub does: one of
// first or last is required, each 1..100.
func newConn(typ, field string, items []any, args map[string]any) (resolver, error) {
	first, hasFirst := intArg(args, "first")
	last, hasLast := intArg(args, "last")
	switch {
	case !hasFirst && !hasLast:
		return nil, fmt.Errorf("You must provide a `first` or `last` value to properly paginate the `%s` connection.", field)
	case hasFirst && (first < 0 || first > 100):
		return nil, fmt.Errorf("Requesting %d records on the `%s` connection exceeds the `first` limit of 100 records.", first, field)
	case hasLast && (last < 0 || last > 100):
		return nil, fmt.Errorf("Requesting %d records on the `%s` connection exceeds the `last` limit of 100 records.", last, field)
	}
	start, end := 0, len(items)
	if a, ok := args["after"].(string); ok && a != "" {
		start = min(end, decodeCursor(a)+1)
	}
	if b, ok := args["before"].(string); ok && b != "" {
		end = max(start, min(end, decodeCursor(b)))
	}
	if hasFirst {
		end = min(end, start+first)
	}
	if hasLast {
		start = max(start, end-last)
	}
	return &connRes{typ: typ, items: items, start: start, end: end}, nil
}

func intArg(args map[string]any, k string) (int, bool) {
	v, ok := args[k]
	if !ok || v == nil {
		return 0, false
	}
	return toInt(v)
}

func cursor(i int) string {
	return base64.StdEncoding.EncodeToString([]byte("cursor:" + strconv.Itoa(i)))
}

func decodeCursor(c string) int {
	b, err := base64.StdEncoding.DecodeString(c)
	if err != nil {
		return -1
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(b), "cursor:"))
	if err != nil {
		return -1
	}
	return n
}

func (r *connRes) typeName() string { return r.typ }

func (r *connRes) field(_ *gqlExec, name string, _ map[string]any) (any, error) {
	switch name {
	case "nodes":
		return append([]any{}, r.items[r.start:r.end]...), nil
	case "edges":
		var out []any
		for i := r.start; i < r.end; i++ {
			out = append(out, mapRes{strings.TrimSuffix(r.typ, "Connection") + "Edge", map[string]any{"node": r.items[i], "cursor": cursor(i)}})
		}
		return append([]any{}, out...), nil
	case "totalCount":
		return len(r.items), nil
	case "pageInfo":
		var sc, ec any
		if r.end > r.start {
			sc, ec = cursor(r.start), cursor(r.end-1)
		}
		return mapRes{"PageInfo", map[string]any{"hasNextPage": r.end < len(r.items), "hasPreviousPage": r.start > 0,
			"startCursor": sc, "endCursor": ec}}, nil
	}
	return nil, unknownField(r.typ, name)
}

// queryRes is the Query root.
type queryRes struct{}

func (queryRes) typeName() string { return "Query" }

func (queryRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	switch name {
	case "repository":
		owner, _ := args["owner"].(string)
		repo, _ := args["name"].(string)
		s := x.c.f.repo(owner + "/" + repo)
		if s == nil || !x.c.canSee(s) {
			return nil, notFoundErr("Could not resolve to a Repository with the name '%s/%s'.", owner, repo)
		}
		return &repoRes{s: s}, nil
	case "rateLimit":
		return x.rateLimit(), nil
	case "node":
		id, _ := args["id"].(string)
		return x.node(id)
	case "nodes":
		ids, _ := args["ids"].([]any)
		out := []any{}
		for _, id := range ids {
			s, _ := id.(string)
			n, _ := x.node(s)
			out = append(out, n)
		}
		return out, nil
	}
	return nil, unknownField("Query", name)
}

// node resolves a global node ID the fake issued.
func (x *gqlExec) node(id string) (any, error) {
	for _, s := range x.c.f.sortedRepos() {
		if !x.c.canSee(s) {
			continue
		}
		if id == nodeID("Repository", s.id) {
			return &repoRes{s: s}, nil
		}
		for _, i := range s.issues {
			if id == nodeID("Issue", i.id) || id == nodeID("PullRequest", i.id) {
				return issueOrPR(s, i), nil
			}
		}
	}
	return nil, notFoundErr("Could not resolve to a node with the global id of '%s'", id)
}

func (x *gqlExec) rateLimit() resolver {
	t := x.c.tok
	if t == nil {
		return mapRes{"RateLimit", map[string]any{"limit": 0, "cost": x.cost, "remaining": 0, "used": 0, "resetAt": nil, "nodeCount": 0}}
	}
	b, limit := x.c.f.graphBucket(t)
	return mapRes{"RateLimit", map[string]any{"limit": limit, "cost": x.cost, "remaining": max(0, limit-b.used),
		"used": b.used, "resetAt": ts(b.reset), "nodeCount": 0}}
}

// actorRes is a User, Bot or Organization as an Actor.
type actorRes struct {
	f *Fake
	u *user
}

func (r actorRes) typeName() string { return r.u.typ }

func (r actorRes) field(_ *gqlExec, name string, _ map[string]any) (any, error) {
	switch name {
	case "login":
		return r.login(), nil
	case "databaseId":
		return r.u.id, nil
	case "id":
		return nodeID(r.u.typ, r.u.id), nil
	case "url":
		return "https://github.com" + r.path(), nil
	case "avatarUrl":
		return "https://avatars.githubusercontent.com/u/" + itoa(r.u.id) + "?v=4", nil
	case "resourcePath":
		return r.path(), nil
	case "name":
		return r.u.login, nil
	}
	return nil, unknownField(r.u.typ, name)
}

// login is the account's GraphQL login: a Bot's has no "[bot]" suffix
// (REST's "github-actions[bot]" is "github-actions" here), as on GitHub.
func (r actorRes) login() string {
	if r.u.typ == "Bot" {
		return strings.TrimSuffix(r.u.login, "[bot]")
	}
	return r.u.login
}

// path is the account's page: /apps/<slug> for a Bot, /<login> otherwise.
func (r actorRes) path() string {
	if r.u.typ == "Bot" {
		return "/apps/" + r.login()
	}
	return "/" + r.u.login
}

func actor(f *Fake, u *user) any {
	if u == nil {
		return nil
	}
	return actorRes{f: f, u: u}
}

func upper(s string) any {
	if s == "" {
		return nil
	}
	return strings.ToUpper(s)
}

// stringSet reads an enum list argument (e.g. states: [OPEN, CLOSED]).
func stringSet(args map[string]any, k string) map[string]bool {
	list, ok := args[k].([]any)
	if !ok {
		return nil
	}
	out := map[string]bool{}
	for _, v := range list {
		if s, ok := v.(string); ok {
			out[s] = true
		}
	}
	return out
}
