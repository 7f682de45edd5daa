package lint

import (
	"hash/maphash"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// normalizedByRune is appendNormalized one character at a time, the form
// it had before plain runs were copied whole: the oracle of
// FuzzAppendNormalized.
func normalizedByRune(p string) string {
	var dst []byte
	space := false
	for _, line := range strings.Split(p, "\n") {
		if isHeading3(line) {
			continue
		}
		for i := 0; i < len(line); {
			r, size := utf8.DecodeRuneInString(line[i:])
			i += size
			if rundoc.IsSpace(r) {
				space = len(dst) > 0
				continue
			}
			if space {
				dst = append(dst, ' ')
				space = false
			}
			dst = utf8.AppendRune(dst, r)
		}
		space = len(dst) > 0
	}
	return string(dst)
}

var normalizeSeeds = []string{
	"", "a", "  a  b\t\tc \n d  ", "### P0-T1 — DONE\nbody\n###x\n### \u00a0", "é\u00a0ü\u2003x\xff\xfe y",
	"line one\n\nline two\r\n", "\x1c\x1d a \x1f", "tail \u0085", "a\u2028b",
}

func TestAppendNormalized(t *testing.T) {
	for _, s := range normalizeSeeds {
		if got, want := string(appendNormalized([]byte("kept"), s)), "kept"+normalizedByRune(s); got != want {
			t.Errorf("appendNormalized(%q) = %q; want %q", s, got, want)
		}
		checkHashNormalized(t, s)
	}
	long := strings.Repeat("| P0-T1 | done |  `APPROVED` |\n### P0-T1 — DONE\n\u00a0\n", 3000)
	checkHashNormalized(t, long)
	checkHashNormalized(t, strings.Repeat("word ", 30000)+"\n"+long)
}

// checkHashNormalized holds hashNormalized, at chunk sizes from one byte to
// the one duplicates uses, to hashing appendNormalized's text whole.
func checkHashNormalized(t *testing.T, s string) {
	t.Helper()
	norm := appendNormalized(nil, s)
	var h, whole maphash.Hash
	whole.SetSeed(h.Seed())
	whole.Write(norm)
	for _, chunk := range []int{1, 2, 3, 7, 64, hashChunk} {
		_, size, runes := hashNormalized(&h, []byte("stale"), s, chunk)
		if h.Sum64() != whole.Sum64() || size != len(norm) || runes != utf8.RuneCount(norm) {
			t.Fatalf("hashNormalized(%.40q…, chunk %d): size %d, runes %d, hash equal %v; want %d, %d, true",
				s, chunk, size, runes, h.Sum64() == whole.Sum64(), len(norm), utf8.RuneCount(norm))
		}
	}
}

func FuzzAppendNormalized(f *testing.F) {
	for _, s := range normalizeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := string(appendNormalized(nil, s)), normalizedByRune(s); got != want {
			t.Errorf("appendNormalized(%q) = %q; want %q", s, got, want)
		}
		checkHashNormalized(t, s)
	})
}
