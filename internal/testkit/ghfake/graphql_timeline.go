package ghfake

import (
	"slices"
	"strings"
	"time"
)

// labelEvent is one labeled event of an issue: actor added the label name.
type labelEvent struct {
	id    int64
	name  string
	actor *user
	at    time.Time
}

// forcePush is one push to an open pull request's head branch that did
// not descend from the head before it (a force push), by actor.
type forcePush struct {
	id            int64
	before, after string
	actor         *user
	at            time.Time
}

// timelineTypes are the timelineItems item types the fake serves
// (graphql_xref.go serves CROSS_REFERENCED_EVENT).
var timelineTypes = map[string]bool{
	"CROSS_REFERENCED_EVENT": true, "ASSIGNED_EVENT": true, "LABELED_EVENT": true, "ISSUE_COMMENT": true,
	"PULL_REQUEST_REVIEW": true, "PULL_REQUEST_COMMIT": true, "HEAD_REF_FORCE_PUSHED_EVENT": true,
}

// servedTimeline reports whether every one of types (at least one) is
// served.
func servedTimeline(types map[string]bool) bool {
	for t := range types {
		if !timelineTypes[t] {
			return false
		}
	}
	return len(types) > 0
}

// timed is a timeline item with when it happened and its creation order.
type timed struct {
	at   time.Time
	seq  int64
	item any
}

// recordedItems are the issue's (or pull request's) assigned events,
// labeled events, comments, submitted reviews, force pushes and commits
// asked for by
// types, oldest first (by time, then creation order; a commit, which has
// no creation order, first among items of its second).
func (r *issueRes) recordedItems(x *gqlExec, types map[string]bool) []timed {
	i, s, f := r.i, r.s, x.c.f
	var out []timed
	if types["ASSIGNED_EVENT"] {
		for _, a := range i.assignments {
			if a.kind == "assigned" {
				out = append(out, timed{a.at, a.id, mapRes{"AssignedEvent", map[string]any{
					"id": nodeID("AssignedEvent", a.id), "createdAt": ts(a.at), "actor": actor(f, a.actor), "assignee": actor(f, a.assignee)}}})
			}
		}
	}
	if types["LABELED_EVENT"] {
		for _, l := range i.labeled {
			out = append(out, timed{l.at, l.id, mapRes{"LabeledEvent", map[string]any{
				"id": nodeID("LabeledEvent", l.id), "createdAt": ts(l.at), "actor": actor(f, l.actor), "label": labelRes{f.ensureLabel(s, l.name)}}}})
		}
	}
	if types["ISSUE_COMMENT"] {
		for _, c := range i.comments {
			out = append(out, timed{c.created, c.id, &commentRes{s: s, i: i, c: c}})
		}
	}
	if p := i.pr; p != nil && types["PULL_REQUEST_REVIEW"] {
		for _, rv := range p.reviews {
			if rv.state != "PENDING" {
				out = append(out, timed{rv.submitted, rv.id, &reviewRes{s: s, i: i, r: rv}})
			}
		}
	}
	if types["HEAD_REF_FORCE_PUSHED_EVENT"] {
		for _, fp := range i.forcePushes {
			out = append(out, timed{fp.at, fp.id, mapRes{"HeadRefForcePushedEvent", map[string]any{
				"id": nodeID("HeadRefForcePushedEvent", fp.id), "createdAt": ts(fp.at), "actor": actor(f, fp.actor),
				"beforeCommit": commitOrNil(s, fp.before), "afterCommit": commitOrNil(s, fp.after)}}})
		}
	}
	if p := i.pr; p != nil && types["PULL_REQUEST_COMMIT"] {
		for _, c := range s.prCommits(p) {
			out = append(out, timed{c.committer.Date, 0, mapRes{"PullRequestCommit", map[string]any{"commit": &commitRes{s: s, c: c}, "id": shaNode("PullRequestCommit", c.sha)}}})
		}
	}
	slices.SortStableFunc(out, func(a, b timed) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return int(a.seq - b.seq)
	})
	return out
}

// coAuthors are the Co-authored-by trailers of message, as signatures.
func coAuthors(message string) []Signature {
	var out []Signature
	for _, line := range strings.Split(message, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.EqualFold(k, "Co-authored-by") {
			continue
		}
		name, rest, ok := strings.Cut(v, "<")
		email, _, closed := strings.Cut(rest, ">")
		if ok && closed {
			out = append(out, Signature{Name: strings.TrimSpace(name), Email: strings.TrimSpace(email)})
		}
	}
	return out
}

// authors serves Commit.authors: the author, then each Co-authored-by
// trailer's signature, as GitActors.
func (r *commitRes) authors(x *gqlExec, args map[string]any) (any, error) {
	var items []any
	for _, sig := range append([]Signature{r.c.author}, coAuthors(r.c.message)...) {
		items = append(items, mapRes{"GitActor", map[string]any{"name": sig.Name, "email": sig.Email, "date": ts(sig.Date), "user": gitUser(x.c.f, sig)}})
	}
	return newConn("GitActorConnection", "authors", items, args)
}
