package ghfake

// mutationRes is the Mutation root: issue dependencies, sub-issues,
// comments, pins and the merge mutations (graphql_merge.go), the writes the
// project makes through GraphQL.
type mutationRes struct{}

func (mutationRes) typeName() string { return "Mutation" }

// field runs one mutation and records it, applied or refused, in the
// request log (Request.Mutations).
func (m mutationRes) field(x *gqlExec, name string, args map[string]any) (any, error) {
	v, err := m.mutate(x, name, args)
	rec := Mutation{Name: name}
	if err != nil {
		rec.Err = err.Error()
	}
	x.c.mutations = append(x.c.mutations, rec)
	return v, err
}

func (mutationRes) mutate(x *gqlExec, name string, args map[string]any) (any, error) {
	input, _ := args["input"].(map[string]any)
	switch name {
	case "addBlockedBy", "removeBlockedBy":
		return x.blockedBy(name == "addBlockedBy", input)
	case "addSubIssue":
		return x.addSubIssue(input)
	case "addComment":
		return x.addComment(input)
	case "pinIssue":
		return x.pinIssue(input)
	}
	if v, ok, err := x.mergeMutation(name, input); ok {
		return v, err
	}
	return nil, unknownField("Mutation", name)
}

// issueNode resolves an Issue node ID the caller may write.
func (x *gqlExec) issueNode(id any, scope string) (*repoState, *issue, error) {
	s, _ := id.(string)
	n, err := x.node(s)
	if err != nil {
		return nil, nil, err
	}
	var r *repoState
	var i *issue
	switch v := n.(type) {
	case *issueRes:
		r, i = v.s, v.i
	case *prRes:
		r, i = v.s, v.i
	default:
		return nil, nil, notFoundErr("Could not resolve to an Issue with the global id of '%s'", s)
	}
	if t := x.c.tok; t != nil && t.kind != userToken && !t.perms.allows(write(scope)) {
		return nil, nil, &gqlError{kind: "FORBIDDEN", msg: "Resource not accessible by integration"}
	}
	return r, i, nil
}

func (x *gqlExec) blockedBy(add bool, input map[string]any) (any, error) {
	s, is, err := x.issueNode(input["issueId"], "issues")
	if err != nil {
		return nil, err
	}
	_, blocker, err := x.issueNode(input["blockingIssueId"], "issues")
	if err != nil {
		return nil, err
	}
	if add {
		if err := x.c.f.addBlocker(s, is, blocker); err != nil {
			return nil, &gqlError{kind: "UNPROCESSABLE", msg: err.Error()}
		}
	} else {
		is.blockedBy = removeInt(is.blockedBy, blocker.number)
	}
	typ := map[bool]string{true: "AddBlockedByPayload", false: "RemoveBlockedByPayload"}[add]
	return mapRes{typ, map[string]any{"issue": &issueRes{s: s, i: is}, "blockingIssue": &issueRes{s: s, i: blocker},
		"clientMutationId": input["clientMutationId"]}}, nil
}

func (x *gqlExec) addSubIssue(input map[string]any) (any, error) {
	s, parent, err := x.issueNode(input["issueId"], "issues")
	if err != nil {
		return nil, err
	}
	_, child, err := x.issueNode(input["subIssueId"], "issues")
	if err != nil {
		return nil, err
	}
	replace, _ := input["replaceParent"].(bool)
	if err := x.c.f.addSubIssue(s, parent, child, replace); err != nil {
		return nil, &gqlError{kind: "UNPROCESSABLE", msg: err.Error()}
	}
	return mapRes{"AddSubIssuePayload", map[string]any{"issue": &issueRes{s: s, i: parent}, "subIssue": &issueRes{s: s, i: child},
		"clientMutationId": input["clientMutationId"]}}, nil
}

func (x *gqlExec) addComment(input map[string]any) (any, error) {
	s, is, err := x.issueNode(input["subjectId"], "issues")
	if err != nil {
		return nil, err
	}
	body, _ := input["body"].(string)
	c := x.c.f.addComment(s, is, x.c.f.actor(x.c.tok), body)
	node := &commentRes{s: s, i: is, c: c}
	return mapRes{"AddCommentPayload", map[string]any{"commentEdge": mapRes{"IssueCommentEdge", map[string]any{"node": node, "cursor": cursor(len(is.comments) - 1)}},
		"subject": issueOrPR(s, is), "timelineEdge": nil, "clientMutationId": input["clientMutationId"]}}, nil
}
