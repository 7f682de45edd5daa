package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseAccept(t *testing.T) {
	sha := "0123456789abcdef0123456789abcdef01234567"
	type got struct {
		Milestone int
		SHA       string
		Bad       bool
	}
	tests := []struct {
		name, body string
		want       got
	}{
		{"milestone and sha", "/aep accept 3 " + sha, got{3, sha, false}},
		{"hash before the number", "/aep accept #3 " + sha, got{3, sha, false}},
		{"upper-case sha is lowered", "/aep accept 3 0123456789ABCDEF0123456789ABCDEF01234567", got{3, sha, false}},
		{"no sha", "/aep accept 3", got{0, "", true}},
		{"short sha", "/aep accept 3 0123456", got{0, "", true}},
		{"not a number", "/aep accept three " + sha, got{0, "", true}},
		{"zero", "/aep accept 0 " + sha, got{0, "", true}},
		{"plus sign", "/aep accept +3 " + sha, got{0, "", true}},
		{"extra word", "/aep accept 3 " + sha + " now", got{0, "", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := Parse(tt.body, "")
			if len(cs) != 1 || cs[0].Verb != VerbAccept {
				t.Fatalf("Parse(%q) = %+v, want one accept", tt.body, cs)
			}
			c := cs[0]
			if diff := cmp.Diff(tt.want, got{c.Milestone, c.SHA, c.Err != nil}); diff != "" {
				t.Errorf("accept (-want +got):\n%s", diff)
			}
		})
	}
}
