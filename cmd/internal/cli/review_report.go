package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/cmd/internal/reportjson"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/review"
)

// The review check report (package reportjson, which aepgate mcp returns
// too).
type (
	reviewReport  = reportjson.ReviewCheck
	bundleReport  = reportjson.ReviewBundle
	bundleFile    = reportjson.BundleFile
	quoteReport   = reportjson.ReviewQuote
	problemReport = reportjson.ReviewProblem
)

// notChecked are the audit rules that depend on the pull request.
var notChecked = []string{
	"who may audit: a User who neither opened the pull request nor authored or committed any of its commits nor instructed the agent that made it, listed in auditors when those are configured",
	"that work_unit names the pull request's work unit",
	"that each verdicts entry names a finding of an earlier counting audit of the pull request",
	"that a PASS leaves no earlier finding of severity critical or high open",
	"that the commit is still the pull request's head when the review is judged",
}

func newReviewReport(file string, res *reviewResult) reviewReport {
	rep := reviewReport{File: file, Form: res.Form, Commit: res.Commit, Valid: len(res.Problems) == 0,
		Quotes: []quoteReport{}, Problems: []problemReport{}, NotChecked: notChecked}
	if a := res.Audit; a != nil {
		rep.Verdict, rep.WorkUnit = a.Verdict, a.WorkUnit
		if res.Read {
			for _, c := range a.Evidence() {
				q := quoteReport{Evidence: c.Path, Path: c.Evidence.Path, Status: "not found"}
				if loc, ok := res.Checked.Quotes[c.Evidence]; ok {
					q.Status, q.StartLine, q.EndLine = "found", loc.StartLine, loc.EndLine
				}
				if slices.ContainsFunc(res.Problems, func(p review.Problem) bool { return p.Path == c.Path+".path" }) {
					q.Status = "path refused"
				}
				rep.Quotes = append(rep.Quotes, q)
			}
		}
	}
	if res.Read {
		rep.Bundle = &bundleReport{Identity: res.Checked.BundleID, Files: []bundleFile{}}
		for _, f := range res.Bundle {
			sum := sha256.Sum256(f.Content)
			rep.Bundle.Files = append(rep.Bundle.Files, bundleFile{Path: f.Path, SHA256: hex.EncodeToString(sum[:]),
				Bytes: len(f.Content), Symlink: f.Symlink, Missing: f.Missing})
			rep.Bundle.Bytes += len(f.Content)
		}
	}
	for _, p := range res.Problems {
		rep.Problems = append(rep.Problems, problemReport{Path: p.Path, Message: p.Message})
	}
	return rep
}

// writeText prints the report for people.
func writeReviewText(w io.Writer, r reviewReport) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) at %s\n", r.File, r.Form, r.Commit)
	if r.Verdict != "" {
		fmt.Fprintf(&b, "verdict %s for work unit %s\n", r.Verdict, orDashText(r.WorkUnit))
	}
	if r.Bundle != nil {
		fmt.Fprintf(&b, "\nevidence bundle %s (%s, %d bytes)\n", r.Bundle.Identity, countText(len(r.Bundle.Files), "file"), r.Bundle.Bytes)
		for _, f := range r.Bundle.Files {
			fmt.Fprintf(&b, "  %s  %s\n", f.Path, fileText(f))
		}
	}
	if len(r.Quotes) > 0 {
		b.WriteString("\nquotes\n")
		for _, q := range r.Quotes {
			fmt.Fprintf(&b, "  %s  %s\n", q.Evidence, quoteText(q))
		}
	}
	if len(r.Problems) > 0 {
		b.WriteString("\nproblems\n")
		for _, p := range r.Problems {
			fmt.Fprintf(&b, "  %s: %s\n", p.Path, p.Message)
		}
		fmt.Fprintf(&b, "\n%s: the App would refuse this review at %s.\n", countText(len(r.Problems), "problem"), gitsha.Short(r.Commit))
	} else {
		fmt.Fprintf(&b, "\nvalid: the App would accept this block and its evidence at %s.\n", gitsha.Short(r.Commit))
	}
	b.WriteString("Checked only by the App, on the pull request:\n")
	for _, n := range r.NotChecked {
		fmt.Fprintf(&b, "  - %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fileText(f bundleFile) string {
	switch {
	case f.Missing:
		return "missing"
	case f.Symlink:
		return "symbolic link"
	}
	return fmt.Sprintf("%d bytes, sha256 %s", f.Bytes, f.SHA256)
}

func quoteText(q quoteReport) string {
	switch {
	case q.Status != "found":
		return q.Path + ": " + q.Status
	case q.StartLine == q.EndLine:
		return fmt.Sprintf("%s line %d", q.Path, q.StartLine)
	}
	return fmt.Sprintf("%s lines %d-%d", q.Path, q.StartLine, q.EndLine)
}

func countText(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func orDashText(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
