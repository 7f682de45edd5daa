package cli

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gitobj"
	"github.com/aepgate/aepgate/review"
)

// appProblems judges body the way the App's aepgate/audit check does
// (app/pull/audit.go): the files of Audit.EvidencePaths
// that review.CheckPath accepts, read at the review's commit, go into the
// review's bundle, and review.Evaluate judges carol's review at the head of
// bob's pull request for work unit #42.
func appProblems(t *testing.T, repo, body string) review.Decision {
	t.Helper()
	ctx := context.Background()
	r, err := gitobj.Open(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := r.Resolve(ctx, "HEAD")
	rv := review.Review{ID: 7, Author: review.Actor{Login: "carol", Type: "User"}, CommitSHA: head,
		State: review.StateCommented, Body: body, Submitted: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	if a, _ := review.Parse(body); a != nil {
		var paths []string
		for _, p := range a.EvidencePaths() {
			if review.CheckPath(p) == nil {
				paths = append(paths, p)
			}
		}
		files, err := r.Files(ctx, head, paths)
		if err != nil {
			t.Fatal(err)
		}
		rv.Bundle = review.Bundle{}
		for _, f := range files {
			rv.Bundle = append(rv.Bundle, review.File{Path: f.Path, Content: f.Content, Symlink: f.Symlink, Missing: f.Missing})
		}
	}
	return review.Evaluate(review.Input{Risk: review.RiskMedium, Head: head, Unit: 42, PR: 1,
		PRAuthor: review.Actor{Login: "bob", Type: "User"}, Permissions: map[string]string{"carol": "write"}, Corrections: 1, Reviews: []review.Review{rv}})
}

// TestReviewCheckMatchesApp: for the same body at the same commit, review
// check reports exactly the problems the App's evaluation gives, and finds
// none when the App accepts the review.
func TestReviewCheckMatchesApp(t *testing.T) {
	repo := reviewRepo(t)
	finding := func(evidence string) string {
		return `[{"id": "F1", "severity": "high", "requirement": "errors are wrapped", "evidence": [` + evidence + `], "remedy": "wrap it"}]`
	}
	bodies := map[string]string{
		"valid PASS":           auditReview("PASS", "", quoteV2),
		"valid FAIL":           auditReview("FAIL", finding(quoteV2), quoteV2),
		"absent quote":         auditReview("PASS", "", quoteAbsent),
		".env":                 auditReview("PASS", "", quoteEnv),
		"symlink":              auditReview("PASS", "", quoteLink),
		"missing":              auditReview("PASS", "", quoteMissing),
		"working tree":         auditReview("PASS", "", quoteTree),
		"PASS with high":       auditReview("PASS", finding(quoteAbsent+", "+quoteV2), quoteV2+", "+quoteEnv),
		"schema":               "```aep-audit\n{\"schema_version\": 1, \"verdict\": \"MAYBE\", \"extra\": 1}\n```\n",
		"two blocks":           auditReview("PASS", "", quoteV2) + auditReview("PASS", "", quoteV2),
		"absolute and dotdot":  auditReview("PASS", "", `{"path": "/etc/passwd", "quote": "root"}, {"path": "../x", "quote": "x"}`),
		"64 files, none there": auditReview("PASS", "", manyQuotes(64)),
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			code, out, errs := runReviewCheck(t, body, "-", "--repo-dir", repo, "--format", "json")
			var rep reviewReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("exit %d, stderr %q: %v", code, errs, err)
			}
			got := review.Problems{}
			for _, p := range rep.Problems {
				got = append(got, review.Problem{Path: p.Path, Message: p.Message})
			}
			d := appProblems(t, repo, body)
			want := d.Problems
			if want == nil {
				want = review.Problems{}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("problems differ from the App's (outcome %s) (-app +check):\n%s", d.Outcome, diff)
			}
			valid := slices.Contains([]string{review.OutcomePassed, review.OutcomeFailed, review.OutcomeNeedsEvidence}, d.Outcome)
			if rep.Valid != valid || (code == 0) != valid {
				t.Errorf("check says valid=%v (exit %d); the App's outcome is %s", rep.Valid, code, d.Outcome)
			}
		})
	}
}

// recordingReader records the paths it is asked to read.
type recordingReader struct {
	fileReader
	asked []string
}

func (r *recordingReader) Files(ctx context.Context, commit string, paths []string) ([]gitobj.File, error) {
	r.asked = append(r.asked, paths...)
	return r.fileReader.Files(ctx, commit, paths)
}

// TestReviewCheckNeverReadsRefusedPaths: a cited .env file is reported
// but never read; its negative control reads every cited path and shows
// the file read.
func TestReviewCheckNeverReadsRefusedPaths(t *testing.T) {
	repo := reviewRepo(t)
	ctx := context.Background()
	g, err := gitobj.Open(ctx, repo)
	if err != nil {
		t.Fatal(err)
	}
	head, _ := g.Resolve(ctx, "HEAD")
	body := auditReview("PASS", "", quoteV2+", "+quoteEnv)
	allCited := func(a *review.Audit) []string {
		var out []string
		for _, c := range a.Evidence() {
			out = append(out, c.Evidence.Path)
		}
		return out
	}
	tests := []struct {
		name     string
		paths    func(*review.Audit) []string
		wantRead bool
	}{
		{"evidence paths", evidencePaths, false},
		{"negative control: every cited path", allCited, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recordingReader{fileReader: g}
			res, err := checkReview(ctx, rec, head, body, tt.paths)
			if err != nil {
				t.Fatal(err)
			}
			if got := slices.Contains(rec.asked, ".env"); got != tt.wantRead {
				t.Errorf(".env read = %v, want %v (asked for %q)", got, tt.wantRead, rec.asked)
			}
			if len(res.Problems) != 1 || res.Problems[0].Path != "$.verification[0].evidence[1].path" {
				t.Errorf("problems = %v, want the .env path refused", res.Problems)
			}
		})
	}
}
