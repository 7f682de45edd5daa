package certificate

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMergeAuthorityField: mergeAuthority, when present, names who merged
// under a known authority, and an acceptance exactly for owner-accepted;
// craft's keys are untouched by it (a baseline without it stays valid).
func TestMergeAuthorityField(t *testing.T) {
	tests := []struct {
		name string
		v    any
		want []string
	}{
		{"owner", map[string]any{"mergedBy": "olivia", "authority": "owner"}, []string{}},
		{"merge queue", map[string]any{"mergedBy": "github-merge-queue", "authority": "merge-queue"}, []string{}},
		{"accepted", map[string]any{"mergedBy": "mallory", "authority": "owner-accepted", "acceptedBy": "olivia", "acceptanceCommentId": 42}, []string{}},
		{"accepted without the acceptance", map[string]any{"mergedBy": "mallory", "authority": "owner-accepted"}, []string{"invalid:mergeAuthority"}},
		{"an acceptance on an owner's merge", map[string]any{"mergedBy": "olivia", "authority": "owner", "acceptedBy": "olivia", "acceptanceCommentId": 42}, []string{"invalid:mergeAuthority"}},
		{"unknown authority", map[string]any{"mergedBy": "mallory", "authority": "anyone"}, []string{"invalid:mergeAuthority"}},
		{"no merger", map[string]any{"mergedBy": "", "authority": "owner"}, []string{"invalid:mergeAuthority"}},
		{"not an object", "olivia", []string{"invalid:mergeAuthority"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := baseline()
			m["mergeAuthority"] = tt.v
			if diff := cmp.Diff(tt.want, Validate(encode(t, m)).Errors); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
	c := Certificate{SchemaVersion: 1, MergeAuthority: &MergeAuthority{MergedBy: "mallory", Authority: "owner-accepted", AcceptedBy: "olivia", AcceptanceCommentID: 42}}
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	if got := Validate(raw).Certificate["mergeAuthority"]; got == nil {
		t.Errorf("canonical JSON lacks mergeAuthority: %s", raw)
	}
}
