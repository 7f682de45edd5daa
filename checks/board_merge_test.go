package checks

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/boardview"
)

func TestMergeBoard(t *testing.T) {
	r1 := BoardRegion(boardview.Board{Repo: "acme/app"})
	r2 := BoardRegion(sampleBoard())
	fakeHash := boardHashPrefix + strings.Repeat("0", 64) + " -->\n"
	tests := []struct {
		name, body, want string
	}{
		{"empty body", "", r2},
		{"no region", "my notes", "my notes\n\n" + r2},
		{"no region, newline", "my notes\n", "my notes\n\n" + r2},
		{"region alone", r1, r2},
		{"notes around", "above\n\n" + r1 + "\nbelow\n", "above\n\n" + r2 + "\nbelow\n"},
		{"CRLF notes", "above\r\n" + strings.ReplaceAll(r1, "\n", "\r\n") + "below\r\n", "above\r\n" + r2 + "below\r\n"},
		{"end marker at the end without newline", "a\n" + strings.TrimSuffix(r1, "\n"), "a\n" + r2},
		{"lone begin before", BoardBegin + "\n" + fakeHash + "note\n" + r1, BoardBegin + "\n" + fakeHash + "note\n" + r2},
		{"lone begin after", r1 + BoardBegin + "\n" + fakeHash + "note\n", r2 + BoardBegin + "\n" + fakeHash + "note\n"},
		{"lone end after", r1 + "note\n" + BoardEnd + "\n", r2 + "note\n" + BoardEnd + "\n"},
		{"begin without hash", BoardBegin + "\nnote\n" + BoardEnd + "\n", BoardBegin + "\nnote\n" + BoardEnd + "\n\n" + r2},
		{"marker inside a line", "x " + BoardBegin + "\n" + fakeHash + BoardEnd + " y\n", "x " + BoardBegin + "\n" + fakeHash + BoardEnd + " y\n\n" + r2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := MergeBoard(tt.body, r2)
			if got != tt.want {
				t.Errorf("MergeBoard(%q) =\n%q\nwant\n%q", tt.body, got, tt.want)
			}
			if !BoardUnchanged(got, r2) {
				t.Error("the merged body's region is not the one written")
			}
		})
	}
}

func TestBoardUnchanged(t *testing.T) {
	r := BoardRegion(sampleBoard())
	tests := []struct {
		name string
		body string
		want bool
	}{
		{"same", "notes\n" + r, true},
		{"same, CRLF", strings.ReplaceAll(r, "\n", "\r\n"), true},
		{"edited inside", strings.Replace(r, "Charts", "Graphs", 1), false},
		{"other board", BoardRegion(boardview.Board{}), false},
		{"none", "notes", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := BoardUnchanged(tt.body, r); got != tt.want {
				t.Errorf("BoardUnchanged = %v, want %v", got, tt.want)
			}
		})
	}
}

// FuzzMergeBoard: whatever a person (or an attacker) made of the body,
// fake markers included, a merge keeps every byte outside the region it
// replaces, finds its own region again, and a second merge is the same.
func FuzzMergeBoard(f *testing.F) {
	r1 := BoardRegion(boardview.Board{Repo: "a/b"})
	hash := boardHashPrefix + strings.Repeat("0", 64) + " -->"
	for _, s := range []string{"", "notes", r1, "x\n" + r1 + "y", BoardBegin + "\n" + hash + "\n", BoardEnd + "\n" + r1 + BoardBegin + "\n",
		BoardBegin + "\r\n" + hash + "\r\nz\r\n" + BoardEnd + "\r\n", r1 + r1} {
		f.Add(s)
	}
	r2 := BoardRegion(sampleBoard())
	f.Fuzz(func(t *testing.T, body string) {
		out := MergeBoard(body, r2)
		start, end, found := findBoard(body)
		switch {
		case found && out != body[:start]+r2+body[end:]:
			t.Fatalf("text outside the region changed")
		case !found && !strings.HasPrefix(out, body):
			t.Fatalf("a body without a region lost text")
		}
		if s, e, ok := findBoard(out); !ok || out[s:e] != r2 {
			t.Fatalf("the merged region is not found again")
		}
		if again := MergeBoard(out, r2); again != out {
			t.Fatalf("a second merge changed the body")
		}
		if !BoardUnchanged(out, r2) {
			t.Fatalf("BoardUnchanged is false right after the merge")
		}
	})
}

// BenchmarkBoardRender50x8 renders a board of 50 increments of 8 stories.
func BenchmarkBoardRender50x8(b *testing.B) {
	s := sampleBoard()
	inc := s.Increments[0]
	inc.Stories = append(inc.Stories, inc.Stories[0])
	big := boardview.Board{Version: boardview.Version, Repo: s.Repo, URL: s.URL, Inbox: s.Inbox, Certificates: s.Certificates}
	for i := range 50 {
		inc.Number = i + 1
		big.Increments = append(big.Increments, inc)
	}
	b.ReportAllocs()
	for b.Loop() {
		BoardRegion(big)
	}
}
