package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-github/v62/github"
)

func TestUnreachable(t *testing.T) {
	resp := func(code int) *github.ErrorResponse {
		return &github.ErrorResponse{Response: &http.Response{StatusCode: code, Request: &http.Request{Method: "GET", URL: &url.URL{}}}}
	}
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"dial", fmt.Errorf("list: %w", &url.Error{Op: "Get", URL: "https://api.github.com", Err: errors.New("connection refused")}), true},
		{"timeout", &url.Error{Op: "Get", Err: context.DeadlineExceeded}, true},
		{"502", fmt.Errorf("x: %w", resp(502)), true},
		{"404", resp(404), false},
		{"401", resp(401), false},
		{"other", errors.New("bad token file"), false},
	} {
		if got := Unreachable(tc.err); got != tc.want {
			t.Errorf("%s: Unreachable = %v, want %v", tc.name, got, tc.want)
		}
	}
}
