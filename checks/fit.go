package checks

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Fit returns a copy of r cut to GitHub's limits: summary and text to
// MaxSummaryBytes/MaxTextBytes on a line boundary with a note saying what was
// cut, titles to MaxTitleChars, annotation messages and raw details to 64 KB,
// and columns dropped from annotations that span several lines (GitHub
// applies columns only to single-line annotations). Fit never drops an
// annotation or an action; Validate reports what cannot be fitted.
func Fit(r Run) Run {
	r.Title = cutChars(r.Title, MaxTitleChars)
	r.Summary = CutMarkdown(r.Summary, MaxSummaryBytes, "summary")
	r.Text = CutMarkdown(r.Text, MaxTextBytes, "text")
	if len(r.Annotations) > 0 {
		anns := make([]Annotation, len(r.Annotations))
		for i, a := range r.Annotations {
			anns[i] = fitAnnotation(a)
		}
		r.Annotations = anns
	}
	return r
}

func fitAnnotation(a Annotation) Annotation {
	if a.EndLine == 0 {
		a.EndLine = a.StartLine
	}
	if a.StartLine != a.EndLine {
		a.StartColumn, a.EndColumn = 0, 0
	}
	a.Title = cutChars(a.Title, MaxTitleChars)
	a.Message = CutMarkdown(a.Message, MaxAnnotationMessageBytes, "message")
	a.RawDetails = CutMarkdown(a.RawDetails, MaxAnnotationRawDetailsBytes, "details")
	return a
}

// CutMarkdown returns s unchanged when it fits in maxBytes UTF-8 bytes.
// Otherwise it keeps whole lines from the start, as many as fit together with
// a closing note that names what (e.g. "summary") and how many bytes and
// lines were cut, so a reader knows the text is incomplete. A first line
// longer than the budget is cut at a character boundary instead. The result
// is always valid UTF-8 when s is, and never longer than maxBytes.
func CutMarkdown(s string, maxBytes int, what string) string {
	if len(s) <= maxBytes {
		return s
	}
	// The note's length depends on the numbers in it; reserve room for the
	// widest numbers s can produce.
	// One more byte for the newline added after a cut first line.
	budget := maxBytes - len(cutNote(what, len(s), strings.Count(s, "\n")+1)) - 1
	if budget <= 0 {
		return cutBytes(s, maxBytes)
	}
	kept := cutBytes(s, budget)
	if i := strings.LastIndexByte(kept, '\n'); i >= 0 {
		kept = kept[:i+1]
	}
	rest := s[len(kept):]
	lines := strings.Count(rest, "\n")
	if !strings.HasSuffix(rest, "\n") {
		lines++
	}
	if kept != "" && !strings.HasSuffix(kept, "\n") {
		kept += "\n"
	}
	return kept + cutNote(what, len(rest), lines)
}

// cutNote is the line that ends a cut text.
func cutNote(what string, bytes, lines int) string {
	return fmt.Sprintf("\n---\n_aepgate cut this %s to GitHub's limit: the last %d bytes (%d lines) are not shown here; the job log and job summary have the full report._\n",
		what, bytes, lines)
}

// cutBytes returns the longest prefix of s of at most n bytes that ends on a
// character boundary.
func cutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// cutChars returns s cut to at most n characters, ending in "…" when cut.
func cutChars(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return string(runes[:n-1]) + "…"
}
