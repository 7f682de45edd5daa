package gh

import (
	"net/url"
	"testing"
)

func TestGitURL(t *testing.T) {
	tests := []struct{ rest, want string }{
		{"https://api.github.com/", "https://github.com/octo/demo.git"},
		{"https://ghe.example.com/api/v3/", "https://ghe.example.com/octo/demo.git"},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8080/octo/demo.git"},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.rest)
		if err != nil {
			t.Fatal(err)
		}
		if got := GitURL(u, "octo", "demo"); got != tt.want {
			t.Errorf("GitURL(%s) = %s, want %s", tt.rest, got, tt.want)
		}
	}
}
