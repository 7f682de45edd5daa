package pull

import (
	"strings"
	"testing"
)

// TestGroupOf: a merge queue's group branch names the pull request and
// the head it queued.
func TestGroupOf(t *testing.T) {
	sha := strings.Repeat("a", 40)
	tests := []struct {
		name, ref, head string
		want            MergeGroup
		ok              bool
	}{
		{"GitHub's recorded ref", "refs/heads/gh-readonly-queue/main/pr-104-929f8209d40f77f4abc622a499c93a83babdbe64", sha,
			MergeGroup{GroupSHA: sha, PR: 104, PRHead: "929f8209d40f77f4abc622a499c93a83babdbe64"}, true},
		{"a base branch with slashes", "refs/heads/gh-readonly-queue/release/v2/pr-7-" + sha, sha, MergeGroup{GroupSHA: sha, PR: 7, PRHead: sha}, true},
		{"not a queue branch", "refs/heads/main", sha, MergeGroup{}, false},
		{"a short head", "refs/heads/gh-readonly-queue/main/pr-7-abc", sha, MergeGroup{}, false},
		{"no group head", "refs/heads/gh-readonly-queue/main/pr-7-" + sha, "", MergeGroup{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p mergeGroupView
			p.MergeGroup = &struct {
				HeadSHA string `json:"head_sha"`
				HeadRef string `json:"head_ref"`
			}{tt.head, tt.ref}
			got, ok := groupOf(p)
			if ok != tt.ok || got != tt.want {
				t.Errorf("groupOf = %+v, %v; want %+v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
