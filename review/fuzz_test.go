package review

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzParse checks that Parse never panics, that every problem has a path,
// and that an accepted block re-validates: rendered again as JSON it is
// accepted and reads the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		fenced(passJSON), fenced(failYAML), body(failing(finding("F1", "r"))), fenced("{}"), fenced("[]"),
		fenced("schema_version: 1\nverdict: &a PASS\nsummary: *a\n"), fenced(`{"verdicts": [{"finding_id": "F1@r7", "verdict": "DISAGREE_EVIDENCE"}]}`),
		"> ```aep-audit\n> {}\n> ```", "```aep-audit\n" + failYAML, fenced(passJSON) + fenced(failYAML),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		a, ps := Parse(body)
		for _, p := range ps {
			if !strings.HasPrefix(p.Path, "$") || p.Message == "" {
				t.Fatalf("problem %+v has no path or message", p)
			}
		}
		if len(ps) > 0 {
			return
		}
		if a == nil || !HasBlock(body) {
			t.Fatalf("accepted without an audit or a block: %v, %v", a, HasBlock(body))
		}
		text, err := json.MarshalIndent(a, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		again, ps := Parse("````aep-audit\n" + string(text) + "\n````")
		if len(ps) > 0 {
			t.Fatalf("accepted audit does not re-validate: %v\n%s", ps, text)
		}
		if diff := cmp.Diff(a, again, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("re-read audit differs (-first +again):\n%s", diff)
		}
	})
}

// FuzzLocate checks that Locate never panics and that a quote it finds
// starts on startLine, ends on endLine, and occurs nowhere earlier.
func FuzzLocate(f *testing.F) {
	f.Add(authGo, "func Check(")
	f.Add(authGo, "bool {\n\treturn")
	f.Add("a\r\nb\n\n", "\n")
	f.Add("xx\nx", "x\nx")
	f.Fuzz(func(t *testing.T, content, quote string) {
		start, end, ok := Locate([]byte(content), quote)
		if !ok {
			if quote != "" && strings.Contains(content, quote) {
				t.Fatalf("Locate missed %q in %q", quote, content)
			}
			return
		}
		lines := strings.SplitAfter(content, "\n")
		if start < 1 || end < start || end > len(lines) {
			t.Fatalf("lines %d-%d out of range (%d lines)", start, end, len(lines))
		}
		before := strings.Join(lines[:start-1], "")
		span := strings.Join(lines[start-1:end], "")
		inner := strings.Join(lines[start-1:end-1], "")
		i := strings.Index(span, quote)
		switch {
		case i < 0 || i >= len(lines[start-1]):
			t.Fatalf("%q does not start on line %d of %q", quote, start, content)
		case i+len(quote) <= len(inner):
			t.Fatalf("%q ends before line %d of %q", quote, end, content)
		case strings.Contains(before+span[:i+len(quote)-1], quote):
			t.Fatalf("%q occurs before lines %d-%d of %q", quote, start, end, content)
		}
	})
}

// FuzzDispositions checks that reading dispose comments never panics and
// that every disposition it returns is well formed.
func FuzzDispositions(f *testing.F) {
	f.Add("/aep dispose F1@r7 refuted -- x\n```aep-evidence\n- path: a.go\n  quote: q\n```")
	f.Add("/aep dispose F1@r7 fixed -- done\n/aep dispose F2@r7 duplicate --\n```aep-evidence\n[{\"path\": \".env\", \"quote\": \"x\"}]\n```")
	f.Fuzz(func(t *testing.T, body string) {
		ds, errs := Dispositions(body, "")
		if len(ds) > 0 && len(errs) > 0 {
			t.Fatalf("dispositions %+v returned with errors %v", ds, errs)
		}
		for _, d := range ds {
			if _, _, ok := SplitLedgerID(d.FindingID); !ok {
				t.Fatalf("finding %q is not a ledger ID", d.FindingID)
			}
			if d.Reason == "" || (d.Kind == "refuted" && len(d.Evidence) == 0) {
				t.Fatalf("disposition %+v lacks a reason or evidence", d)
			}
			for _, e := range d.Evidence {
				if CheckPath(e.Path) != nil || e.Quote == "" {
					t.Fatalf("evidence %+v is not valid", e)
				}
			}
		}
	})
}
