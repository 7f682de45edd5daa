package demo

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestDuplicateRuns: two of the App's runs with the same content on one
// commit are a duplicated write; a replaced run (new content) is not, nor
// is another App's or GitHub Actions' repeated run. The negative control
// is the planted duplicate, which the check must catch.
func TestDuplicateRuns(t *testing.T) {
	tests := []struct {
		name  string
		plant func(r *ghfake.Repo, sha string)
		want  []string
	}{
		{"one run each", func(r *ghfake.Repo, sha string) {
			r.AddCheckRun(appID, sha, "aepgate/gates", "completed", "success")
			r.AddCheckRun(appID, sha, "aepgate/audit", "completed", "failure")
		}, nil},
		{"replaced run", func(r *ghfake.Repo, sha string) {
			r.AddCheckRun(appID, sha, "aepgate/audit", "completed", "failure")
			r.AddCheckRun(appID, sha, "aepgate/audit", "completed", "success")
		}, nil},
		{"another App repeats itself", func(r *ghfake.Repo, sha string) {
			r.AddCheckRun(99, sha, "ci", "completed", "success")
			r.AddCheckRun(99, sha, "ci", "completed", "success")
		}, nil},
		{"negative control: a duplicated write", func(r *ghfake.Repo, sha string) {
			r.AddCheckRun(appID, sha, "aepgate/merge", "completed", "success")
			r.AddCheckRun(appID, sha, "aepgate/merge", "completed", "success")
		}, []string{"duplicate write: head holds aepgate/merge twice with the same content"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ghfake.New(t)
			w := &world{f: f, repo: f.CreateRepo(repoName)}
			w.rec = newRecorder(w)
			sha := w.repo.Head("main")
			w.rec.watch("head", sha)
			tt.plant(w.repo, sha)
			if diff := cmp.Diff(tt.want, w.duplicateRuns()); diff != "" {
				t.Errorf("duplicateRuns (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDuplicateReplies: the App's reply to one comment written twice on a
// conversation the story used is a duplicated write; replies to two
// comments are not. The negative control is the planted second reply.
func TestDuplicateReplies(t *testing.T) {
	tests := []struct {
		name    string
		replies []string
		want    []string
	}{
		{"one reply each", []string{replyPrefix(7) + " no", replyPrefix(8) + " no"}, nil},
		{"negative control: a reply written twice", []string{replyPrefix(7) + " no", replyPrefix(7) + " no"},
			[]string{"duplicate write: #1 holds 2 replies <!-- aepgate:reply:7 -->"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ghfake.New(t)
			w := &world{f: f, repo: f.CreateRepo(repoName)}
			unit := w.repo.OpenIssue(owner, "Export reports as CSV", "")
			w.story = &story{w: w, s: &scene{unit: unit}}
			for _, r := range tt.replies {
				unit.Comment(owner, r)
			}
			if diff := cmp.Diff(tt.want, w.duplicateReplies()); diff != "" {
				t.Errorf("duplicateReplies (-want +got):\n%s", diff)
			}
		})
	}
}
