package gh

import (
	"errors"
	"net/http"
	"strings"
	"testing"
)

// TestReadOnlyTransport: reads and GraphQL queries pass; REST writes and
// GraphQL mutations are refused before they are sent. The negative
// control is the same requests on the bare transport, which sends them.
func TestReadOnlyTransport(t *testing.T) {
	tests := []struct {
		name, method, path, body string
		refused                  bool
	}{
		{"rest read", "GET", "/repos/acme/app/pulls/1", "", false},
		{"graphql query", "POST", "/graphql", `{"query":"query { viewer { login } }"}`, false},
		{"graphql shorthand query", "POST", "/graphql", `{"query":"{ viewer { login } }"}`, false},
		{"rest write", "POST", "/repos/acme/app/check-runs", `{}`, true},
		{"rest edit", "PATCH", "/repos/acme/app/issues/comments/1", `{}`, true},
		{"graphql mutation", "POST", "/graphql", `{"query":"mutation { addReaction(input: {}) { clientMutationId } }"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, guarded := range []bool{true, false} {
				sent := 0
				base := roundTripFunc(func(*http.Request) (*http.Response, error) {
					sent++
					return &http.Response{StatusCode: 200, Body: http.NoBody, Header: http.Header{}}, nil
				})
				var rt http.RoundTripper = base
				if guarded {
					rt = &readOnlyTransport{base: base}
				}
				req, _ := http.NewRequest(tt.method, "https://api.example/"+strings.TrimPrefix(tt.path, "/"), strings.NewReader(tt.body))
				_, err := rt.RoundTrip(req)
				refused := errors.Is(err, ErrReadOnly)
				if want := tt.refused && guarded; refused != want || (sent == 1) == want {
					t.Errorf("guarded=%v: refused %v (err %v), sent %d; want refused %v", guarded, refused, err, sent, want)
				}
			}
		})
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
