package ghfake

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// MaxGraphQLNodes is GitHub's cap on the nodes one query may ask for.
const MaxGraphQLNodes = 500000

// resolver is a GraphQL object the executor can ask for fields.
type resolver interface {
	typeName() string
	field(x *gqlExec, name string, args map[string]any) (any, error)
}

// gqlExec executes one operation against the fake's state (mu held).
type gqlExec struct {
	c      *call
	schema *ast.Schema
	vars   map[string]any
	errs   gqlerror.List
	cost   int
}

func (f *Fake) graphRoutes() {
	f.handle(graphQLPattern, access{scope: "graphql"}, serveGraphQL)
}

type gqlRequest struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
}

// serveGraphQL parses and validates the query against GitHub's schema
// (a query GitHub would reject fails the same way) and resolves it from the
// fake's state.
func serveGraphQL(c *call) (int, any) {
	s, err := c.f.schema()
	if err != nil {
		return apiError(http.StatusNotImplemented, err.Error())
	}
	var req gqlRequest
	if err := c.decode(&req); err != nil {
		return badJSON(err)
	}
	doc, perr := parser.ParseQuery(&ast.Source{Name: "query", Input: req.Query})
	if perr != nil {
		return http.StatusOK, obj{"errors": gqlerror.List{gqlerror.WrapIfUnwrapped(perr)}}
	}
	if errs := validator.ValidateWithRules(s, doc, nil); len(errs) > 0 {
		return http.StatusOK, obj{"errors": errs}
	}
	op := doc.Operations.ForName(req.OperationName)
	if op == nil {
		return http.StatusOK, obj{"errors": gqlerror.List{gqlerror.Errorf("operation %q not found", req.OperationName)}}
	}
	vars, verr := validator.VariableValues(s, op, req.Variables)
	if verr != nil {
		return http.StatusOK, obj{"errors": gqlerror.List{gqlerror.WrapIfUnwrapped(verr)}}
	}
	x := &gqlExec{c: c, schema: s, vars: vars}
	nodes, requests := x.measure(op.SelectionSet, 1)
	if len(x.errs) > 0 {
		return http.StatusOK, obj{"data": nil, "errors": x.errs}
	}
	if nodes > MaxGraphQLNodes {
		return http.StatusOK, obj{"errors": gqlerror.List{gqlerror.Errorf(
			"This query requests up to %d possible nodes which exceeds the maximum limit of %d.", nodes, MaxGraphQLNodes)}}
	}
	x.cost = max(1, requests/100)
	if op.Operation == ast.Mutation {
		x.cost = 5
	}
	c.f.charge(c, x.cost-1)
	var root resolver = queryRes{}
	if op.Operation == ast.Mutation {
		root = mutationRes{}
	}
	data := x.selection(root, op.SelectionSet, ast.Path{})
	out := obj{"data": data}
	if len(x.errs) > 0 {
		out["errors"] = gqlErrorsJSON(x.errs)
	}
	return http.StatusOK, out
}

// gqlErrorsJSON encodes resolver errors as GitHub does: the error kind
// (NOT_FOUND, FORBIDDEN, …) in a top-level "type" beside message, path and
// locations (extensions.type is kept too).
func gqlErrorsJSON(errs gqlerror.List) []any {
	out := make([]any, 0, len(errs))
	for _, e := range errs {
		raw, err := json.Marshal(e)
		var m map[string]any
		if err != nil || json.Unmarshal(raw, &m) != nil {
			out = append(out, e)
			continue
		}
		if kind, ok := e.Extensions["type"]; ok {
			m["type"] = kind
		}
		out = append(out, m)
	}
	return out
}

// selection resolves a selection set on obj into an object.
func (x *gqlExec) selection(obj resolver, set ast.SelectionSet, path ast.Path) map[string]any {
	out := map[string]any{}
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			out[s.Alias] = x.resolveField(obj, s, extend(path, ast.PathName(s.Alias)))
		case *ast.InlineFragment:
			if x.applies(obj, s.TypeCondition) {
				for k, v := range x.selection(obj, s.SelectionSet, path) {
					out[k] = v
				}
			}
		case *ast.FragmentSpread:
			if d := s.Definition; d != nil && x.applies(obj, d.TypeCondition) {
				for k, v := range x.selection(obj, d.SelectionSet, path) {
					out[k] = v
				}
			}
		}
	}
	return out
}

// extend is path with el appended, in a fresh slice: siblings must not
// share (and overwrite) one backing array, or error paths name the wrong
// field.
func extend(path ast.Path, el ast.PathElement) ast.Path {
	return append(path[:len(path):len(path)], el)
}

// applies reports whether a fragment on cond applies to obj.
func (x *gqlExec) applies(obj resolver, cond string) bool {
	if cond == "" || cond == obj.typeName() {
		return true
	}
	def := x.schema.Types[cond]
	if def == nil {
		return false
	}
	for _, t := range x.schema.GetPossibleTypes(def) {
		if t.Name == obj.typeName() {
			return true
		}
	}
	return false
}

func (x *gqlExec) resolveField(obj resolver, f *ast.Field, path ast.Path) any {
	if f.Name == "__typename" {
		return obj.typeName()
	}
	v, err := obj.field(x, f.Name, f.ArgumentMap(x.vars))
	if err != nil {
		e := gqlerror.ErrorPathf(path, "%s", err.Error())
		if f.Position != nil {
			e.Locations = []gqlerror.Location{{Line: f.Position.Line, Column: f.Position.Column}}
		}
		if ge, ok := err.(*gqlError); ok {
			e.Extensions = map[string]any{"type": ge.kind}
			e.Rule = ""
		}
		x.errs = append(x.errs, e)
		return nil
	}
	return x.complete(v, f.SelectionSet, path)
}

// complete turns a resolved value into JSON-ready data.
func (x *gqlExec) complete(v any, set ast.SelectionSet, path ast.Path) any {
	switch val := v.(type) {
	case nil:
		return nil
	case resolver:
		return x.selection(val, set, path)
	case []any:
		out := make([]any, len(val))
		for i, item := range val {
			out[i] = x.complete(item, set, extend(path, ast.PathIndex(i)))
		}
		return out
	default:
		return val
	}
}

// measure computes, as GitHub does before running a query, the most nodes
// it could return and how many connection requests it implies (for
// rateLimit.cost); connections without first/last, or beyond 100, are
// recorded as errors.
func (x *gqlExec) measure(set ast.SelectionSet, mult int) (nodes, requests int) {
	for _, sel := range set {
		var sub ast.SelectionSet
		m := mult
		switch s := sel.(type) {
		case *ast.Field:
			sub = s.SelectionSet
			args := s.ArgumentMap(x.vars)
			if s.Definition != nil && strings.HasSuffix(s.Definition.Type.Name(), "Connection") {
				if _, err := newConn("", s.Name, nil, args); err != nil {
					x.errs = append(x.errs, gqlerror.ErrorPosf(s.Position, "%s", err.Error()))
					continue
				}
			}
			if n, ok := pageSize(args); ok {
				requests += mult
				m = mult * n
				nodes += m
			}
		case *ast.InlineFragment:
			sub = s.SelectionSet
		case *ast.FragmentSpread:
			if s.Definition != nil {
				sub = s.Definition.SelectionSet
			}
		}
		n, r := x.measure(sub, m)
		nodes, requests = nodes+n, requests+r
	}
	return nodes, requests
}

func pageSize(args map[string]any) (int, bool) {
	for _, k := range []string{"first", "last"} {
		if v, ok := args[k]; ok && v != nil {
			n, _ := toInt(v)
			return n, true
		}
	}
	return 0, false
}

func toInt(v any) (int, bool) {
	switch n := v.(type) {
	case int:
		return n, true
	case int64:
		return int(n), true
	case float64:
		return int(n), true
	case json.Number:
		i, err := n.Int64()
		return int(i), err == nil
	case string:
		i, err := strconv.Atoi(n)
		return i, err == nil
	}
	return 0, false
}

// gqlError is a resolver error with GitHub's error type
// (NOT_FOUND, FORBIDDEN, …).
type gqlError struct {
	kind, msg string
}

func (e *gqlError) Error() string { return e.msg }

func notFoundErr(format string, a ...any) error {
	return &gqlError{kind: "NOT_FOUND", msg: fmt.Sprintf(format, a...)}
}

// need refuses a field the token's permissions do not cover, as GitHub
// answers "Resource not accessible by integration".
func (x *gqlExec) need(scope string) error {
	t := x.c.tok
	if t == nil || t.kind == userToken || t.perms.allows(read(scope)) {
		return nil
	}
	return &gqlError{kind: "FORBIDDEN", msg: "Resource not accessible by integration"}
}

// unknownField is the error for a schema field the fake does not resolve.
func unknownField(typ, name string) error {
	return fmt.Errorf("ghfake: %s.%s is valid GitHub GraphQL but not implemented by the fake (add it in graphql_*.go)", typ, name)
}
