package gh_test

import (
	"context"
	"errors"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestMergeBound: the merge takes the branch's path — the queue, auto-merge
// while a required check is pending, a direct merge when nothing is left to
// wait for — and each is bound to the judged head; a push after the
// judgement is a HeadMovedError and writes nothing.
func TestMergeBound(t *testing.T) {
	tests := []struct {
		name      string
		rules     ghfake.BranchRules
		push      bool
		wantHow   string
		wantMoved bool
	}{
		{"a branch with a queue", ghfake.BranchRules{MergeQueue: true}, false, gh.MergedByQueue, false},
		{"a required check pending", ghfake.BranchRules{RequiredChecks: []string{"ci"}}, false, gh.MergedByAutoMerge, false},
		{"nothing to wait for", ghfake.BranchRules{}, false, gh.MergedNow, false},
		{"queue: pushed after the judgement", ghfake.BranchRules{MergeQueue: true}, true, "", true},
		{"direct: pushed after the judgement", ghfake.BranchRules{}, true, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			f, repo, pr, in, st := mergeWorld(t, tt.rules)
			repo.AllowAutoMerge(true)
			judged := st.Head
			if tt.push {
				pr.Commit("pushed after the judgement", map[string]string{"b.go": "package a\n"})
			}
			f.ResetLog()
			got, err := in.MergeBound(ctx, "acme", "widgets", pr.Number(), judged, "squash")
			var hm *gh.HeadMovedError
			if tt.wantMoved {
				if !errors.As(err, &hm) {
					t.Fatalf("MergeBound = %+v, %v; want a HeadMovedError", got, err)
				}
				f.VerifyWrites(t, "POST /graphql") // the read only
				f.VerifyMutations(t)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.How != tt.wantHow {
				t.Errorf("how = %s, want %s", got.How, tt.wantHow)
			}
			switch got.How {
			case gh.MergedByQueue:
				if q := repo.MergeQueue("main"); len(q) != 1 || q[0].Head != judged || got.Entry == nil {
					t.Errorf("queue = %+v, entry %+v; want the judged head queued", q, got.Entry)
				}
			case gh.MergedByAutoMerge:
				if am := pr.AutoMerge(); am == nil || am.ExpectedHead != judged || am.Method != ghfake.Squash {
					t.Errorf("auto-merge = %+v, want squash bound to %s", am, judged)
				}
			case gh.MergedNow:
				if got.SHA == "" || repo.Head("main") != got.SHA {
					t.Errorf("merge SHA %s, main at %s", got.SHA, repo.Head("main"))
				}
			}
		})
	}
}
