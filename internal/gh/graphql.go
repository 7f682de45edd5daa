package gh

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// maxGraphQLResponse bounds a GraphQL answer read into memory.
const maxGraphQLResponse = 32 << 20

// GraphQLError is GitHub's answer when a query has errors: the messages,
// joined.
type GraphQLError struct {
	Messages []string
}

// Error joins GitHub's messages.
func (e *GraphQLError) Error() string {
	return "graphql: " + strings.Join(e.Messages, "; ")
}

// mentions reports whether any message names field as missing from the
// schema (feature detection on older GHES).
func (e *GraphQLError) mentions(field string) bool {
	for _, m := range e.Messages {
		if strings.Contains(m, "'"+field+"'") || strings.Contains(m, `"`+field+`"`) {
			return true
		}
	}
	return false
}

// graphQL posts one query to url over hc and decodes data into out. Errors
// in the answer become *GraphQLError; HTTP failures keep their status.
// Objects below the root that do not exist are null data, not errors.
func graphQL(ctx context.Context, hc *http.Client, url, query string, vars map[string]any, out any) error {
	denied, err := graphQLPartial(ctx, hc, url, query, vars, out)
	if err == nil && len(denied) > 0 {
		return graphQLError(denied)
	}
	return err
}

// graphQLPartial is graphQL that also accepts FORBIDDEN errors on objects
// below the root: their fields are null in out, and the errors are
// returned for the caller to report.
func graphQLPartial(ctx context.Context, hc *http.Client, url, query string, vars map[string]any, out any) ([]gqlErr, error) {
	req, resp, data, err := postGraphQL(ctx, hc, url, query, vars)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		// A secondary limit may come as a bare 403 whose message says so
		// (the transport already typed those carrying rate-limit headers).
		if resp.StatusCode == http.StatusForbidden && strings.Contains(strings.ToLower(string(data)), "rate limit") {
			return nil, limitError(req, resp)
		}
		return nil, &HTTPError{Status: resp.StatusCode, Body: truncate(string(data), 300)}
	}
	return decodeGraphQL(req, resp, data, out)
}

// postGraphQL posts query and vars to url and reads the answer, at most
// maxGraphQLResponse bytes of it.
func postGraphQL(ctx context.Context, hc *http.Client, url, query string, vars map[string]any) (*http.Request, *http.Response, []byte, error) {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("graphql: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("graphql: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("graphql: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxGraphQLResponse))
	if err != nil {
		return nil, nil, nil, fmt.Errorf("graphql: read answer: %w", err)
	}
	return req, resp, data, nil
}

// decodeGraphQL decodes a 200 answer's data into out, returning the
// FORBIDDEN errors on objects below the root; any other error but
// NOT_FOUND below the root fails the whole answer.
func decodeGraphQL(req *http.Request, resp *http.Response, data []byte, out any) ([]gqlErr, error) {
	var env struct {
		Data   json.RawMessage `json:"data"`
		Errors []gqlErr        `json:"errors"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return nil, fmt.Errorf("graphql: decode answer: %w", err)
	}
	var denied []gqlErr
	for _, e := range env.Errors {
		switch {
		case e.kind() == "RATE_LIMITED":
			// GraphQL's primary limit answers 200 with this error: wait for
			// the reset rather than retrying at once.
			return nil, limitError(req, resp)
		case e.objectLevel("NOT_FOUND"):
		case e.objectLevel("FORBIDDEN"):
			denied = append(denied, e)
		default:
			return nil, graphQLError(env.Errors)
		}
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return nil, fmt.Errorf("graphql: decode data: %w", err)
	}
	return denied, nil
}

// graphQLError is errs as one *GraphQLError.
func graphQLError(errs []gqlErr) *GraphQLError {
	ge := &GraphQLError{}
	for _, e := range errs {
		ge.Messages = append(ge.Messages, e.Message)
	}
	return ge
}

// gqlErr is one entry of a GraphQL answer's errors. GitHub puts the kind in
// "type"; some servers put it in extensions.type.
type gqlErr struct {
	Message    string `json:"message"`
	Type       string `json:"type"`
	Path       []any  `json:"path"`
	Extensions struct {
		Type string `json:"type"`
	} `json:"extensions"`
}

// objectLevel reports whether the error is of kind and concerns an object
// below the query's root field (e.g. repository.u999), not the root.
// NOT_FOUND there means the object does not exist: a fact to judge, not a
// failure to retry.
func (e gqlErr) objectLevel(kind string) bool {
	return e.kind() == kind && len(e.Path) >= 2
}

// kind is the error's type, wherever the server put it.
func (e gqlErr) kind() string {
	if e.Type != "" {
		return e.Type
	}
	return e.Extensions.Type
}

// at reports whether field is one of the error's path elements.
func (e gqlErr) at(field string) bool {
	for _, p := range e.Path {
		if p == field {
			return true
		}
	}
	return false
}

// alias is the second path element (the field under repository).
func (e gqlErr) alias() string {
	if len(e.Path) < 2 {
		return ""
	}
	s, _ := e.Path[1].(string)
	return s
}

// HTTPError is a non-200 answer GitHub gave to a GraphQL request.
type HTTPError struct {
	Status int
	Body   string
}

// Error gives the status and the start of the answer.
func (e *HTTPError) Error() string { return fmt.Sprintf("graphql: HTTP %d: %s", e.Status, e.Body) }

// Temporary reports whether the failure is worth retrying (5xx).
func (e *HTTPError) Temporary() bool { return e.Status >= 500 }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
