package ghfake_test

import (
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
)

// TestMergeKeepsModes merges a pull request that adds an executable and a
// symbolic link and makes an existing file executable, by each method: the
// merged tree keeps every mode, while a change on the base merges in.
func TestMergeKeepsModes(t *testing.T) {
	for _, method := range []ghfake.MergeMethod{ghfake.MergeCommit, ghfake.Squash, ghfake.Rebase} {
		t.Run(string(method), func(t *testing.T) {
			_, repo, _, c := installed(t)
			repo.Commit("main", "tool", map[string]string{"tool.sh": "echo tool\n"})
			repo.Branch("feature", "main")
			repo.CommitBy("alice", "feature", "modes", map[string]string{
				"run.sh": ghfake.Executable("echo run\n"), "latest": ghfake.Symlink("run.sh"), "tool.sh": ghfake.Executable("echo tool\n"),
			})
			pr := repo.OpenPR("alice", "feature", "main", "Modes", "")
			repo.Commit("main", "base moves", map[string]string{"base.txt": "b\n"})
			files, _, err := c.PullRequests.ListFiles(ctx, "acme", "widgets", pr.Number(), nil)
			if err != nil {
				t.Fatal(err)
			}
			listed := map[string]string{}
			for _, f := range files {
				listed[f.GetFilename()] = f.GetStatus() + " " + f.GetSHA()
			}
			for p, blob := range map[string]string{"latest": hashBlob("run.sh"), "run.sh": hashBlob("echo run\n")} {
				if got, want := listed[p], "added "+blob; got != want {
					t.Errorf("pull request file %s = %q, want %q", p, got, want)
				}
			}
			sha := pr.Merge(method)
			want := map[string]string{"README.md": "100644 blob", "base.txt": "100644 blob", "latest": "120000 blob",
				"run.sh": "100755 blob", "tool.sh": "100755 blob"}
			if diff := cmp.Diff(want, treeModes(t, c, sha)); diff != "" {
				t.Errorf("merged tree (-want +got):\n%s", diff)
			}
		})
	}
}
