package gh

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// ErrReadOnly is the error of a write asked of a read-only installation.
var ErrReadOnly = errors.New("read-only: this client never writes to GitHub")

// NewReadInstallation is an Installation that authenticates with token (a
// personal, GITHUB_TOKEN or installation token) against baseURL ("" for
// github.com) and refuses every write before it is sent: REST calls other
// than GET, HEAD and OPTIONS, and GraphQL mutations (ErrReadOnly). Its reads
// are the App's own (Snapshot, Role, ReadFiles, ...), so `aepgate simulate`
// sees what an evaluation would; conditional requests and rate limits are
// handled as for the App.
func NewReadInstallation(baseURL, token string) (*Installation, error) {
	if token == "" {
		return nil, fmt.Errorf("github client: empty token")
	}
	var rt http.RoundTripper = &rateLimitTransport{base: http.DefaultTransport}
	rt = &tokenTransport{token: token, base: rt}
	rt = &etagTransport{base: &readOnlyTransport{base: rt}}
	hc := &http.Client{Transport: rt}
	rest, err := NewClient(baseURL, hc)
	if err != nil {
		return nil, err
	}
	return &Installation{rest: rest, hc: hc, graphqlURL: GraphQLURL(rest.BaseURL)}, nil
}

// readOnlyTransport refuses writes: a REST write, or a GraphQL document
// that is not a query.
type readOnlyTransport struct{ base http.RoundTripper }

func (t *readOnlyTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if isWrite(req) {
		return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Path, ErrReadOnly)
	}
	if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/graphql") {
		if err := onlyQuery(req); err != nil {
			return nil, err
		}
	}
	return t.base.RoundTrip(req)
}

// onlyQuery refuses a GraphQL request whose document is not a query (a
// mutation or subscription), reading the body and putting it back.
func onlyQuery(req *http.Request) error {
	if req.Body == nil {
		return nil
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return fmt.Errorf("graphql request: %w", err)
	}
	req.Body = io.NopCloser(bytes.NewReader(body))
	var doc struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return fmt.Errorf("graphql request: %w", err)
	}
	q := strings.TrimSpace(doc.Query)
	if strings.HasPrefix(q, "{") || strings.HasPrefix(q, "query") {
		return nil
	}
	return fmt.Errorf("graphql %.20q: %w", q, ErrReadOnly)
}

// isWrite reports whether req changes state on GitHub. GraphQL POSTs are
// left to onlyQuery.
func isWrite(req *http.Request) bool {
	switch req.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return !strings.HasSuffix(req.URL.Path, "/graphql")
}
