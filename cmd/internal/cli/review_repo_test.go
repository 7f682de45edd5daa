package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// exportV1 and exportV2 are export/export.go at the first and the second
// commit of reviewRepo.
const (
	exportV1 = "package export\n\n// Export writes the rows as CSV.\nfunc Export(rows []Row) error {\n\treturn writeCSV(rows)\n}\n"
	exportV2 = "package export\n\nimport \"fmt\"\n\n// Export writes the rows as CSV.\nfunc Export(rows []Row) error {\n\tif err := writeCSV(rows); err != nil {\n\t\treturn fmt.Errorf(\"export: %w\", err)\n\t}\n\treturn nil\n}\n"
)

// reviewRepo is a git repository with two commits: the first holds
// export/export.go (exportV1), a symbolic link link.go to it and a .env
// file; the second changes export/export.go to exportV2. The working tree
// then holds an uncommitted export/export.go that neither commit has.
// Commit dates and identities are fixed, so the SHAs are too.
func reviewRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	gitIn(t, dir, "init", "-q")
	writeTree(t, dir, map[string]string{"export/export.go": exportV1, "link.go": "->export/export.go", ".env": "TOKEN=s3cret\n"})
	gitCommit(t, dir, "first")
	writeTree(t, dir, map[string]string{"export/export.go": exportV2})
	gitCommit(t, dir, "second")
	writeTree(t, dir, map[string]string{"export/export.go": "package export // WORKTREE ONLY\n"})
	return dir
}

// writeTree writes files into dir; a body "->target" makes a symbolic link.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(body, "->"); ok {
			err = os.Symlink(target, full)
		} else {
			err = os.WriteFile(full, []byte(body), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func gitCommit(t *testing.T, dir, msg string) {
	t.Helper()
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "-c", "commit.gpgsign=false", "commit", "-qm", msg)
}

// gitIn runs git in dir with fixed identities and dates, returning stdout.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_AUTHOR_DATE=2025-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2025-01-02T03:04:05Z")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, errb.String())
	}
	return strings.TrimSpace(out.String())
}

// runReviewCheck runs "aepgate review check" with args and stdin.
func runReviewCheck(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runFull(context.Background(), append([]string{"review", "check"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// auditReview is a review body whose block has verdict, findings (JSON,
// "" for none) and one passing verification citing evidence (JSON
// evidence entries).
func auditReview(verdict, findings, evidence string) string {
	if findings == "" {
		findings = "[]"
	}
	return fmt.Sprintf("Checked the export path.\n\n```aep-audit\n"+`{"schema_version": 1, "work_unit": "#42", "verdict": %q, "summary": "the export wraps its errors",
 "findings": %s,
 "verification": [{"check": "go test ./export/...", "outcome": "pass", "evidence": [%s]}]}`+"\n```\n", verdict, findings, evidence)
}

// Evidence entries against reviewRepo.
const (
	quoteV2      = `{"path": "export/export.go", "quote": "return fmt.Errorf(\"export: %w\", err)"}`
	quoteV1      = `{"path": "export/export.go", "quote": "func Export(rows []Row) error {\n\treturn writeCSV(rows)\n}"}`
	quoteAbsent  = `{"path": "export/export.go", "quote": "func Import("}`
	quoteEnv     = `{"path": ".env", "quote": "TOKEN=s3cret"}`
	quoteLink    = `{"path": "link.go", "quote": "export/export.go"}`
	quoteMissing = `{"path": "export/none.go", "quote": "package export"}`
	quoteTree    = `{"path": "export/export.go", "quote": "WORKTREE ONLY"}`
)

// manyQuotes cites n distinct files.
func manyQuotes(n int) string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf(`{"path": "f%d.go", "quote": "x"}`, i)
	}
	return strings.Join(out, ", ")
}
