package checks

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func TestCutMarkdown(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		max      int
		wantKeep string // the kept prefix, before the note
		wantNote string // a fragment of the note; "" means no cut
	}{
		{"fits", "a\nb\n", 10, "a\nb\n", ""},
		{"exact", strings.Repeat("x", 10), 10, strings.Repeat("x", 10), ""},
		{"line boundary", "line one\nline two\n" + strings.Repeat("z", 300) + "\n", 220, "line one\nline two\n", "the last 301 bytes (1 lines)"},
		{"long first line", strings.Repeat("é", 200), 200, "", "cut this summary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CutMarkdown(tt.in, tt.max, "summary")
			if len(got) > tt.max {
				t.Fatalf("len = %d, more than %d", len(got), tt.max)
			}
			if !utf8.ValidString(got) {
				t.Fatalf("result is not valid UTF-8")
			}
			if tt.wantNote == "" {
				if got != tt.in {
					t.Errorf("got %q, want it unchanged", got)
				}
				return
			}
			if !strings.Contains(got, tt.wantNote) {
				t.Errorf("got %q, want a note containing %q", got, tt.wantNote)
			}
			if !strings.HasPrefix(got, tt.wantKeep) {
				t.Errorf("got %q, want prefix %q", got, tt.wantKeep)
			}
		})
	}
}

func TestCutMarkdown200KB(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 200_000; i++ {
		b.WriteString("| problem | docs/run/plan.md:12 | ünïcode row text |\n")
	}
	in := b.String()
	got := CutMarkdown(in, MaxSummaryBytes, "summary")
	if len(got) > MaxSummaryBytes {
		t.Fatalf("len = %d > %d", len(got), MaxSummaryBytes)
	}
	note := strings.Index(got, "\n---\n_aepgate cut")
	if note < 0 {
		t.Fatal("no cut note")
	}
	kept := got[:note]
	if !strings.HasPrefix(in, kept) || !strings.HasSuffix(kept, "\n") {
		t.Errorf("kept text is not whole lines of the input")
	}
	if len(kept) < MaxSummaryBytes-400 {
		t.Errorf("kept only %d bytes; the cut wastes room", len(kept))
	}
}

func FuzzCutMarkdown(f *testing.F) {
	f.Add("a\nb\nc", 3)
	f.Add(strings.Repeat("é\n", 100), 150)
	f.Fuzz(func(t *testing.T, s string, max int) {
		if max < 0 || max > 1<<16 || !utf8.ValidString(s) {
			return
		}
		got := CutMarkdown(s, max, "text")
		if len(got) > max && len(s) > max {
			t.Fatalf("len %d > max %d", len(got), max)
		}
		if !utf8.ValidString(got) {
			t.Fatal("invalid UTF-8")
		}
	})
}

func TestFit(t *testing.T) {
	in := Run{
		Name: "n", HeadSHA: strings.Repeat("a", 40), Title: strings.Repeat("t", 300),
		Annotations: []Annotation{
			{Path: "a", StartLine: 2, EndLine: 4, StartColumn: 1, EndColumn: 5, Level: LevelNotice, Message: "m"},
			{Path: "b", StartLine: 3, StartColumn: 1, EndColumn: 5, Level: LevelNotice, Message: "m"},
		},
	}
	got := Fit(in)
	if n := utf8.RuneCountInString(got.Title); n != MaxTitleChars || !strings.HasSuffix(got.Title, "…") {
		t.Errorf("title has %d characters, want %d ending in …", n, MaxTitleChars)
	}
	want := []Annotation{
		{Path: "a", StartLine: 2, EndLine: 4, Level: LevelNotice, Message: "m"},
		{Path: "b", StartLine: 3, EndLine: 3, StartColumn: 1, EndColumn: 5, Level: LevelNotice, Message: "m"},
	}
	if diff := cmp.Diff(want, got.Annotations); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}
	if in.Annotations[0].StartColumn != 1 {
		t.Error("Fit changed its input")
	}
}

func TestAnnotationPages(t *testing.T) {
	for _, tt := range []struct{ n, want int }{{0, 0}, {1, 1}, {50, 1}, {51, 2}, {120, 3}, {150, 3}} {
		pages := AnnotationPages(make([]Annotation, tt.n))
		total := 0
		for _, p := range pages {
			if len(p) > AnnotationsPerRequest || len(p) == 0 {
				t.Errorf("n=%d: page of %d", tt.n, len(p))
			}
			total += len(p)
		}
		if len(pages) != tt.want || total != tt.n {
			t.Errorf("n=%d: %d pages holding %d, want %d pages holding %d", tt.n, len(pages), total, tt.want, tt.n)
		}
	}
}
