package ghfake_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

func annotations(n int) []*github.CheckRunAnnotation {
	out := make([]*github.CheckRunAnnotation, n)
	for i := range out {
		out[i] = &github.CheckRunAnnotation{
			Path: github.String("docs/run/log.md"), StartLine: github.Int(i + 1), EndLine: github.Int(i + 1),
			AnnotationLevel: github.String("warning"), Message: github.String(fmt.Sprintf("finding %d", i)),
		}
	}
	return out
}

func TestCheckRunAnnotationsPagedFiftyAtATime(t *testing.T) {
	f, repo, _, c := installed(t)
	sha := repo.Head("main")
	run, _, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{
		Name: "aepgate/audit", HeadSHA: sha, Status: github.String("in_progress"),
		Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String("s"), Annotations: annotations(50)},
	})
	if err != nil {
		t.Fatalf("create with 50 annotations: %v", err)
	}
	_, _, err = c.Checks.UpdateCheckRun(ctx, "acme", "widgets", run.GetID(), github.UpdateCheckRunOptions{
		Name: "aepgate/audit", Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String("s"), Annotations: annotations(51)},
	})
	if status(err) != http.StatusUnprocessableEntity {
		t.Fatalf("51 annotations in one request: err = %v, want 422", err)
	}
	done, _, err := c.Checks.UpdateCheckRun(ctx, "acme", "widgets", run.GetID(), github.UpdateCheckRunOptions{
		Name: "aepgate/audit", Conclusion: github.String("failure"),
		Output: &github.CheckRunOutput{Title: github.String("2 findings"), Summary: github.String("s2"), Annotations: annotations(25)},
	})
	if err != nil {
		t.Fatalf("append 25: %v", err)
	}
	if done.GetStatus() != "completed" || done.GetOutput().GetAnnotationsCount() != 75 || done.CompletedAt == nil {
		t.Errorf("after update: status %s, %d annotations, completed %v", done.GetStatus(), done.GetOutput().GetAnnotationsCount(), done.CompletedAt)
	}
	var all []*github.CheckRunAnnotation
	opts := &github.ListOptions{}
	pages := 0
	for {
		page, resp, err := c.Checks.ListCheckRunAnnotations(ctx, "acme", "widgets", run.GetID(), opts)
		if err != nil {
			t.Fatalf("ListCheckRunAnnotations: %v", err)
		}
		pages++
		all = append(all, page...)
		if resp.NextPage == 0 {
			break
		}
		opts.Page = resp.NextPage
	}
	if len(all) != 75 || pages != 3 {
		t.Errorf("listed %d annotations on %d pages, want 75 on 3 (30 per page)", len(all), pages)
	}
	got := repo.CheckRuns(sha)
	if len(got) != 1 || got[0].Title != "2 findings" || len(got[0].Annotations) != 75 {
		t.Errorf("snapshot = %+v", got)
	}
	if n := f.Calls("GET /repos/{owner}/{repo}/check-runs/{check_run_id}/annotations"); n != 3 {
		t.Errorf("annotation list calls = %d, want 3", n)
	}
}

func TestCheckRunValidation(t *testing.T) {
	_, repo, _, c := installed(t)
	sha := repo.Head("main")
	long := strings.Repeat("x", ghfake.MaxOutputBytes+1)
	multi := strings.Repeat("é", ghfake.MaxOutputBytes/2+1) // fewer characters than the cap, more bytes
	col := 3
	tests := []struct {
		name string
		opts github.CreateCheckRunOptions
		want int
	}{
		{"ok", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha}, 201},
		{"no name", github.CreateCheckRunOptions{HeadSHA: sha}, 422},
		{"unknown sha", github.CreateCheckRunOptions{Name: "a", HeadSHA: strings.Repeat("0", 40)}, 422},
		{"bad status", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Status: github.String("done")}, 422},
		{"completed without conclusion", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Status: github.String("completed")}, 422},
		{"stale is GitHub's", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Conclusion: github.String("stale")}, 422},
		{"summary at the cap", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String(long[1:])}}, 201},
		{"summary over the cap", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String(long)}}, 422},
		{"text over the cap in bytes", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String("s"), Text: github.String(multi)}}, 422},
		{"output without summary", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Output: &github.CheckRunOutput{Title: github.String("t")}}, 422},
		{"annotation title too long", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String("s"),
			Annotations: []*github.CheckRunAnnotation{{Path: github.String("a"), StartLine: github.Int(1), EndLine: github.Int(1), AnnotationLevel: github.String("notice"), Message: github.String("m"), Title: github.String(strings.Repeat("t", 256))}}}}, 422},
		{"columns across lines", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String("s"),
			Annotations: []*github.CheckRunAnnotation{{Path: github.String("a"), StartLine: github.Int(1), EndLine: github.Int(2), StartColumn: &col, AnnotationLevel: github.String("notice"), Message: github.String("m")}}}}, 422},
		{"bad level", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Output: &github.CheckRunOutput{Title: github.String("t"), Summary: github.String("s"),
			Annotations: []*github.CheckRunAnnotation{{Path: github.String("a"), StartLine: github.Int(1), EndLine: github.Int(1), AnnotationLevel: github.String("error"), Message: github.String("m")}}}}, 422},
		{"four actions", github.CreateCheckRunOptions{Name: "a", HeadSHA: sha, Actions: []*github.CheckRunAction{{Label: "a", Identifier: "a"}, {Label: "b", Identifier: "b"}, {Label: "c", Identifier: "c"}, {Label: "d", Identifier: "d"}}}, 422},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, resp, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", tt.opts)
			got := 0
			if resp != nil {
				got = resp.StatusCode
			}
			if got != tt.want {
				t.Errorf("status = %d (%v), want %d", got, err, tt.want)
			}
		})
	}
}

func TestListCheckRunsForRefFilters(t *testing.T) {
	f, repo, app, c := installed(t)
	sha := repo.Head("main")
	ci := repo.AddCheckRun(7, sha, "test", "completed", "success")
	mk := func(name, conclusion string) int64 {
		r, _, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: name, HeadSHA: sha, Conclusion: github.String(conclusion)})
		if err != nil {
			t.Fatal(err)
		}
		return r.GetID()
	}
	old := mk("aepgate/merge", "failure")
	newer := mk("aepgate/merge", "success")
	gate := mk("aepgate/gates", "neutral")
	ids := func(opts *github.ListCheckRunsOptions) []int64 {
		t.Helper()
		res, _, err := c.Checks.ListCheckRunsForRef(ctx, "acme", "widgets", "main", opts)
		if err != nil {
			t.Fatalf("ListCheckRunsForRef: %v", err)
		}
		var out []int64
		for _, r := range res.CheckRuns {
			out = append(out, r.GetID())
		}
		if res.GetTotal() != len(out) {
			t.Errorf("total_count %d != %d runs", res.GetTotal(), len(out))
		}
		return out
	}
	tests := []struct {
		name string
		opts *github.ListCheckRunsOptions
		want []int64
	}{
		{"default is latest", &github.ListCheckRunsOptions{}, []int64{gate, newer, ci}},
		{"all", &github.ListCheckRunsOptions{Filter: github.String("all")}, []int64{gate, newer, old, ci}},
		{"by name", &github.ListCheckRunsOptions{CheckName: github.String("aepgate/merge"), Filter: github.String("all")}, []int64{newer, old}},
		{"by app", &github.ListCheckRunsOptions{AppID: github.Int64(app.ID)}, []int64{gate, newer}},
		{"other app", &github.ListCheckRunsOptions{AppID: github.Int64(7)}, []int64{ci}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, ids(tt.opts)); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
		})
	}
	_, _, err := c.Checks.UpdateCheckRun(ctx, "acme", "widgets", ci, github.UpdateCheckRunOptions{Name: "test", Conclusion: github.String("failure")})
	if status(err) != http.StatusForbidden {
		t.Errorf("updating another App's run: err = %v, want 403", err)
	}
	suites, _, err := c.Checks.ListCheckSuitesForRef(ctx, "acme", "widgets", sha, nil)
	if err != nil || suites.GetTotal() != 2 {
		t.Errorf("suites = %d, %v; want 2 (one per App)", suites.GetTotal(), err)
	}
	_ = f
}

func TestUserTokenCannotWriteChecks(t *testing.T) {
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	repo.Grant("alice", "admin")
	c := client(t, f, f.UserToken("alice"))
	_, _, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "x", HeadSHA: repo.Head("main")})
	if status(err) != http.StatusForbidden {
		t.Errorf("user token creating a check run: err = %v, want 403", err)
	}
}
