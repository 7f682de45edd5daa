package ghfake

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// timelineItems serves Issue.timelineItems and PullRequest.timelineItems
// for the itemTypes of timelineTypes (graphql_timeline.go): the
// cross-references, then the other items oldest first (skip, first, last,
// after, before). Other item types, no itemTypes at all, and since are
// not implemented and answer unknownField's error. Events whose source the
// caller cannot see are left out, as on GitHub.
func (r *issueRes) timelineItems(x *gqlExec, args map[string]any) (any, error) {
	typ := map[bool]string{true: "PullRequest", false: "Issue"}[r.i.pr != nil]
	types := stringSet(args, "itemTypes")
	if !servedTimeline(types) || args["since"] != nil {
		return nil, unknownTimeline(typ, args)
	}
	var items []any
	for _, ev := range r.i.xrefs {
		if types["CROSS_REFERENCED_EVENT"] && x.c.canSee(ev.src) {
			items = append(items, &xrefRes{s: r.s, target: r.i, x: ev})
		}
	}
	for _, t := range r.recordedItems(x, types) {
		items = append(items, t.item)
	}
	if skip, ok := intArg(args, "skip"); ok {
		items = items[min(max(skip, 0), len(items)):]
	}
	return newConn(typ+"TimelineItemsConnection", "timelineItems", items, args)
}

// unknownTimeline is unknownField's error for the timeline arguments the
// fake does not serve, naming them.
func unknownTimeline(typ string, args map[string]any) error {
	asked := slices.Sorted(maps.Keys(stringSet(args, "itemTypes")))
	what := "timelineItems"
	switch {
	case args["since"] != nil:
		what += "(since:)"
	case len(asked) == 0:
		what += " without itemTypes"
	default:
		what += "(itemTypes: [" + strings.Join(asked, ", ") + "])"
	}
	return unknownField(typ, what)
}

// xrefRes is a CrossReferencedEvent on target (of s).
type xrefRes struct {
	s      *repoState
	target *issue
	x      *xref
}

func (r *xrefRes) typeName() string { return "CrossReferencedEvent" }

func (r *xrefRes) field(x *gqlExec, name string, _ map[string]any) (any, error) {
	ev, src := r.x, r.x.source()
	switch name {
	case "id":
		return shaNode("CrossReferencedEvent", strconv.FormatInt(r.target.id, 10)+":"+strconv.FormatInt(src.id, 10)), nil
	case "actor":
		return actor(x.c.f, ev.actor), nil
	case "createdAt", "referencedAt":
		return ts(ev.at), nil
	case "isCrossRepository":
		return ev.src != r.s, nil
	case "willCloseTarget":
		return ev.willClose(r.s, r.target), nil
	case "source":
		return issueOrPR(ev.src, src), nil
	case "target":
		return issueOrPR(r.s, r.target), nil
	case "url":
		return "https://github.com" + r.path(src), nil
	case "resourcePath":
		return r.path(src), nil
	}
	return nil, unknownField("CrossReferencedEvent", name)
}

// path is the event's anchor in the target's page.
func (r *xrefRes) path(src *issue) string {
	kind := map[bool]string{true: "pull", false: "issues"}[r.target.pr != nil]
	anchor := map[bool]string{true: "pullrequest", false: "issue"}[src.pr != nil]
	return fmt.Sprintf("/%s/%s/%d#ref-%s-%d", r.s.fullName, kind, r.target.number, anchor, src.id)
}
