package ghfake

// maxPinned is how many issues GitHub pins in one repository.
const maxPinned = 3

// pinIssue serves the pinIssue mutation: the issue is pinned to its
// repository's issue list (a fourth is refused, as GitHub does; pinning a
// pinned issue changes nothing).
func (x *gqlExec) pinIssue(input map[string]any) (any, error) {
	s, is, err := x.issueNode(input["issueId"], "issues")
	if err != nil {
		return nil, err
	}
	if is.pr != nil {
		return nil, notFoundErr("Could not resolve to an Issue with the global id of '%v'", input["issueId"])
	}
	if !is.pinned {
		n := 0
		for _, o := range s.issues {
			if o != nil && o.pinned {
				n++
			}
		}
		if n >= maxPinned {
			return nil, &gqlError{kind: "UNPROCESSABLE", msg: "Repository already has 3 pinned issues"}
		}
		is.pinned = true
	}
	return mapRes{"PinIssuePayload", map[string]any{"issue": &issueRes{s: s, i: is}, "clientMutationId": input["clientMutationId"]}}, nil
}

// Pinned reports whether the issue is pinned to its repository.
func (i *Issue) Pinned() bool {
	i.r.f.mu.Lock()
	defer i.r.f.mu.Unlock()
	return i.r.s.issue(i.n).pinned
}
