package incrementrules

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/refusal"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestValidate(t *testing.T) {
	good := Decide(with(complete(), func(f *Facts) { high(f); f.Comments = []Comment{accept(5, owner, "4", sha("3"))} })).Certificate
	tests := []struct {
		name string
		raw  string
		want []string
	}{
		{"drawn", string(good), nil},
		{"not canonical", strings.Replace(string(good), `{"acceptanceCommentId"`, `{ "acceptanceCommentId"`, 1), []string{"increment-not-canonical"}},
		{"unknown field", strings.Replace(string(good), `"title":"M1"`, `"title":"M1","zz":1`, 1), []string{"increment-schema"}},
		{"no acceptance on high", strings.Replace(string(good), `"acceptanceCommentId":5,`, ``, 1), []string{"increment-acceptance"}},
		{"uncertified medium story", strings.Replace(string(good), `"certificateSha256":"`+cert("c")+`","mergeSha":"`+sha("2"), `"mergeSha":"`+sha("2"), 1), []string{"increment-story-uncertified"}},
		{"short integrated sha", strings.Replace(string(good), `"integratedSha":"`+sha("3"), `"integratedSha":"`+sha("3")[:12], 1), []string{"increment-integrated-sha"}},
		{"a unit certificate", `{"schemaVersion":1}`, []string{"increment-integrated-sha", "increment-kind", "increment-milestone", "increment-readback-runs", "increment-risk-tier", "increment-stories"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, rs := Validate([]byte(tt.raw))
			if diff := cmp.Diff(tt.want, refusal.Tokens(rs), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("Validate tokens (-want +got):\n%s", diff)
			}
		})
	}
}
