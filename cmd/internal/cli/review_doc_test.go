package cli

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/review"
)

// docExample is one fenced block of docs/audit.md marked
// "<!-- audit-example: <kind> [<arg>] -->" on the line before it.
type docExample struct {
	kind, arg, text string
}

var exampleMark = regexp.MustCompile(`^<!-- audit-example: (\w+)(?: (\S+))? -->$`)

// docExamples reads the marked blocks of a Markdown file.
func docExamples(t *testing.T, path string) []docExample {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []docExample
	var cur *docExample
	fence := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case cur != nil && fence == "":
			fence = strings.TrimRight(line, "abcdefghijklmnopqrstuvwxyz-")
		case cur != nil && line == fence:
			out = append(out, *cur)
			cur, fence = nil, ""
		case cur != nil:
			cur.text += line + "\n"
		default:
			if m := exampleMark.FindStringSubmatch(line); m != nil {
				cur = &docExample{kind: m[1], arg: m[2]}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestAuditDocExamples runs docs/audit.md's examples against a repository
// holding the example's files: every review passes review check, the
// dispose comment's commands and evidence hold, and the sample output is
// what review check prints for the first review.
func TestAuditDocExamples(t *testing.T) {
	examples := docExamples(t, filepath.Join("..", "..", "..", "docs", "audit.md"))
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q")
	files := map[string]string{}
	count := map[string]int{}
	for _, ex := range examples {
		count[ex.kind]++
		if ex.kind == "file" {
			files[ex.arg] = ex.text
		}
	}
	if count["file"] == 0 || count["review"] == 0 || count["dispose"] != 1 || count["output"] != 1 {
		t.Fatalf("docs/audit.md examples: %v", count)
	}
	writeTree(t, repo, files)
	gitCommit(t, repo, "export")
	var first string
	for _, ex := range examples {
		switch ex.kind {
		case "review":
			if first == "" {
				first = ex.text
			}
			if code, out, errs := runReviewCheck(t, ex.text, "-", "--repo-dir", repo); code != 0 {
				t.Errorf("a review example does not pass (exit %d):\n%s%s\n%s", code, out, errs, ex.text)
			}
		case "dispose":
			checkDisposeExample(t, ex.text, files)
		}
	}
	for _, ex := range examples {
		if ex.kind == "output" {
			dir := t.TempDir()
			writeTree(t, dir, map[string]string{"review.md": first})
			t.Chdir(dir)
			_, out, _ := runReviewCheck(t, "", "review.md", "--repo-dir", repo)
			if diff := cmp.Diff(ex.text, out); diff != "" {
				t.Errorf("docs/audit.md's sample output (-doc +got):\n%s", diff)
			}
		}
	}
}

// checkDisposeExample: the comment's dispose commands are valid and each
// evidence quote occurs in its file.
func checkDisposeExample(t *testing.T, body string, files map[string]string) {
	t.Helper()
	ds, errs := review.Dispositions(body, "/aep")
	if len(errs) > 0 || len(ds) == 0 {
		t.Fatalf("the dispose example: %v %v", ds, errs)
	}
	for _, d := range ds {
		for _, e := range d.Evidence {
			if _, _, ok := review.Locate([]byte(files[e.Path]), e.Quote); !ok {
				t.Errorf("the dispose example's quote %q does not occur in %s", e.Quote, e.Path)
			}
		}
	}
}
