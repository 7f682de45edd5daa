package gh

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
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
func graphQL(ctx context.Context, hc *http.Client, url, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return fmt.Errorf("graphql: %w", err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("graphql: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("graphql: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxGraphQLResponse))
	if err != nil {
		return fmt.Errorf("graphql: read answer: %w", err)
	}
	if resp.StatusCode != http.StatusOK {
		return &HTTPError{Status: resp.StatusCode, Body: truncate(string(data), 300)}
	}
	var env struct {
		Data   json.RawMessage `json:"data"`
		Errors []gqlErr        `json:"errors"`
	}
	if err := json.Unmarshal(data, &env); err != nil {
		return fmt.Errorf("graphql: decode answer: %w", err)
	}
	if len(env.Errors) > 0 && !onlyMissingObjects(env.Errors) {
		ge := &GraphQLError{}
		for _, e := range env.Errors {
			ge.Messages = append(ge.Messages, e.Message)
		}
		return ge
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return fmt.Errorf("graphql: decode data: %w", err)
	}
	return nil
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

// onlyMissingObjects reports whether every error says an object below the
// query's root does not exist (NOT_FOUND with a path deeper than the root
// field, e.g. repository.u999). Those fields are null in the data, and the
// answer is complete otherwise: an issue that does not exist is a fact to
// judge, not a failure to retry.
func onlyMissingObjects(errs []gqlErr) bool {
	for _, e := range errs {
		kind := e.Type
		if kind == "" {
			kind = e.Extensions.Type
		}
		if kind != "NOT_FOUND" || len(e.Path) < 2 {
			return false
		}
	}
	return true
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

// IsNotFound reports whether err says the object does not exist.
func IsNotFound(err error) bool {
	var ge *GraphQLError
	if errors.As(err, &ge) {
		for _, m := range ge.Messages {
			if strings.Contains(m, "Could not resolve") {
				return true
			}
		}
	}
	return false
}
