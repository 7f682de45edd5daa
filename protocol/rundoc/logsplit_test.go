package rundoc

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// splitLogs are logs whose report headings make awkward places to split:
// inside fenced blocks (closed, unclosed, tilde, longer fences), before the
// status board, in a report's Verify output, after a board that runs up
// to the heading, with CRLF line ends and without a final newline.
var splitLogs = []string{
	"| ID | Verdict |\n|---|---|\n| P1-T1 | APPROVED |\n| P1-T2 | |\n### P1-T1 — DONE\n\n**Verify output:**\n```\nok\n```\n\n**Observations:** none\n\n### P1-T1 — APPROVED\n\n---\n\n### P1-T2 — DONE\n**Verify output:**\n~~~~\n### P1-T3 — DONE\n```\n~~~~\n### P1-T2 — REJECTED\n",
	"intro\n\n### P1-T1 — DONE\n\n| ID | Verdict | Executor |\n|--|--|--|\n| P1-T1 | approved | sonnet |\n\n### P1-T1 — APPROVED\n### P1-T2 — DONE\n```\n### P1-T3 — DONE\n",
	"# Log\r\n\r\n## Status board\r\n\r\n| ID | Verdict |\r\n|---|---|\r\n| A1 | APPROVED |\r\n### A1 — DONE\r\n**Verify output:**\r\n```text\r\n$ go test\r\n### A2 — DONE\r\n```\r\n**Changed:** x\r\n### A1 — APPROVED\r\n### A2 — DONE",
	"| ID | Verdict |\n|---|---|\n| G1 | |\n\n### G1 — DONE\n**Verify output:**\n\n    ### G2 — DONE\n\n```\none\n```\n```\ntwo\n```\n**Next:** x\n### G2 — DONE\n#### not a body end? \n### G2 — CONDITIONAL\n### G3 — DONE\n",
	"### X1 — DONE\n| id | verdict |\n| - | - |\n| X1 | REJECTED |\n### X1 — REJECTED\n### X2 — DONE\n",
}

// TestSplitLogIsOnePass: splitting at any report heading gives exactly
// the one-pass parse, or declines (and ParseLog then parses in one pass).
func TestSplitLogIsOnePass(t *testing.T) {
	for i, raw := range splitLogs {
		src := normalize(raw)
		splits, same := checkSplits(t, src)
		if splits == 0 {
			t.Errorf("log %d: no heading to split at; the test would prove nothing", i)
		}
		t.Logf("log %d: %d split points, %d taken", i, splits, same)
	}
}

// TestSplitLogDeclines shows the checks splitLog makes being needed: the
// second half assumed to start outside a fenced block and after the board
// gives another parse when the first half ends inside a block, or before
// the board.
func TestSplitLogDeclines(t *testing.T) {
	tests := []struct{ name, src, at string }{
		{"in a fenced block", "| ID | Verdict |\n|--|--|\n| A1 | |\n```\n### A1 — DONE\n```\n", "### A1"},
		{"before the board", "### A1 — DONE\n| ID | Verdict |\n|--|--|\n| A1 | APPROVED |\n", "### A1"},
		{"board after the split", "x\n### A1 — DONE\n\n| ID | Verdict |\n|--|--|\n| A1 | APPROVED |\n", "### A1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := strings.Index(tt.src, tt.at)
			line := strings.Count(tt.src[:at], "\n")
			if _, _, ok := splitAt(LogFile, tt.src, at, line); ok {
				t.Fatalf("splitAt took a split it cannot prove")
			}
			// Without the checks (the halves joined as they are), the
			// parse differs from one pass: the checks are what keep it exact.
			if equalLogs(unchecked(tt.src, at, line), parseLog(LogFile, tt.src, true)) {
				t.Errorf("the unchecked split equals one pass here; the case shows nothing")
			}
		})
	}
}

// unchecked is splitAt without its checks: the second half parsed as if it
// started after the board and outside any block, joined as it is.
func unchecked(src string, at, line int) *Log {
	first := parseLog(LogFile, src[:at], true)
	second := &Log{File: LogFile, src: src}
	q := &logParser{log: second, sc: newScanner(src, true, true).from(at, line, len(src)), cur: -1}
	q.board.done = true
	q.run()
	found, unclosed := q.sc.finish()
	q.endReport(q.sc.i + 1)
	q.finish(found, unclosed)
	for k := range second.Headings {
		if e := &second.Headings[k].Evidence; e.Line != 0 {
			shift := int32(len(first.Fences))
			e.Fences = Span{e.Fences.From + shift, e.Fences.To + shift}
		}
	}
	first.Headings = append(first.Headings, second.Headings...)
	first.Fences = append(first.Fences, second.Fences...)
	first.Unclosed = second.Unclosed
	first.items, first.index = first.combine()
	return first
}

// checkSplits splits src at each report heading and fails t when a split
// taken differs from one pass. It returns how many split points there were
// and how many splits were taken.
func checkSplits(t testing.TB, src string) (splits, taken int) {
	t.Helper()
	want := parseLog(LogFile, src, true)
	for off := 0; off < len(src); {
		k := strings.Index(src[off:], "###")
		if k < 0 {
			break
		}
		at := off + k
		off = at + 3
		if at > 0 && src[at-1] != '\n' {
			continue
		}
		end := strings.IndexByte(src[at:], '\n')
		if end < 0 {
			end = len(src) - at
		}
		if _, _, ok := logHeading(src[at : at+end]); !ok {
			continue
		}
		splits++
		got, spare, ok := splitAt(LogFile, src, at, strings.Count(src[:at], "\n"))
		if !ok {
			// Declined: the one pass into the arrays it sized is the one pass.
			if got := parseLogInto(LogFile, src, true, spare); !equalLogs(got, want) {
				t.Errorf("one pass into the arrays of a split declined at offset %d of %q differs:\n%s", at, src, cmp.Diff(logView(want), logView(got)))
			}
			continue
		}
		taken++
		if !equalLogs(got, want) {
			t.Errorf("split at offset %d of %q differs from one pass:\n%s", at, src, cmp.Diff(logView(want), logView(got)))
		}
	}
	return splits, taken
}

// logView is everything a parse yields, for comparison.
type view struct {
	Headings []Heading
	Board    *Board
	Fences   []Fence
	Unclosed *Fence
	Items    []Item
	Index    map[string]int
}

func logView(l *Log) view {
	return view{Headings: l.Headings, Board: l.Board, Fences: l.Fences, Unclosed: l.Unclosed, Items: l.items, Index: indexView(l)}
}

// indexView is where Index finds each item's ID.
func indexView(l *Log) map[string]int {
	m := make(map[string]int, len(l.items))
	for _, it := range l.items {
		k, ok := l.Index(it.ID)
		if !ok {
			k = -1
		}
		m[it.ID] = k
	}
	return m
}

func equalLogs(a, b *Log) bool {
	return cmp.Equal(logView(a), logView(b), cmpopts.EquateEmpty())
}

// FuzzSplitLog: on any text, every split splitAt takes is one pass.
func FuzzSplitLog(f *testing.F) {
	for _, s := range splitLogs {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		checkSplits(t, normalize(raw))
	})
}

// TestJoin: halves filled in place are joined in place; a half that grew
// into an array of its own is appended, with the same elements.
func TestJoin(t *testing.T) {
	all := make([]int, 0, 10)
	a := append(all[:0:4], 1, 2)
	b := append(all[4:4], 3, 4, 5)
	got := join(all, 4, a, b)
	if want := []int{1, 2, 3, 4, 5}; !cmp.Equal(got, want) || &got[0] != &all[:1][0] {
		t.Errorf("in place: got %v (same array %v), want %v in all", got, &got[0] == &all[:1][0], want)
	}
	all = make([]int, 0, 10)
	grown := append(all[:0:2], 1, 2, 9) // outgrew its part: a new array
	b = append(all[2:2], 3)
	if got, want := join(all, 2, grown, b), []int{1, 2, 9, 3}; !cmp.Equal(got, want) {
		t.Errorf("grown first half: got %v, want %v", got, want)
	}
	all = make([]int, 0, 10)
	a = append(all[:0:2], 1)
	if got, want := join(all, 2, a, []int{7, 8}), []int{1, 7, 8}; !cmp.Equal(got, want) {
		t.Errorf("second half elsewhere: got %v, want %v", got, want)
	}
}
