package command

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseAcceptMerge(t *testing.T) {
	sha := "0123456789abcdef0123456789abcdef01234567"
	type got struct {
		SHA string
		Bad bool
	}
	tests := []struct {
		name, body string
		want       got
	}{
		{"sha", "/aep accept-merge " + sha, got{sha, false}},
		{"upper-case sha is lowered", "/aep accept-merge 0123456789ABCDEF0123456789ABCDEF01234567", got{sha, false}},
		{"no sha", "/aep accept-merge", got{"", true}},
		{"short sha", "/aep accept-merge 0123456", got{"", true}},
		{"extra word", "/aep accept-merge " + sha + " now", got{"", true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := Parse(tt.body, "")
			if len(cs) != 1 || cs[0].Verb != VerbAcceptMerge {
				t.Fatalf("Parse(%q) = %+v, want one accept-merge", tt.body, cs)
			}
			c := cs[0]
			if diff := cmp.Diff(tt.want, got{c.SHA, c.Err != nil}); diff != "" {
				t.Errorf("accept-merge (-want +got):\n%s", diff)
			}
		})
	}
}
