package checks

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/review"
)

// TestQuoteAnnotations: a quote that does not occur is a file-level
// annotation on the quoted path; a problem that is not about a quote, and
// a private path, are not annotated.
func TestQuoteAnnotations(t *testing.T) {
	a := auditPass()
	a.Verification[0].Evidence = append(a.Verification[0].Evidence, review.Evidence{Path: ".env", Quote: "TOKEN"})
	d := review.Decision{Outcome: review.OutcomeInvalid, Audit: a, Problems: review.Problems{
		{Path: "$.verification[0].evidence[0].quote", Message: "does not occur verbatim"},
		{Path: "$.verification[0].evidence[1].quote", Message: "does not occur verbatim"},
		{Path: "$.verdict", Message: "a PASS leaves F1@r1 (high) open"},
	}}
	want := []Annotation{{Path: "src/store.go", StartLine: 1, EndLine: 1, Level: LevelFailure,
		Title:   "Quoted text not found ($.verification[0].evidence[0].quote)",
		Message: `The audit quotes "var cache = map[string]string{}" from this file, but does not occur verbatim`}}
	if diff := cmp.Diff(want, quoteAnnotations(d)); diff != "" {
		t.Errorf("quoteAnnotations (-want +got):\n%s", diff)
	}
}
