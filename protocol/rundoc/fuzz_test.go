package rundoc

import (
	"fmt"
	"strings"
	"testing"
)

func FuzzParse(f *testing.F) {
	f.Add([]byte("### P0-T1 — Do\n**Report:** `P0-T1`\n"), []byte("### P0-T1 — DONE\n**Verify output:**\n```\nok\n```\n"), []byte("## Non-goals\n- x\n"))
	f.Add([]byte("````\n### P0-T1 — x\n```\n"), []byte("| ID | Verdict |\n|--|--|\n| a | APPROVED |\n"), []byte("| Phase | Weight |\n| P0 | 1e999 |\n"))
	f.Add([]byte("\r\n\r### \u00a0P-1 –"), []byte("~~~\n### P1-T1 — DONE\r\n"), []byte("**Options:**"))
	f.Fuzz(func(t *testing.T, guide, log, plan []byte) {
		r := Parse(Files{Docs: map[string]string{GuideFile: string(guide), LogFile: string(log), PlanFile: string(plan)}})
		lines := func(b []byte) int { return newText(string(b)).n }
		gl, ll := lines(guide), lines(log)
		ll32 := int32(ll)
		for _, s := range r.Guide.Sections {
			if s.Line < 1 || s.Line > gl || !HasDigit(s.ID) && s.IsGate() {
				t.Fatalf("section %+v out of range (lines %d)", s, gl)
			}
		}
		for _, h := range r.Log.Headings {
			if h.Line < 1 || h.Line > ll32 || h.EndLine <= h.Line || h.EndLine > ll32+1 {
				t.Fatalf("heading %+v out of range (lines %d)", h, ll)
			}
		}
		if u := r.Log.Unclosed; u != nil && (u.Line < 1 || u.Line > ll32 || u.Closed) {
			t.Fatalf("unclosed fence %+v out of range (lines %d)", u, ll)
		}
		_ = r.Log.Items()
		checkParagraphs(t, string(log))
	})
}

// checkParagraphs compares Log.Paragraphs with the runs of non-blank lines
// that the line index gives.
func checkParagraphs(t *testing.T, src string) {
	t.Helper()
	tx := newText(src)
	var want []string
	start := -1
	for i := 0; i <= tx.n; i++ {
		if i < tx.n && !IsBlank(tx.line(i)) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			want = append(want, fmt.Sprint(start+1, ":", tx.join(start, i)))
			start = -1
		}
	}
	var got []string
	for line, text := range ParseLog(LogFile, src).Paragraphs() {
		got = append(got, fmt.Sprint(line, ":", text))
	}
	if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
		t.Fatalf("Paragraphs(%q) = %q, want %q", src, got, want)
	}
}

func TestParagraphs(t *testing.T) {
	for _, src := range []string{"", "\n", "a", "a\n", "a\n\n", "\n\na\nb\n \n\tc\r\nd\r\re", "\ufeffx\n\u00a0\ny", "a\n\n\n"} {
		checkParagraphs(t, src)
	}
}
